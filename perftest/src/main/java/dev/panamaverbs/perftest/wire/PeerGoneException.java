package dev.panamaverbs.perftest.wire;

/** The peer closed the out-of-band connection or stopped answering in the middle of a step. */
public final class PeerGoneException extends ProtocolException {
    private static final long serialVersionUID = 1L;

    public PeerGoneException(String message, Throwable cause) {
        super(message, cause);
    }
}
