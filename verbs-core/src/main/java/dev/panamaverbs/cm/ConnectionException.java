package dev.panamaverbs.cm;

import dev.panamaverbs.values.Errno;
import dev.panamaverbs.VerbsException;

/**
 * An rdma_cm operation failed: address or route resolution, connect, accept or disconnect. The
 * message names the C function, the address or identifier, the event that ended the wait (or
 * that none came in time) and its status; {@link #errno()} is the errno ({@code ETIMEDOUT} for a
 * wait that timed out, {@code ECONNREFUSED} for a rejected connect).
 */
public class ConnectionException extends VerbsException {
    private static final long serialVersionUID = 1L;

    private final transient ConnectionEvent event;

    /**
     * A failure of {@code verb} about {@code target}, with {@code errno}, ended by {@code event} (or none).
     *
     * @param verb the C function that failed, e.g. {@code rdma_connect}
     * @param target what it was about, for the message, e.g. {@code "to 10.0.2.15:7471"}
     * @param errno the errno (ETIMEDOUT for a wait that timed out)
     * @param event the event that ended the operation, or null
     * @param detail what else to say, or null
     */
    public ConnectionException(String verb, String target, int errno, ConnectionEvent event, String detail) {
        super(verb, errno, verb + " " + target + " failed: " + (event != null
                ? event.type() + ", " + event.statusDescription() : "errno " + errno + " (" + Errno.describe(errno) + ")")
                + (detail == null || detail.isEmpty() ? "" : ": " + detail), null);
        this.event = event;
    }

    /**
     * The event that ended the operation, if one did (none for a timeout or a failed call).
     *
     * @return the event that ended the operation, if one did (none for a timeout or a failed call).
     */
    public java.util.Optional<ConnectionEvent> event() {
        return java.util.Optional.ofNullable(event);
    }

    /**
     * True when this failure says nothing listens on the port (yet): on iWARP {@code rdma_connect}
     * itself fails with {@code ECONNREFUSED} (its TCP connect met a reset), with no event; in a
     * datagram port space ({@code RDMA_PS_UDP}, {@code RDMA_PS_IPOIB}) the resolution ends
     * UNREACHABLE with the SIDR reply's status 1 ({@code IB_SIDR_UNSUPPORTED}); on InfiniBand and
     * RoCE a connect is REJECTED with reason 8 ({@link ConnectionRejectedException#nothingListens()}).
     * A client may retry these while the server starts; every other failure is final.
     *
     * @return true when this failure says nothing listens on the port (yet)
     */
    public boolean nothingListens() {
        if (event == null) {
            return "rdma_connect".equals(verb()) && errno() == Errno.ECONNREFUSED;
        }
        return event.type() == ConnectionEventType.UNREACHABLE && event.status() == SIDR_UNSUPPORTED;
    }

    /** {@code IB_SIDR_UNSUPPORTED}: the SIDR reply's status when nothing listens on the service ID. */
    static final int SIDR_UNSUPPORTED = 1;

    /**
     * The event's status (0 when there was no event).
     *
     * @return the event's status (0 when there was no event).
     */
    public int status() {
        return event != null ? event.status() : 0;
    }
}
