package dev.panamaverbs.cm;

import dev.panamaverbs.internal.Deadline;
import dev.panamaverbs.internal.CoreAccess;
import dev.panamaverbs.CompletionChannel;
import dev.panamaverbs.Context;
import dev.panamaverbs.Device;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.VerbsResource;
import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.QueuePairState;
import dev.panamaverbs.ffm.ibv_context;
import dev.panamaverbs.ffm.ibv_device;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.RdmacmCalls;
import dev.panamaverbs.ffm.rdmacm.rdma_addr;
import dev.panamaverbs.ffm.rdmacm.rdma_cm_id;
import dev.panamaverbs.ffm.rdmacm.rdma_route;
import dev.panamaverbs.gateway.Pointers;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * An rdma_cm connection identifier (C {@code struct rdma_cm_id}, {@code rdma_create_id}): the
 * rdma_cm counterpart of a socket. Active side: {@link #resolveAddress}, {@link #resolveRoute},
 * {@link #createQueuePair}, {@link #connect}. Passive side: {@link #bind}, {@link #listen},
 * {@link #awaitRequest}, then {@link #accept} or {@link #reject} on the request's identifier.
 * {@link #disconnect} ends a connection.
 *
 * <p>Every wait has a timeout, which bounds the whole call (the rule for zero, negative and huge
 * ones is in {@code docs/safety.md}, "Deadlines"), and runs on the {@link ConnectionEventChannel}
 * (virtual-thread friendly). A failure throws {@link ConnectionException} naming the C function, this identifier
 * or the address, the event and its status; a rejected connect
 * {@link ConnectionRejectedException} with the peer's private data.
 *
 * <p>The identifier knows where it is in librdmacm's order ({@link #state()}, {@link IdentifierState})
 * and refuses a call made out of it with an {@link IllegalStateException} naming the C verb and
 * the step that must come first (docs/rdma-cm.md has the table); nothing out of order reaches
 * librdmacm, whose verbs read what the earlier steps set without checking. Calls from several
 * threads are safe: a second call while one waits for its event is refused, not interleaved.
 *
 * <p>Tree: the identifier is a child of its channel; {@link #context()} (librdmacm's device
 * context, never closed by this library) is its child, and the protection domains, completion
 * queues and queue pairs made from that context are below it. {@link #close()} closes them, then
 * {@code rdma_destroy_id} (which also disconnects a connected identifier).
 */
public final class ConnectionId extends VerbsResource {
    /**
     * At most how much sooner than the caller's deadline librdmacm's resolution timeout ends (an
     * eighth of the time left, up to this), so its own verdict, with its status, arrives in time.
     */
    private static final long RESOLVE_MARGIN_NANOS = 250_000_000L;

    private final ConnectionEventChannel channel;
    private final PortSpace portSpace;
    private volatile Context context;
    private volatile QueuePair queuePair;
    /** Where the identifier is in librdmacm's order; every step checks it first. */
    private final IdentifierOrder order;
    /** The peer's address as asked for ({@link #resolveAddress}), for messages. */
    private volatile InetSocketAddress target;

    private ConnectionId(ConnectionEventChannel channel, MemorySegment handle, PortSpace portSpace, IdentifierState initial) {
        super("ConnectionId", handle, channel);
        this.channel = channel;
        this.portSpace = portSpace;
        this.order = new IdentifierOrder(this, portSpace, initial);
    }

    /** {@code rdma_create_id(channel, &id, NULL, ps)}: hook of {@link ConnectionEventChannel#createIdentifier}. */
    static ConnectionId create(ConnectionEventChannel channel, PortSpace space) {
        Objects.requireNonNull(channel, "rdma_create_id: channel is null");
        Objects.requireNonNull(space, "rdma_create_id: port space is null");
        CoreAccess.get().acquire(channel);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            MemorySegment slot = arena.allocate(ADDRESS);
            int rc = RdmacmCalls.rdma_create_id(state, CoreAccess.get().handleSegment(channel), slot, MemorySegment.NULL, space.value());
            NativeCalls.checkErrno("rdma_create_id", rc, CallState.errno(state));
            return adopt(channel, slot.get(ADDRESS, 0).address(), space, IdentifierState.CREATED);
        } finally {
            CoreAccess.get().release(channel);
        }
    }

    /** Wraps and registers an identifier librdmacm created on {@code channel} (a request's new one: REQUEST). */
    static ConnectionId adopt(ConnectionEventChannel channel, long rawId, PortSpace space, IdentifierState initial) {
        ConnectionId id = new ConnectionId(channel, Pointers.sized(rawId, rdma_cm_id.SIZE), space, initial);
        CoreAccess.get().register(id);
        channel.attach(id);
        return id;
    }

    /** Refuses a connection request no one will take: {@code rdma_reject}, then {@code rdma_destroy_id}. */
    static void refuseRaw(long rawId) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            MemorySegment id = MemorySegment.ofAddress(rawId);
            int ignored = RdmacmCalls.rdma_reject(state, id, MemorySegment.NULL, (byte) 0);
            ignored = RdmacmCalls.rdma_destroy_id(state, id);
        }
    }

    /**
     * The channel this identifier reports on.
     *
     * @return the channel this identifier reports on.
     */
    public ConnectionEventChannel channel() {
        return channel;
    }

    /**
     * The port space ({@code rdma_cm_id.ps}).
     *
     * @return the port space ({@code rdma_cm_id.ps}).
     */
    public PortSpace portSpace() {
        return portSpace;
    }

    /**
     * Where the identifier is in librdmacm's order: what it may do next (docs/rdma-cm.md).
     *
     * @return the current state; {@link IdentifierState#CLOSED} once closed
     */
    public IdentifierState state() {
        return isClosed() ? IdentifierState.CLOSED : order.state();
    }

    /**
     * {@code rdma_bind_addr}: binds to a local address and port (port 0: any). Binding to an
     * RDMA device's address also picks that device ({@link #context()}).
     *
     * @throws VerbsException when the call fails (EADDRINUSE, EADDRNOTAVAIL: not a local address...)
     * @throws IllegalStateException unless {@link IdentifierState#CREATED}
     * @param local the address and port to bind: an RDMA device's address, or the wildcard address; port 0 picks a free port
     */
    public void bind(InetSocketAddress local) {
        SocketAddresses.check("rdma_bind_addr", local);
        order.run(IdentifierOrder.Step.BIND, () -> false, IdentifierState.BOUND, null, () ->
                call("rdma_bind_addr", SocketAddresses.format(local), (state, arena) ->
                        RdmacmCalls.rdma_bind_addr(state, handleSegment(), SocketAddresses.write(arena, local))));
    }

    /**
     * {@code rdma_listen}: accepts connection requests (see {@link #awaitRequest}), {@code backlog} queued.
     *
     * @throws IllegalStateException unless {@link IdentifierState#BOUND} ({@link #bind} first)
     * @param backlog how many connection requests may wait to be taken
     */
    public void listen(int backlog) {
        if (backlog < 0) {
            throw new IllegalArgumentException("rdma_listen: backlog must not be negative, got " + backlog);
        }
        order.run(IdentifierOrder.Step.LISTEN, () -> false, IdentifierState.LISTENING, null, () ->
                call("rdma_listen", "on " + localAddressText(), (state, arena) -> RdmacmCalls.rdma_listen(state, handleSegment(), backlog)));
    }

    /**
     * {@code rdma_resolve_addr}: finds the local device and port that reach {@code remote}, and
     * waits for ADDR_RESOLVED. The whole call ends within {@code timeout}: librdmacm's own timeout
     * ends a little earlier, so its verdict normally arrives in time.
     *
     * @throws ConnectionException naming {@code remote}: ADDR_ERROR with its status (e.g. -110:
     *         timed out, -113: no route; the identifier is BOUND again and may resolve again), or
     *         ETIMEDOUT when no event came (the identifier is FAILED)
     * @throws IllegalStateException unless {@link IdentifierState#CREATED} or {@link IdentifierState#BOUND}
     * @param remote the peer's address and port (the address of its RDMA device)
     * @param timeout how long to wait at most (not negative)
     */
    public void resolveAddress(InetSocketAddress remote, Duration timeout) {
        SocketAddresses.check("rdma_resolve_addr", remote);
        long deadline = Deadline.start("rdma_resolve_addr", timeout);
        int millis = resolutionMillis(deadline);
        String where = "to " + SocketAddresses.format(remote);
        order.runWaiting(IdentifierOrder.Step.RESOLVE_ADDRESS, () -> false, IdentifierState.RESOLVING_ADDRESS, null, () -> {
            target = remote;
            call("rdma_resolve_addr", where, (state, arena) -> RdmacmCalls.rdma_resolve_addr(state, handleSegment(),
                    MemorySegment.NULL, SocketAddresses.write(arena, remote), millis));
        }, () -> expect("rdma_resolve_addr", where, ConnectionEventType.ADDR_RESOLVED,
                deadline, timeout));
    }

    /**
     * {@code rdma_resolve_route}: finds the path to the resolved address, waiting for ROUTE_RESOLVED.
     *
     * @throws ConnectionException ROUTE_ERROR with its status (the identifier is ADDRESS_RESOLVED
     *         again), or ETIMEDOUT when no event came (the identifier is FAILED)
     * @throws IllegalStateException unless {@link IdentifierState#ADDRESS_RESOLVED} ({@link #resolveAddress} first)
     * @param timeout how long to wait at most (not negative)
     */
    public void resolveRoute(Duration timeout) {
        long deadline = Deadline.start("rdma_resolve_route", timeout);
        int millis = resolutionMillis(deadline);
        String where = "to " + SocketAddresses.format(target);
        // librdmacm reads id->verbs->device here unchecked: only a resolved address has it.
        order.runWaiting(IdentifierOrder.Step.RESOLVE_ROUTE, () -> false, IdentifierState.RESOLVING_ROUTE, null, () ->
                call("rdma_resolve_route", where, (state, arena) -> RdmacmCalls.rdma_resolve_route(state, handleSegment(), millis)),
                () -> expect("rdma_resolve_route", where, ConnectionEventType.ROUTE_RESOLVED,
                        deadline, timeout));
    }

    /**
     * The device context rdma_cm chose ({@code rdma_cm_id.verbs}), known once the identifier is
     * bound to a device address, resolved, or came with a connection request. librdmacm owns it:
     * the wrapper is this identifier's child and closing it frees only what was created on it.
     *
     * @throws IllegalStateException when no device is chosen yet (CREATED, or bound to a wildcard
     *         address), or the identifier is closed
     * @return the device context rdma_cm chose ({@code rdma_cm_id.verbs}), known once the identifier is bound to a device address, resolved, or came with a connection request.
     */
    public Context context() {
        order.require(IdentifierOrder.Step.CONTEXT, false);
        Context current = context;
        if (current != null) {
            return current;
        }
        synchronized (this) {
            if (context == null) {
                acquire();
                try {
                    MemorySegment verbs = rdma_cm_id.verbs(handleSegment());
                    if (verbs.address() == 0) {
                        throw new IllegalStateException("rdma_cm_id.verbs: " + this + " is " + order.state()
                                + ": no device is chosen yet; resolve an address first (or bind to an RDMA"
                                + " device's address, not a wildcard one)");
                    }
                    MemorySegment sized = Pointers.sized(verbs, ibv_context.SIZE);
                    context = CoreAccess.get().adoptContext(sized, this);
                } finally {
                    release();
                }
            }
            return context;
        }
    }

    /**
     * {@code rdma_create_qp}: the identifier's queue pair, of its port space's type (RC for TCP,
     * UD for UDP), on {@code pd} (allocated on {@link #context()}). librdmacm moves it through
     * its states: INIT now (UD: RTS), RTS once connected; the whole data-path API works on it.
     * Closed with {@code rdma_destroy_qp}.
     *
     * @throws IllegalArgumentException when {@code pd} is not on this identifier's context, the
     *         type does not match the port space, or a size exceeds the device's
     * @throws IllegalStateException when the identifier already has a queue pair, has no device yet,
     *         is listening (TCP), connecting or connected already, or is closed
     * @param pd the protection domain the queue pair is created on
     * @param options the connection options (queue sizes, retries, timeouts, private data)
     * @return {@code rdma_create_qp}: the identifier's queue pair, of its port space's type (RC for TCP, UD for UDP), on {@code pd} (allocated on {@link #context()}).
     */
    public QueuePair createQueuePair(ProtectionDomain pd, QueuePairOptions options) {
        Objects.requireNonNull(pd, "rdma_create_qp: protection domain is null");
        Objects.requireNonNull(options, "rdma_create_qp: options is null");
        if (options.type() != portSpace.queuePairType()) {
            throw new IllegalArgumentException("rdma_create_qp: an identifier of port space " + portSpace + " takes a "
                    + portSpace.queuePairType() + " queue pair, got " + options.type());
        }
        order.lock().lock();
        try {
            order.require(IdentifierOrder.Step.CREATE_QUEUE_PAIR, queuePair().isPresent());
            if (pd.context() != context()) {
                throw new IllegalArgumentException("rdma_create_qp: " + pd + " is not on " + this
                        + "'s context: allocate it with id.context().allocateProtectionDomain()");
            }
            acquire();
            try {
                queuePair = CoreAccess.get().createQueuePairOnIdentifier(handleSegment(), pd, options, this::destroyQueuePair);
                return queuePair;
            } finally {
                release();
            }
        } finally {
            order.lock().unlock();
        }
    }

    /**
     * The queue pair made by {@link #createQueuePair}, while open.
     *
     * @return the queue pair made by {@link #createQueuePair}, while open.
     */
    public Optional<QueuePair> queuePair() {
        QueuePair qp = queuePair;
        return qp != null && !qp.isClosed() ? Optional.of(qp) : Optional.empty();
    }

    /** {@code rdma_destroy_qp}: called by the queue pair's close, never twice. */
    void destroyQueuePair() {
        try (Arena arena = Arena.ofConfined()) {
            RdmacmCalls.rdma_destroy_qp(CallState.allocate(arena), handleSegment());
        }
    }

    /**
     * {@code rdma_connect} with {@code options}' parameters, then waits up to {@code timeout} for
     * ESTABLISHED. For a datagram identifier this is the UD resolution of the peer's QPN and Q_Key
     * ({@link ConnectionEvent#datagram()}).
     *
     * @return the ESTABLISHED event (the peer's private data and parameters)
     * @throws IllegalArgumentException when the private data exceeds the CM's limit
     * @throws ConnectionRejectedException when rejected (by the peer, or nothing listens on the port)
     * @throws ConnectionException UNREACHABLE or CONNECT_ERROR with its status, or ETIMEDOUT (the
     *         identifier is FAILED after each of these and the rejections)
     * @throws IllegalStateException unless {@link IdentifierState#ROUTE_RESOLVED} with a queue pair
     *         ({@link #resolveRoute}, {@link #createQueuePair} first; a datagram identifier needs none)
     * @param options the connection options (queue sizes, retries, timeouts, private data)
     * @param timeout how long to wait at most (not negative)
     */
    public ConnectionEvent connect(ConnectionOptions options, Duration timeout) {
        Objects.requireNonNull(options, "rdma_connect: options is null");
        ConnectionOptions.checkPrivateData("rdma_connect", options.privateDataUnsafe(), portSpace.isDatagram()
                ? ConnectionOptions.MAX_DATAGRAM_REQUEST_PRIVATE_DATA : ConnectionOptions.MAX_CONNECT_PRIVATE_DATA);
        long deadline = Deadline.start("rdma_connect", timeout);
        String where = "to " + SocketAddresses.format(target);
        // librdmacm reads the device (cma_dev) unchecked here: only a resolved route has it.
        ConnectionEvent established = order.runWaiting(IdentifierOrder.Step.CONNECT, () -> queuePair().isPresent(),
                IdentifierState.CONNECTING, null, () -> holdingQueuePair(() ->
                        call("rdma_connect", where, (state, arena) -> RdmacmCalls.rdma_connect(state, handleSegment(),
                                ConnectionParameters.write(arena, "rdma_connect", options, this, 0)))),
                () -> expect("rdma_connect", where, ConnectionEventType.ESTABLISHED, deadline, timeout));
        queuePair().ifPresent(qp -> CoreAccess.get().assumeState(qp, QueuePairState.RTS));
        return established;
    }

    /**
     * {@code rdma_accept} on a request's identifier, then for a connected space waits up to
     * {@code timeout} for ESTABLISHED (a datagram space answers at once: no wait).
     *
     * @throws ConnectionException when the accept fails or the connection is not established in time
     *         (the identifier is FAILED)
     * @throws IllegalStateException unless {@link IdentifierState#REQUEST} (a request's identifier,
     *         from {@link #awaitRequest}) with a queue pair ({@link #createQueuePair} first)
     * @param options the connection options (queue sizes, retries, timeouts, private data)
     * @param timeout how long to wait at most (not negative)
     */
    public void accept(ConnectionOptions options, Duration timeout) {
        accept(options, timeout, 0);
    }

    /**
     * {@link #accept(ConnectionOptions, Duration)} naming {@code answeringQpn} as the queue pair
     * that serves this request when the identifier has none (a datagram server answers every
     * resolution with its one UD queue pair).
     */
    void accept(ConnectionOptions options, Duration timeout, int answeringQpn) {
        Objects.requireNonNull(options, "rdma_accept: options is null");
        ConnectionOptions.checkPrivateData("rdma_accept", options.privateDataUnsafe(), portSpace.isDatagram()
                ? ConnectionOptions.MAX_DATAGRAM_REPLY_PRIVATE_DATA : ConnectionOptions.MAX_ACCEPT_PRIVATE_DATA);
        long deadline = Deadline.start("rdma_accept", timeout);
        String where = "from " + SocketAddresses.format(remoteAddress());
        BooleanSupplier answers = () -> queuePair().isPresent() || answeringQpn != 0;
        Runnable accept = () -> holdingQueuePair(() -> call("rdma_accept", where, (state, arena) ->
                RdmacmCalls.rdma_accept(state, handleSegment(),
                        ConnectionParameters.write(arena, "rdma_accept", options, this, answeringQpn))));
        if (portSpace.isDatagram()) {
            // A datagram request is answered at once; the kernel refuses the request when the accept fails.
            order.run(IdentifierOrder.Step.ACCEPT, answers, IdentifierState.CONNECTED, IdentifierState.FAILED, accept);
            return;
        }
        order.runWaiting(IdentifierOrder.Step.ACCEPT, answers, IdentifierState.CONNECTING, IdentifierState.FAILED, accept,
                () -> expect("rdma_accept", where, ConnectionEventType.ESTABLISHED, deadline, timeout));
        queuePair().ifPresent(qp -> CoreAccess.get().assumeState(qp, QueuePairState.RTS));
    }

    /**
     * {@code rdma_reject} on a request's identifier, sending {@code privateData} (at most
     * {@value ConnectionOptions#MAX_REJECT_PRIVATE_DATA} bytes) to the peer, whose connect fails with
     * {@link ConnectionRejectedException}.
     *
     * @throws IllegalStateException unless {@link IdentifierState#REQUEST} (not yet accepted or rejected)
     * @param privateData the private data
     */
    public void reject(byte[] privateData) {
        Objects.requireNonNull(privateData, "rdma_reject: private data is null");
        ConnectionOptions.checkPrivateData("rdma_reject", privateData, ConnectionOptions.MAX_REJECT_PRIVATE_DATA);
        order.run(IdentifierOrder.Step.REJECT, () -> false, IdentifierState.REJECTED, null, () ->
                call("rdma_reject", "from " + SocketAddresses.format(remoteAddress()), (state, arena) -> {
                    MemorySegment data = privateData.length == 0 ? MemorySegment.NULL : arena.allocateFrom(
                            java.lang.foreign.ValueLayout.JAVA_BYTE, privateData);
                    return RdmacmCalls.rdma_reject(state, handleSegment(), data, (byte) privateData.length);
                }));
    }

    /**
     * {@code rdma_disconnect} (the queue pair goes to ERROR: outstanding requests flush), then
     * waits up to {@code timeout} for DISCONNECTED. Returns at once when the peer already
     * disconnected.
     *
     * A second call (DISCONNECTING) only waits.
     *
     * @return true when DISCONNECTED arrived (or had), false when the timeout passed first
     * @throws IllegalStateException unless connected ({@link IdentifierState#CONNECTED},
     *         DISCONNECTING or DISCONNECTED) in a connected port space
     * @param timeout how long to wait at most (not negative)
     */
    public boolean disconnect(Duration timeout) {
        long deadline = Deadline.start("rdma_disconnect", timeout);
        String where = "from " + SocketAddresses.format(remoteAddress());
        order.lock().lock();
        try {
            IdentifierState from = order.require(IdentifierOrder.Step.DISCONNECT, false);
            if (from == IdentifierState.CONNECTED && order.move(from, IdentifierState.DISCONNECTING)) {
                try {
                    sendDisconnect(where);
                } catch (RuntimeException e) {
                    order.move(IdentifierState.DISCONNECTING, from);
                    throw e;
                }
            }
        } finally {
            order.lock().unlock();
        }
        return waitForDisconnect(deadline);
    }

    /** {@code rdma_disconnect} (librdmacm moves the queue pair to ERROR first), holding the queue pair. */
    private void sendDisconnect(String where) {
        holdingQueuePair(() -> call("rdma_disconnect", where, (state, arena) -> RdmacmCalls.rdma_disconnect(state, handleSegment())));
        queuePair().ifPresent(qp -> CoreAccess.get().assumeState(qp, QueuePairState.ERROR));
    }

    /**
     * Waits up to {@code timeout} for DISCONNECTED (the peer disconnected, closed or, after the
     * retries of {@link ConnectionOptions#retryCount()}, stopped answering). Other events that
     * arrive meanwhile are dropped.
     *
     * @return true once disconnected
     * @throws IllegalStateException unless connected ({@link IdentifierState#CONNECTED},
     *         DISCONNECTING or DISCONNECTED) in a connected port space
     * @param timeout how long to wait at most (not negative)
     */
    public boolean awaitDisconnect(Duration timeout) {
        long deadline = Deadline.start("rdma_get_cm_event", timeout);
        order.require(IdentifierOrder.Step.AWAIT_DISCONNECT, false);
        return waitForDisconnect(deadline);
    }

    private boolean waitForDisconnect(long deadline) {
        while (order.state() != IdentifierState.DISCONNECTED && !order.state().isFinal()) {
            if (nextEvent(deadline) == null) {
                break;
            }
        }
        return order.state() == IdentifierState.DISCONNECTED;
    }

    /**
     * The next event for this identifier within {@code timeout} (not connection requests: {@link #awaitRequest}).
     *
     * @param timeout how long to wait at most (not negative)
     * @return the next event for this identifier within {@code timeout} (not connection requests: {@link #awaitRequest}).
     * @throws IllegalStateException while another call on this identifier waits for its event
     *         (RESOLVING_ADDRESS, RESOLVING_ROUTE, CONNECTING: this wait would take it), or once closed
     */
    public Optional<ConnectionEvent> awaitEvent(Duration timeout) {
        long deadline = Deadline.start("rdma_get_cm_event", timeout);
        order.require(IdentifierOrder.Step.AWAIT_EVENT, false);
        return Optional.ofNullable(nextEvent(deadline));
    }

    /** The next event for this identifier before {@code deadline} ({@link Deadline}), or null. */
    private ConnectionEvent nextEvent(long deadline) {
        return observe(channel.awaitUntil(this, false, deadline, "rdma_get_cm_event", "for " + this));
    }

    /**
     * The next connection request to this listening identifier within {@code timeout}: a new
     * identifier on the same channel, to {@link #accept} or {@link #reject}.
     *
     * @throws IllegalStateException unless {@link IdentifierState#LISTENING} ({@link #listen} first)
     * @param timeout how long to wait at most (not negative)
     * @return the next connection request to this listening identifier within {@code timeout}: a new identifier on the same channel, to {@link #accept} or {@link #reject}.
     */
    public Optional<ConnectionRequest> awaitRequest(Duration timeout) {
        return awaitRequest(timeout, channel, ConnectionOptions.defaults());
    }

    /** As {@link #awaitRequest(Duration)}, the new identifier moved to {@code target} ({@code rdma_migrate_id}). */
    Optional<ConnectionRequest> awaitRequest(Duration timeout, ConnectionEventChannel target, ConnectionOptions options) {
        long deadline = Deadline.start("rdma_get_request", timeout);
        order.require(IdentifierOrder.Step.AWAIT_REQUEST, false);
        ConnectionEvent request = channel.awaitUntil(this, true, deadline, "rdma_get_request", "on " + localAddressText());
        if (request == null) {
            return Optional.empty();
        }
        if (target != channel) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment state = CallState.allocate(arena);
                CoreAccess.get().acquire(target);
                try {
                    int rc = RdmacmCalls.rdma_migrate_id(state, MemorySegment.ofAddress(request.idAddress()), CoreAccess.get().handleSegment(target));
                    if (rc != 0) {
                        refuseRaw(request.idAddress());
                        throw VerbsException.of("rdma_migrate_id", CallState.errno(state));
                    }
                } finally {
                    CoreAccess.get().release(target);
                }
            }
        }
        ConnectionId id = adopt(target, request.idAddress(), portSpace, IdentifierState.REQUEST);
        return Optional.of(new ConnectionRequest(id, request, options));
    }

    /**
     * The local address ({@code route.addr.src_addr}), null before bind or resolution.
     *
     * @return the local address ({@code route.addr.src_addr}), null before bind or resolution.
     */
    public InetSocketAddress localAddress() {
        return readAddress(rdma_addr::src_addr);
    }

    /**
     * The peer's address ({@code route.addr.dst_addr}), null before resolution or a request.
     *
     * @return the peer's address ({@code route.addr.dst_addr}), null before resolution or a request.
     */
    public InetSocketAddress remoteAddress() {
        return readAddress(rdma_addr::dst_addr);
    }

    /** Reads one of {@code route.addr}'s addresses ({@code field} picks it) while holding the identifier. */
    private InetSocketAddress readAddress(UnaryOperator<MemorySegment> field) {
        acquire();
        try {
            return SocketAddresses.read(field.apply(rdma_route.addr(rdma_cm_id.route(handleSegment()))));
        } finally {
            release();
        }
    }

    private String localAddressText() {
        return SocketAddresses.format(localAddress());
    }

    /** Waits for {@code wanted} until {@code deadline}; any failure event, another event, or the deadline throws. */
    private ConnectionEvent expect(String verb, String where, ConnectionEventType wanted, long deadline, Duration timeout) {
        while (true) {
            ConnectionEvent event = observe(channel.awaitUntil(this, false, deadline, verb, where + " on " + this));
            if (event == null) {
                throw new ConnectionException(verb, where + " on " + this, Errno.ETIMEDOUT, null,
                        "no " + wanted + " within " + timeout);
            }
            if (event.type() == wanted) {
                return event;
            }
            if (event.type() == ConnectionEventType.REJECTED) {
                throw new ConnectionRejectedException(verb, where + " on " + this, event);
            }
            if (event.type() == null || event.type().isFailure() || event.type() == ConnectionEventType.DISCONNECTED) {
                int errno = event.status() < 0 ? -event.status() : Errno.EIO;
                throw new ConnectionException(verb, where + " on " + this, errno, event, null);
            }
            // anything else (e.g. a late TIMEWAIT_EXIT) does not end this wait
        }
    }

    /**
     * Moves the state by what an event means ({@link IdentifierOrder#afterEvent}). The peer's
     * DISCONNECTED is answered with our own rdma_disconnect at once (the DREP its rdma_disconnect
     * waits for), so the peer learns within a round trip instead of after the CM's DREQ timeout.
     */
    ConnectionEvent observe(ConnectionEvent event) {
        if (event == null) {
            return null;
        }
        IdentifierState before = order.observe(event.type());
        if (event.type() == ConnectionEventType.DISCONNECTED) {
            queuePair().ifPresent(qp -> CoreAccess.get().assumeState(qp, QueuePairState.ERROR));
            if (before == IdentifierState.CONNECTED || before == IdentifierState.CONNECTING) {
                try {
                    // Best effort: the connection is over either way; EINVAL here only means the CM already answered.
                    acquire();
                    try {
                        holdingQueuePair(() -> {
                            try (Arena arena = Arena.ofConfined()) {
                                int ignored = RdmacmCalls.rdma_disconnect(CallState.allocate(arena), handleSegment());
                            }
                        });
                    } finally {
                        release();
                    }
                } catch (IllegalStateException closedMeanwhile) {
                    // the identifier or its queue pair closed under us: nothing left to answer for
                }
            }
        }
        return event;
    }

    /** Runs {@code body} holding the queue pair (when there is one), so its close waits: librdmacm reads {@code id->qp}. */
    private void holdingQueuePair(Runnable body) {
        QueuePair qp = queuePair;
        if (qp == null || qp.isClosed()) {
            body.run();
            return;
        }
        CoreAccess.get().acquire(qp);
        try {
            body.run();
        } finally {
            CoreAccess.get().release(qp);
        }
    }

    /** Runs one rdma_cm call returning 0 or -1 with errno, inside acquire/release. */
    private void call(String verb, String where, Call body) {
        acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            int rc = body.run(state, arena);
            if (rc != 0) {
                int errno = CallState.errno(state);
                throw new ConnectionException(verb, where + " on " + this, errno != 0 ? errno : Math.abs(rc), null, null);
            }
        } finally {
            release();
        }
    }

    @FunctionalInterface
    private interface Call {
        int run(MemorySegment state, Arena arena);
    }

    /**
     * librdmacm's {@code timeout_ms} for a resolution that must end by {@code deadline}: the time
     * left less an eighth of it (at most {@link #RESOLVE_MARGIN_NANOS}), at least 1 ms (a zero
     * timeout's one check), at most {@code Integer.MAX_VALUE} ms.
     */
    static int resolutionMillis(long deadline) {
        return Deadline.blockingMillis(deadline - Math.min(Deadline.remainingNanos(deadline) / 8, RESOLVE_MARGIN_NANOS));
    }

    /** Refuses requests no one claimed, then {@code rdma_destroy_id} (waits for its events' acks: all are acked at once). */
    @Override
    protected void destroy() {
        order.close();
        Queue<ConnectionEvent> unclaimed = channel.detach(this);
        for (ConnectionEvent request; (request = unclaimed.poll()) != null; ) {
            refuseRaw(request.idAddress());
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            int rc = RdmacmCalls.rdma_destroy_id(state, handleSegment());
            NativeCalls.checkErrno("rdma_destroy_id", rc, CallState.errno(state));
        }
    }

    @Override
    protected String describe() {
        return portSpace + ", id=0x" + Long.toHexString(handleAddress());
    }
}
