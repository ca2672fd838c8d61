package dev.panamaverbs.cm;

import dev.panamaverbs.values.Errno;
import dev.panamaverbs.values.TransportType;
import java.util.Objects;

/**
 * A connect was rejected: the peer called {@code rdma_reject} (its private data available here),
 * or, on InfiniBand and RoCE, nothing listens on that port (reason 8). {@link #errno()} is
 * {@code ECONNREFUSED}; {@link #status()} is the event's status, whose meaning depends on the
 * transport of the identifier's device ({@link #transport()}): the InfiniBand CM's reject reason
 * on InfiniBand and RoCE, a negative errno on iWARP.
 */
public class ConnectionRejectedException extends ConnectionException {
    private static final long serialVersionUID = 1L;

    /** The transport type of the identifier's device: what {@link #status()} means. */
    private final TransportType transport;

    /**
     * A rejection of {@code verb} to {@code target} reported by {@code event} (type REJECTED) on
     * an identifier whose device has {@code transport}.
     *
     * @param verb the C function that failed, e.g. {@code rdma_connect}
     * @param target what it was about, for the message, e.g. {@code "to 10.0.2.15:7471"}
     * @param event the REJECTED event
     * @param transport the transport type of the identifier's device ({@code ibv_device.transport_type})
     */
    public ConnectionRejectedException(String verb, String target, ConnectionEvent event, TransportType transport) {
        super(verb, target, Errno.ECONNREFUSED, event, consumerReject(transport, event.status())
                ? "the peer rejected the connection"
                : transport != TransportType.IWARP && event.status() == 8 ? "nothing listens on that port" : null);
        this.transport = Objects.requireNonNull(transport, "transport");
    }

    /**
     * The private data the peer sent with its reject (a copy; the InfiniBand CM pads it to 148 bytes).
     *
     * @return the private data the peer sent with its reject (a copy; the InfiniBand CM pads it to 148 bytes).
     */
    public byte[] privateData() {
        return event().map(ConnectionEvent::privateData).orElse(new byte[0]);
    }

    /**
     * The transport type of the identifier's device, which says what {@link #status()} means.
     *
     * @return the transport type of the identifier's device ({@code ibv_device.transport_type})
     */
    public TransportType transport() {
        return transport;
    }

    /**
     * True when the peer's application rejected (not: nothing listened). Decided by the
     * transport, as the kernel's {@code rdma_is_consumer_reject} does: on InfiniBand and RoCE
     * the CM's reason 28 ({@code IB_CM_REJ_CONSUMER_DEFINED}); on iWARP the status
     * {@code -ECONNREFUSED} (the kernel's rule) or {@code -ECONNRESET} (what siw and erdma report
     * for an MPA reply with the reject bit; siw reports a connection dropped before the reply the
     * same way, without private data).
     *
     * @return true when the peer's application rejected (not: nothing listened).
     */
    public boolean rejectedByPeer() {
        return consumerReject(transport, status());
    }

    /**
     * True when nothing listens on the port: on InfiniBand and RoCE the CM's reason 8
     * ({@code IB_CM_REJ_INVALID_SERVICE_ID}). iWARP reports no listener as a refused
     * {@code rdma_connect} instead, never as a reject.
     *
     * @return true when nothing listens on the port
     */
    @Override
    public boolean nothingListens() {
        return transport != TransportType.IWARP && status() == REJECT_NO_LISTENER;
    }

    /** {@code IB_CM_REJ_INVALID_SERVICE_ID}: the REJ reason when nothing listens on the port. */
    static final int REJECT_NO_LISTENER = 8;

    private static boolean consumerReject(TransportType transport, int status) {
        return transport == TransportType.IWARP
                ? status == -Errno.ECONNREFUSED || status == -Errno.ECONNRESET
                : status == 28;
    }
}
