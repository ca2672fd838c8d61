package dev.panamaverbs.cm;

import dev.panamaverbs.internal.Undo;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.VerbsResource;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * An rdma_cm server: a listening identifier on its own event channel. {@link #accept(Duration)}
 * takes the next connection request and returns a connected {@link RdmaConnection}; any number
 * of threads (virtual ones too) may accept at once, and each accepted connection gets an event
 * channel of its own ({@code rdma_migrate_id}), so it lives and closes independently of the
 * listener.
 *
 * <pre>{@code
 * try (RdmaListener listener = RdmaListener.listen(new InetSocketAddress("10.0.2.15", 7471), ConnectionOptions.defaults());
 *      RdmaConnection connection = listener.accept(Duration.ofSeconds(30))) {
 *     connection.queuePair().postReceive(...);
 * }
 * }</pre>
 *
 * <p>States: LISTENING, then CLOSED. {@link #close()} works from any thread: a thread waiting in
 * {@link #awaitRequest} or {@link #accept} ends promptly with an {@link IllegalStateException}
 * saying the listener was closed; requests already handed out (and connections accepted from
 * them) live on.
 */
public final class RdmaListener implements AutoCloseable {
    /** The states of a listener. */
    enum State { LISTENING, CLOSED }

    /** The states {@link #awaitRequest}, {@link #accept} and {@link #localAddress} need. */
    static final Set<State> OPEN = EnumSet.of(State.LISTENING);

    private final ConnectionId id;
    private final ConnectionOptions options;
    private final CmStateMachine<State> state = new CmStateMachine<>(State.LISTENING, this::toString);

    private RdmaListener(ConnectionId id, ConnectionOptions options) {
        this.id = id;
        this.options = options;
    }

    /**
     * Listens on {@code local} ({@code rdma_bind_addr}, {@code rdma_listen} with the options'
     * backlog); port 0 picks a free port ({@link #localAddress()}). Bind to the address of an
     * RDMA device (the wildcard address listens on every device).
     *
     * @throws ConnectionException when bind or listen fails (EADDRINUSE...)
     * @param local the address and port to bind: an RDMA device's address, or the wildcard address; port 0 picks a free port
     * @param options the connection options (queue sizes, retries, timeouts, private data)
     * @return the listener, listening
     * @throws dev.panamaverbs.VerbsException when a verb on the way fails (its name and errno), e.g.
     *         creating the event channel or the identifier
     * @throws dev.panamaverbs.VerbsUnavailableException when libibverbs or librdmacm is unavailable
     * @throws dev.panamaverbs.VerbsSetupException when {@code /dev/infiniband/rdma_cm} cannot be
     *         opened (the {@code rdma_ucm} kernel module is not loaded, or not permitted; see
     *         {@link RdmaCm#isAvailable()})
     */
    public static RdmaListener listen(InetSocketAddress local, ConnectionOptions options) {
        return CmResources.listenOnNewChannel(local, options, PortSpace.TCP, id -> new RdmaListener(id, options));
    }

    /**
     * The address listened on (the port chosen when 0 was asked).
     *
     * @return the address listened on (the port chosen when 0 was asked).
     */
    public InetSocketAddress localAddress() {
        state.require("localAddress", OPEN);
        return id.localAddress();
    }

    /**
     * The listening identifier.
     *
     * @return the listening identifier.
     */
    public ConnectionId identifier() {
        return id;
    }

    /**
     * The next connection request within {@code timeout}, its identifier moved to an event
     * channel of its own; accept or reject it. Empty when none came in time.
     *
     * @throws IllegalStateException when the listener is (or gets, by another thread) closed
     * @param timeout how long to wait at most (not negative)
     * @return the request, to accept or reject; empty when none came in time
     */
    public Optional<ConnectionRequest> awaitRequest(Duration timeout) {
        Objects.requireNonNull(timeout, "rdma_get_request: timeout is null");
        state.require("rdma_get_request", OPEN);
        ConnectionEventChannel own = ConnectionEventChannel.create();
        return Undo.orUndo(() -> {
            Optional<ConnectionRequest> request;
            try {
                request = id.awaitRequest(timeout, own, options);
            } catch (IllegalStateException e) {
                throw isClosed() ? state.closedWhileWaiting("rdma_get_request", e) : e;
            }
            if (request.isEmpty()) {
                own.close();
            }
            return request;
        }, own::close);
    }

    /**
     * Waits up to {@code timeout} for a connection request and accepts it with the listener's
     * options ({@link ConnectionRequest#accept()}).
     *
     * @throws ConnectionException with ETIMEDOUT when no request came in time, or when accepting failed
     * @throws IllegalStateException when the listener is (or gets) closed
     * @param timeout how long to wait at most (not negative)
     * @return the accepted, established connection
     * @throws dev.panamaverbs.VerbsException when a verb on the way fails (its name and errno), e.g.
     *         allocating the protection domain, completion queue or queue pair
     */
    public RdmaConnection accept(Duration timeout) {
        return accept(timeout, connection -> { });
    }

    /**
     * {@link #accept(Duration)} without holding the calling thread: the accept runs on a new
     * virtual thread whose waits park on the shared {@link dev.panamaverbs.events.Poller}, and the
     * future completes with the established connection or exceptionally with what
     * {@code accept} throws. A connection accepted after the future was cancelled is closed.
     *
     * @param timeout how long to wait for a request (not negative)
     * @return the future connection
     */
    public CompletableFuture<RdmaConnection> acceptAsync(Duration timeout) {
        Objects.requireNonNull(timeout, "rdma_accept: timeout is null");
        return AsyncCalls.start("panamaverbs-accept-" + this, () -> accept(timeout));
    }

    /**
     * As {@link #accept(Duration)}, running {@code beforeAccept} on the new connection before
     * {@code rdma_accept} ({@link ConnectionRequest#accept(ConnectionOptions, Consumer)}): post
     * there the receives for what the peer sends at once.
     *
     * @param timeout how long to wait for a request
     * @param beforeAccept the set-up step (e.g. register memory and post receives)
     * @return the established connection
     * @throws ConnectionException with ETIMEDOUT when no request came in time, or when accepting failed
     * @throws IllegalStateException when the listener is (or gets) closed
     * @throws dev.panamaverbs.VerbsException when a verb on the way fails (its name and errno)
     */
    public RdmaConnection accept(Duration timeout, Consumer<? super RdmaConnection> beforeAccept) {
        Objects.requireNonNull(beforeAccept, "rdma_accept: beforeAccept is null");
        InetSocketAddress where = localAddressOrNull();
        return awaitRequest(timeout).orElseThrow(() -> new ConnectionException("rdma_get_request",
                "on " + SocketAddresses.format(where), Errno.ETIMEDOUT, null,
                "no connection request within " + timeout.toMillis() + " ms")).accept(options, beforeAccept);
    }

    private InetSocketAddress localAddressOrNull() {
        try {
            return id.localAddress();
        } catch (IllegalStateException closed) {
            return null;
        }
    }

    /**
     * True once {@link #close()} has begun (or the identifier or its channel was closed directly).
     *
     * @return true once closed
     */
    public boolean isClosed() {
        return state.current() == State.CLOSED || id.isClosed();
    }

    /**
     * Stops listening: closes the identifier (refusing queued requests) and the channel.
     * Idempotent, from any thread: threads waiting for a request end with an
     * {@link IllegalStateException}.
     */
    @Override
    public void close() {
        state.force(State.CLOSED);
        id.channel().close();
    }

    @Override
    public String toString() {
        return "RdmaListener[" + id + "]";
    }
}
