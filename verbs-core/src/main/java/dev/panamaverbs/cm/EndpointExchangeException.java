package dev.panamaverbs.cm;

import dev.panamaverbs.VerbsException;
import java.util.Objects;

/** An {@link EndpointExchange} that did not complete; {@link #reason()} says why. */
public final class EndpointExchangeException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /** Why an exchange failed. */
    public enum Reason {
        /**
         * The peer closed the connection before its whole message arrived, or reset it (or the
         * connection broke) during the exchange; the I/O exception, if any, is the cause.
         */
        PEER_CLOSED,
        /** The peer speaks another version of the wire format. */
        VERSION_MISMATCH,
        /** What arrived is not an endpoint message (wrong magic, or a field out of range). */
        GARBAGE,
        /** Connecting, accepting or reading took longer than the timeout. */
        TIMEOUT
    }

    /** Reason. */
    private final Reason reason;

    EndpointExchangeException(Reason reason, String message) {
        this(reason, message, null);
    }

    EndpointExchangeException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /**
     * Why the exchange failed.
     *
     * @return why the exchange failed.
     */
    public Reason reason() {
        return reason;
    }
}
