package dev.panamaverbs.cm;

import java.net.InetSocketAddress;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A connection request a listener received ({@code RDMA_CM_EVENT_CONNECT_REQUEST}): the new
 * identifier librdmacm made for it, and what the peer sent. {@link #accept()} it (queue pair,
 * completion queue and protection domain made for it) or {@link #reject(byte[])} it; low level,
 * use {@link #identifier()} directly ({@link ConnectionId#createQueuePair},
 * {@link ConnectionId#accept}).
 *
 * <p>One state machine, safe from any thread: PENDING until the first {@link #accept} or
 * {@link #reject} wins (ACCEPTING, then ACCEPTED or FAILED; or REJECTED). A second accept, and a
 * reject after an accept, throw {@link IllegalStateException} and touch nothing: the accepted
 * connection is not affected. The accessors work in every state.
 */
public final class ConnectionRequest {
    /** The states of a request; see the class comment. */
    enum State { PENDING, ACCEPTING, ACCEPTED, FAILED, REJECTED }

    /** The states in which {@link #accept} and {@link #reject} start. */
    static final Set<State> DECIDABLE = EnumSet.of(State.PENDING);

    private final ConnectionId id;
    private final ConnectionEvent event;
    private final ConnectionOptions options;
    /** Read while the identifier is surely open, so that it answers in every state. */
    private final InetSocketAddress remote;
    private final CmStateMachine<State> state = new CmStateMachine<>(State.PENDING, this::toString);

    ConnectionRequest(ConnectionId id, ConnectionEvent event, ConnectionOptions options) {
        this.id = id;
        this.event = event;
        this.options = options;
        this.remote = id.remoteAddress();
    }

    /** The current state (tests). */
    State state() {
        return state.current();
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
        return remote;
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
     * @param options the connection options (queue sizes, retries, timeouts, private data)
     * @return the established connection
     * @throws dev.panamaverbs.VerbsException when a verb on the way fails (its name and errno), e.g.
     *         allocating the protection domain, completion queue or queue pair
     */
    public RdmaConnection accept(ConnectionOptions options) {
        return accept(options, connection -> { });
    }

    /**
     * As {@link #accept(ConnectionOptions)}, running {@code beforeAccept} on the new connection
     * after {@code rdma_create_qp} and before {@code rdma_accept}: post there the receives for
     * what the peer sends as soon as it is connected. When {@code beforeAccept} throws, everything
     * made is closed (the identifier too: the peer's connect fails) and its exception thrown.
     *
     * @param options the connection options (queue sizes, retries, timeouts, private data)
     * @param beforeAccept the set-up step (e.g. register memory and post receives)
     * @return the established connection
     * @throws IllegalStateException when this request was already accepted or rejected
     * @throws dev.panamaverbs.VerbsException when a verb on the way fails (its name and errno)
     */
    public RdmaConnection accept(ConnectionOptions options, Consumer<? super RdmaConnection> beforeAccept) {
        Objects.requireNonNull(options, "rdma_accept: options is null");
        Objects.requireNonNull(beforeAccept, "rdma_accept: beforeAccept is null");
        state.move("rdma_accept", DECIDABLE, State.ACCEPTING);
        try {
            RdmaConnection connection = RdmaConnection.establish(id, options, false, beforeAccept);
            state.force(State.ACCEPTED);
            return connection;
        } catch (RuntimeException | Error e) {
            state.force(State.FAILED);
            throw e;
        }
    }

    /**
     * {@code rdma_reject} with {@code privateData} (at most
     * {@value ConnectionOptions#MAX_REJECT_PRIVATE_DATA} bytes), then closes the identifier.
     *
     * @param privateData the private data
     * @throws IllegalStateException when this request was already accepted or rejected (nothing is
     *         touched then)
     */
    public void reject(byte[] privateData) {
        Objects.requireNonNull(privateData, "rdma_reject: private data is null");
        ConnectionOptions.checkPrivateData("rdma_reject", privateData, ConnectionOptions.MAX_REJECT_PRIVATE_DATA);
        state.move("rdma_reject", DECIDABLE, State.REJECTED);
        try {
            id.reject(privateData);
        } finally {
            RdmaConnection.closeIdentifier(id);
        }
    }

    @Override
    public String toString() {
        return "ConnectionRequest[" + id + ", " + event + ", " + state.current() + "]";
    }
}
