package dev.panamaverbs.cm;

import dev.panamaverbs.values.Errno;

/**
 * A connect was rejected: the peer called {@code rdma_reject} (reason 28, its private data
 * available here), or nothing listens on that port (reason 8). {@link #errno()} is
 * {@code ECONNREFUSED}; {@link #status()} the InfiniBand CM reject reason.
 */
public class ConnectionRejectedException extends ConnectionException {
    private static final long serialVersionUID = 1L;

    /**
     * A rejection of {@code verb} to {@code target} reported by {@code event} (type REJECTED).
     *
     * @param verb the C function that failed, e.g. {@code rdma_connect}
     * @param target what it was about, for the message, e.g. {@code "to 10.0.2.15:7471"}
     * @param event the REJECTED event
     */
    public ConnectionRejectedException(String verb, String target, ConnectionEvent event) {
        super(verb, target, Errno.ECONNREFUSED, event, event.status() == 8 ? "nothing listens on that port"
                : event.status() == 28 ? "the peer rejected the connection" : null);
    }

    /**
     * The private data the peer sent with its reject (a copy; the CM pads it to 148 bytes).
     *
     * @return the private data the peer sent with its reject (a copy; the CM pads it to 148 bytes).
     */
    public byte[] privateData() {
        return event().map(ConnectionEvent::privateData).orElse(new byte[0]);
    }

    /**
     * True when the peer's application rejected (not: nothing listened).
     *
     * @return true when the peer's application rejected (not: nothing listened).
     */
    public boolean rejectedByPeer() {
        return status() == 28;
    }
}
