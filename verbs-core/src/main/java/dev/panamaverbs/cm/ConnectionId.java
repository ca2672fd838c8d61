package dev.panamaverbs.cm;

import dev.panamaverbs.internal.Deadline;
import dev.panamaverbs.internal.CoreAccess;
import dev.panamaverbs.Context;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.VerbsResource;
import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.QueuePairState;
import dev.panamaverbs.values.TransportType;
import dev.panamaverbs.ffm.ibv_context;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.RdmacmCalls;
import dev.panamaverbs.ffm.rdmacm.rdma_addr;
import dev.panamaverbs.ffm.rdmacm.rdma_cm_id;
import dev.panamaverbs.ffm.rdmacm.rdma_route;
import dev.panamaverbs.gateway.Pointers;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import dev.panamaverbs.values.DeviceAttributes;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;


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
    private final ConnectionEventChannel channel;
    private final PortSpace portSpace;
    private volatile Context context;
    private volatile QueuePair queuePair;
    /** Where the identifier is in librdmacm's order; every step checks it first. */
    private final IdentifierOrder order;
    /** Its waits and what the events it takes do. */
    private final IdentifierEvents events;
    /** The peer's address as asked for ({@link #resolveAddress}), for messages. */
    private volatile InetSocketAddress target;

    private ConnectionId(ConnectionEventChannel channel, MemorySegment handle, PortSpace portSpace, IdentifierState initial) {
        super("ConnectionId", handle, channel);
        this.channel = channel;
        this.portSpace = portSpace;
        this.order = new IdentifierOrder(this, portSpace, initial);
        this.events = new IdentifierEvents(this, channel, order);
    }

    /** Wraps and registers an identifier librdmacm created on {@code channel} (a request's new one: REQUEST). */
    static ConnectionId adopt(ConnectionEventChannel channel, long rawId, PortSpace space, IdentifierState initial) {
        ConnectionId id = new ConnectionId(channel, Pointers.sized(rawId, rdma_cm_id.SIZE), space, initial);
        CoreAccess.get().register(id);
        channel.attach(id);
        return id;
    }

    /** {@return the channel this identifier reports on} */
    public ConnectionEventChannel channel() {
        return channel;
    }

    /** {@return the port space ({@code rdma_cm_id.ps})} */
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
                IdentifierCalls.call(this, "rdma_bind_addr", SocketAddresses.format(local), (state, arena) ->
                        RdmacmCalls.rdma_bind_addr(state, handleSegment(), SocketAddresses.write(arena, local))));
    }

    /**
     * {@code rdma_listen}: accepts connection requests (see {@link #awaitRequest}), {@code backlog} queued.
     *
     * @throws IllegalStateException unless {@link IdentifierState#BOUND} ({@link #bind} first)
     * @param backlog how many connection requests the kernel queues until they are taken
     */
    public void listen(int backlog) {
        if (backlog < 0) {
            throw new IllegalArgumentException("rdma_listen: backlog must not be negative, got " + backlog);
        }
        order.run(IdentifierOrder.Step.LISTEN, () -> false, IdentifierState.LISTENING, null, () ->
                IdentifierCalls.call(this, "rdma_listen", "on " + localAddressText(), (state, arena) -> RdmacmCalls.rdma_listen(state, handleSegment(), backlog)));
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
     * @param timeout how long the whole call may take (zero: one look; docs/safety.md, "Deadlines")
     */
    public void resolveAddress(InetSocketAddress remote, Duration timeout) {
        SocketAddresses.check("rdma_resolve_addr", remote);
        long deadline = Deadline.start("rdma_resolve_addr", timeout);
        int millis = IdentifierCalls.resolutionMillis(deadline);
        String where = "to " + SocketAddresses.format(remote);
        order.runWaiting(IdentifierOrder.Step.RESOLVE_ADDRESS, () -> false, IdentifierState.RESOLVING_ADDRESS, null, () -> {
            target = remote;
            IdentifierCalls.call(this, "rdma_resolve_addr", where, (state, arena) -> RdmacmCalls.rdma_resolve_addr(state, handleSegment(),
                    MemorySegment.NULL, SocketAddresses.write(arena, remote), millis));
        }, () -> events.expect("rdma_resolve_addr", where, ConnectionEventType.ADDR_RESOLVED,
                deadline, timeout));
    }

    /**
     * {@code rdma_resolve_route}: finds the path to the resolved address, waiting for ROUTE_RESOLVED.
     *
     * @throws ConnectionException ROUTE_ERROR with its status (the identifier is ADDRESS_RESOLVED
     *         again), or ETIMEDOUT when no event came (the identifier is FAILED)
     * @throws IllegalStateException unless {@link IdentifierState#ADDRESS_RESOLVED} ({@link #resolveAddress} first)
     * @param timeout how long the whole call may take (zero: one look; docs/safety.md, "Deadlines")
     */
    public void resolveRoute(Duration timeout) {
        long deadline = Deadline.start("rdma_resolve_route", timeout);
        int millis = IdentifierCalls.resolutionMillis(deadline);
        String where = "to " + SocketAddresses.format(target);
        // librdmacm reads id->verbs->device here unchecked: only a resolved address has it.
        order.runWaiting(IdentifierOrder.Step.RESOLVE_ROUTE, () -> false, IdentifierState.RESOLVING_ROUTE, null, () ->
                IdentifierCalls.call(this, "rdma_resolve_route", where, (state, arena) -> RdmacmCalls.rdma_resolve_route(state, handleSegment(), millis)),
                () -> events.expect("rdma_resolve_route", where, ConnectionEventType.ROUTE_RESOLVED,
                        deadline, timeout));
    }

    /** The device's limits for {@code rdma_conn_param}'s depths; null for a datagram identifier, which has none. */
    private DeviceAttributes depthLimits() {
        return portSpace().isDatagram() ? null : context().maxAttributes();
    }

    /**
     * {@return the device context rdma_cm chose ({@code rdma_cm_id.verbs})}, known once the identifier is
     * bound to a device address, resolved, or came with a connection request. librdmacm owns it:
     * the wrapper is this identifier's child and closing it frees only what was created on it.
     *
     * @throws IllegalStateException when no device is chosen yet (CREATED, or bound to a wildcard
     *         address), or the identifier is closed
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
     * @throws IllegalArgumentException when {@code pd} is not on this identifier's device context
     *         ({@link Context#sharesNativeContext}), the type does not match the port space, or a
     *         size exceeds the device's
     * @throws IllegalStateException when the identifier already has a queue pair, has no device yet,
     *         is listening (TCP), connecting or connected already, or is closed
     * @param pd a protection domain allocated on {@link #context()}, or on the context of another
     *           identifier on the same device (librdmacm shares one native context among them)
     * @param options the queue pair's type (it must match the port space), sizes and completion queues
     * @return the new queue pair
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
            if (!context().sharesNativeContext(pd.context())) {
                throw new IllegalArgumentException("rdma_create_qp: " + pd + " is not on " + this
                        + "'s device context: allocate it with id.context().allocateProtectionDomain(), or on"
                        + " another identifier of the same device");
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

    /** {@return the queue pair made by {@link #createQueuePair}, while open} */
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
     * @param options the connection parameters and private data sent with the request
     * @param timeout how long the whole call may take (zero: one look; docs/safety.md, "Deadlines")
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
                        IdentifierCalls.call(this, "rdma_connect", where, (state, arena) -> RdmacmCalls.rdma_connect(state, handleSegment(),
                                ConnectionParameters.write(arena, "rdma_connect", options, depthLimits(), 0)))),
                () -> events.expect("rdma_connect", where, ConnectionEventType.ESTABLISHED, deadline, timeout));
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
     * @param options the connection parameters and private data sent with the reply
     * @param timeout how long the whole call may take (zero: one look; docs/safety.md, "Deadlines")
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
        Runnable accept = () -> holdingQueuePair(() -> IdentifierCalls.call(this, "rdma_accept", where, (state, arena) ->
                RdmacmCalls.rdma_accept(state, handleSegment(),
                        ConnectionParameters.write(arena, "rdma_accept", options, depthLimits(), answeringQpn))));
        if (portSpace.isDatagram()) {
            // A datagram request is answered at once; the kernel refuses the request when the accept fails.
            order.run(IdentifierOrder.Step.ACCEPT, answers, IdentifierState.CONNECTED, IdentifierState.FAILED, accept);
            return;
        }
        order.runWaiting(IdentifierOrder.Step.ACCEPT, answers, IdentifierState.CONNECTING, IdentifierState.FAILED, accept,
                () -> events.expect("rdma_accept", where, ConnectionEventType.ESTABLISHED, deadline, timeout));
        queuePair().ifPresent(qp -> CoreAccess.get().assumeState(qp, QueuePairState.RTS));
    }

    /**
     * {@code rdma_reject} on a request's identifier, sending {@code privateData} (at most
     * {@value ConnectionOptions#MAX_REJECT_PRIVATE_DATA} bytes) to the peer, whose connect fails with
     * {@link ConnectionRejectedException}.
     *
     * @throws IllegalStateException unless {@link IdentifierState#REQUEST} (not yet accepted or rejected)
     * @param privateData what the peer's connect failure carries (may be empty)
     */
    public void reject(byte[] privateData) {
        Objects.requireNonNull(privateData, "rdma_reject: private data is null");
        ConnectionOptions.checkPrivateData("rdma_reject", privateData, ConnectionOptions.MAX_REJECT_PRIVATE_DATA);
        order.run(IdentifierOrder.Step.REJECT, () -> false, IdentifierState.REJECTED, null, () ->
                IdentifierCalls.call(this, "rdma_reject", "from " + SocketAddresses.format(remoteAddress()), (state, arena) -> {
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
     * @param timeout how long the whole call may take (zero: one look; docs/safety.md, "Deadlines")
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
        return events.awaitDisconnected(deadline);
    }

    /** {@code rdma_disconnect} (librdmacm moves the queue pair to ERROR first), holding the queue pair. */
    private void sendDisconnect(String where) {
        holdingQueuePair(() -> IdentifierCalls.call(this, "rdma_disconnect", where, (state, arena) -> RdmacmCalls.rdma_disconnect(state, handleSegment())));
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
     * @param timeout how long the whole call may take (zero: one look; docs/safety.md, "Deadlines")
     */
    public boolean awaitDisconnect(Duration timeout) {
        long deadline = Deadline.start("rdma_get_cm_event", timeout);
        order.require(IdentifierOrder.Step.AWAIT_DISCONNECT, false);
        return events.awaitDisconnected(deadline);
    }

    /**
     * {@return the next event for this identifier within {@code timeout}}, empty when none came
     * (not connection requests: {@link #awaitRequest}).
     *
     * @param timeout how long the whole call may take (zero: one look; docs/safety.md, "Deadlines")
     * @throws IllegalStateException while another call on this identifier waits for its event
     *         (RESOLVING_ADDRESS, RESOLVING_ROUTE, CONNECTING: this wait would take it), or once closed
     */
    public Optional<ConnectionEvent> awaitEvent(Duration timeout) {
        long deadline = Deadline.start("rdma_get_cm_event", timeout);
        order.require(IdentifierOrder.Step.AWAIT_EVENT, false);
        return Optional.ofNullable(events.next(deadline));
    }

    /**
     * {@return the next connection request to this listening identifier within {@code timeout}},
     * empty when none came: a new identifier on the same channel, to {@link #accept} or {@link #reject}.
     *
     * @throws IllegalStateException unless {@link IdentifierState#LISTENING} ({@link #listen} first)
     * @param timeout how long the whole call may take (zero: one look; docs/safety.md, "Deadlines")
     */
    public Optional<ConnectionRequest> awaitRequest(Duration timeout) {
        return events.awaitRequest(timeout, channel, ConnectionOptions.defaults());
    }

    /** As {@link #awaitRequest(Duration)}, the new identifier moved to {@code target} ({@code rdma_migrate_id}). */
    Optional<ConnectionRequest> awaitRequest(Duration timeout, ConnectionEventChannel target, ConnectionOptions options) {
        return events.awaitRequest(timeout, target, options);
    }

    /** What an event taken from the channel for this identifier does to it ({@link IdentifierEvents#observe}). */
    ConnectionEvent observe(ConnectionEvent event) {
        return events.observe(event);
    }

    /**
     * The transport type of the device rdma_cm chose ({@code rdma_cm_id.verbs->device->transport_type}),
     * UNKNOWN before it chose one: read without adopting a {@link #context()} (a new child
     * resource), for a REJECTED event's meaning ({@link ConnectionRejectedException}).
     */
    TransportType transportType() {
        Context current = context;
        if (current != null) {
            return current.device().transportType();
        }
        acquire();
        try {
            MemorySegment verbs = rdma_cm_id.verbs(handleSegment());
            if (verbs.address() == 0) {
                return TransportType.UNKNOWN;
            }
            MemorySegment context = Pointers.sized(verbs, ibv_context.SIZE);
            if (ibv_context.device(context).address() == 0) {
                return TransportType.UNKNOWN; // kept from before: no device to describe
            }
            return CoreAccess.get().describeDevice(context).transportType();
        } finally {
            release();
        }
    }

    /**
     * The device name of {@link #context()} once someone asked for it, else empty: for the JFR
     * events, which must not adopt a context (a new child resource) just to name it.
     */
    String knownDeviceName() {
        Context current = context;
        return current != null ? current.device().name() : "";
    }

    /** {@return the local address ({@code route.addr.src_addr}), null before bind or resolution} */
    public InetSocketAddress localAddress() {
        return readAddress(rdma_addr::src_addr);
    }

    /** {@return the peer's address ({@code route.addr.dst_addr}), null before resolution or a request} */
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

    /** Our {@code rdma_disconnect} answering the peer's (best effort: EINVAL only means the CM already answered). */
    void answerDisconnect() {
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

    /** Refuses requests no one claimed, then {@code rdma_destroy_id} (waits for its events' acks: all are acked at once). */
    @Override
    protected void destroy() {
        order.close();
        Queue<ConnectionEvent> unclaimed = channel.detach(this);
        for (ConnectionEvent request; (request = unclaimed.poll()) != null; ) {
            IdentifierCalls.refuseRaw(request.idAddress());
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
