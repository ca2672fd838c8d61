package dev.panamaverbs.cm;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * A connection request a listener received ({@code RDMA_CM_EVENT_CONNECT_REQUEST}): the new
 * identifier librdmacm made for it, and what the peer sent. {@link #accept()} it (queue pair,
 * completion queue and protection domain made for it) or {@link #reject(byte[])} it; low level,
 * use {@link #identifier()} directly ({@link ConnectionId#createQueuePair},
 * {@link ConnectionId#accept}).
 */
public final class ConnectionRequest {
    private final ConnectionId id;
    private final ConnectionEvent event;
    private final ConnectionOptions options;

    ConnectionRequest(ConnectionId id, ConnectionEvent event, ConnectionOptions options) {
        this.id = id;
        this.event = event;
        this.options = options;
    }

    /**
     * The request's own identifier.
     *
     * @return the request's own identifier.
     */
    public ConnectionId identifier() {
        return id;
    }

    /**
     * The CONNECT_REQUEST event (private data, the peer's responder resources and initiator depth).
     *
     * @return the CONNECT_REQUEST event (private data, the peer's responder resources and initiator depth).
     */
    public ConnectionEvent event() {
        return event;
    }

    /**
     * The peer's private data (a copy; padded by the CM to 56 bytes).
     *
     * @return the peer's private data (a copy; padded by the CM to 56 bytes).
     */
    public byte[] privateData() {
        return event.privateData();
    }

    /**
     * The requesting peer's address.
     *
     * @return the requesting peer's address.
     */
    public InetSocketAddress remoteAddress() {
        return id.remoteAddress();
    }

    /**
     * {@link #accept(ConnectionOptions)} with the listener's options.
     *
     * @return {@link #accept(ConnectionOptions)} with the listener's options.
     * @throws dev.panamaverbs.VerbsException when a verb on the way fails (its name and errno), e.g.
     *         allocating the protection domain, completion queue or queue pair
     */
    public RdmaConnection accept() {
        return accept(options);
    }

    /**
     * Accepts with {@code options} ({@code rdma_accept}, waiting for ESTABLISHED up to
     * {@link ConnectionOptions#connectTimeout()}) after making a protection domain, a completion
     * queue and an RC queue pair on the request's device. On failure everything made is closed,
     * the identifier too.
     * @param options the options
     * @return accepts with {@code options} ({@code rdma_accept}, waiting for ESTABLISHED up to {@link ConnectionOptions#connectTimeout()}) after making a protection domain, a completion queue and an RC queue pair on the request's device.
     * @throws dev.panamaverbs.VerbsException when a verb on the way fails (its name and errno), e.g.
     *         allocating the protection domain, completion queue or queue pair
     */
    public RdmaConnection accept(ConnectionOptions options) {
        Objects.requireNonNull(options, "rdma_accept: options is null");
        return RdmaConnection.establish(id, options, false);
    }

    /**
     * {@code rdma_reject} with {@code privateData} (at most
     * {@value ConnectionOptions#MAX_REJECT_PRIVATE_DATA} bytes), then closes the identifier.
     * @param privateData the private data
     */
    public void reject(byte[] privateData) {
        try {
            id.reject(privateData);
        } finally {
            RdmaConnection.closeIdentifier(id);
        }
    }

    @Override
    public String toString() {
        return "ConnectionRequest[" + id + ", " + event + "]";
    }
}
