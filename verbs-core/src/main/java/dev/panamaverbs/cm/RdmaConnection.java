package dev.panamaverbs.cm;

import dev.panamaverbs.internal.CoreAccess;
import dev.panamaverbs.internal.Deadline;
import dev.panamaverbs.internal.Undo;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.VerbsResource;
import dev.panamaverbs.VerbsUnavailableException;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.values.QueuePairType;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * A connected RC queue pair made by rdma_cm, ready to post: {@link #connect} on the client,
 * {@link RdmaListener#accept} on the server. Holds the identifier, a protection domain, one
 * completion queue (send and receive) and the queue pair, all on the device rdma_cm chose;
 * register memory with {@link #protectionDomain()} and use the whole data-path API
 * ({@link QueuePair#postSend}, {@link QueuePair#postReceive}, {@link CompletionQueue#poll}).
 *
 * <pre>{@code
 * try (RdmaConnection connection = RdmaConnection.connect(new InetSocketAddress("10.0.2.15", 7471),
 *         ConnectionOptions.defaults())) {
 *     MemoryRegion mr = connection.protectionDomain().allocateMemoryRegion(4096, EnumSet.of(AccessFlag.LOCAL_WRITE));
 *     connection.queuePair().postSend(...);
 * }   // closes queue pair, CQ, PD, identifier (the peer sees DISCONNECTED) and channel, in order
 * }</pre>
 *
 * {@link #close()} frees every kernel object; the peer is disconnected by it. A dead peer shows
 * as work requests completing with {@code RETRY_EXC_ERR} and DISCONNECTED after about
 * (retry count + 1) ACK timeouts ({@link ConnectionOptions}).
 *
 * <h2>Before the connection is established</h2>
 * {@link #connect(InetSocketAddress, ConnectionOptions, Consumer)} and
 * {@link ConnectionRequest#accept(ConnectionOptions, Consumer)} run a set-up step on the new
 * connection between {@code rdma_create_qp} and {@code rdma_connect}/{@code rdma_accept}, as
 * every C rdma_cm tool does: register memory and post receives there, so that a peer that sends
 * at once finds them (with an RNR retry count below 7 a late receive loses the message).
 *
 * <h2>States</h2>
 * One state machine, safe from any thread: PREPARING (the set-up step runs; only the resource
 * accessors work), CONNECTED, DISCONNECTING ({@link #disconnect} sent, DISCONNECTED not seen
 * yet), DISCONNECTED, CLOSED. {@link #disconnect} and {@link #awaitDisconnect} follow one rule:
 * both throw {@link IllegalStateException} after close (and while PREPARING), both answer true at
 * once once DISCONNECTED was seen. {@link #close()} works in every state and from any thread: a
 * thread waiting in {@link #awaitDisconnect} or {@link #disconnect} ends promptly with an
 * {@link IllegalStateException} saying the connection was closed.
 */
public final class RdmaConnection extends CmResources {
    /** The states of a connection; see the class comment. */
    enum State { PREPARING, CONNECTED, DISCONNECTING, DISCONNECTED, CLOSED }

    /** What each public operation needs (the accessors of {@link CmResources} work in every state). */
    enum Operation {
        DISCONNECT("rdma_disconnect", State.CONNECTED, State.DISCONNECTING, State.DISCONNECTED),
        AWAIT_DISCONNECT("awaitDisconnect", State.CONNECTED, State.DISCONNECTING, State.DISCONNECTED),
        REMOTE_ADDRESS("remoteAddress", State.PREPARING, State.CONNECTED, State.DISCONNECTING, State.DISCONNECTED),
        CONTEXT("context", State.PREPARING, State.CONNECTED, State.DISCONNECTING, State.DISCONNECTED),
        ACCEPT_PRIVATE_DATA("acceptPrivateData", State.values()),
        CLOSE("close", State.values());

        final String verb;
        final Set<State> allowed;

        Operation(String verb, State... allowed) {
            this.verb = verb;
            this.allowed = EnumSet.copyOf(java.util.List.of(allowed));
        }
    }

    /** The pause before the first retry of a connect that found no listener; doubles up to {@link #MAX_RETRY_PAUSE_NANOS}. */
    private static final long FIRST_RETRY_PAUSE_NANOS = 10_000_000L;
    private static final long MAX_RETRY_PAUSE_NANOS = 200_000_000L;
    /** How long one slice of {@link #awaitDisconnect} waits before looking at the state again (another thread's find). */
    private static final Duration DISCONNECT_SLICE = Duration.ofMillis(50);

    private final CmStateMachine<State> state = new CmStateMachine<>(State.PREPARING, this::toString);
    private volatile ConnectionEvent established;

    private RdmaConnection(ConnectionId id, boolean ownsChannel, Resources resources) {
        super(id, ownsChannel, resources);
    }

    /**
     * Connects to {@code remote}: a new event channel and identifier, address and route
     * resolution ({@link ConnectionOptions#resolveTimeout()} each), protection domain, completion
     * queue and RC queue pair, {@code rdma_connect} and ESTABLISHED
     * ({@link ConnectionOptions#connectTimeout()}). On any failure everything made is closed.
     * With {@link ConnectionOptions#listenerWait()} it tries again while nothing listens yet.
     *
     * @throws ConnectionRejectedException when rejected, or (InfiniBand, RoCE) nothing listens on that port
     * @throws ConnectionException naming {@code remote} when resolution fails or times out, the
     *         peer is unreachable, no answer came in time, or (iWARP: errno {@code ECONNREFUSED})
     *         nothing listens on that port
     * @throws VerbsUnavailableException when libibverbs or librdmacm is missing
     * @throws dev.panamaverbs.VerbsSetupException when {@code /dev/infiniband/rdma_cm} cannot be
     *         opened (the {@code rdma_ucm} kernel module is not loaded, or not permitted; see
     *         {@link RdmaCm#isAvailable()})
     * @param remote the peer's address and port (the address of its RDMA device)
     * @param options the connection options (queue sizes, retries, timeouts, private data)
     * @return the established connection
     * @throws dev.panamaverbs.VerbsException when a verb on the way fails (its name and errno), e.g.
     *         allocating the protection domain, completion queue or queue pair
     */
    public static RdmaConnection connect(InetSocketAddress remote, ConnectionOptions options) {
        return connect(remote, options, connection -> { });
    }

    /**
     * {@link #connect(InetSocketAddress, ConnectionOptions)} without holding the calling thread:
     * the connect runs on a new virtual thread whose waits park on the shared
     * {@link dev.panamaverbs.events.Poller}, and the future completes with the established
     * connection or exceptionally with what {@code connect} throws. A connection established after
     * the future was cancelled is closed.
     *
     * @param remote the peer's address and port
     * @param options the connection options
     * @return the future connection
     */
    public static CompletableFuture<RdmaConnection> connectAsync(InetSocketAddress remote, ConnectionOptions options) {
        Objects.requireNonNull(options, "rdma_connect: options is null");
        return AsyncCalls.start("panamaverbs-connect-" + remote, () -> connect(remote, options));
    }

    /**
     * As {@link #connect(InetSocketAddress, ConnectionOptions)}, running {@code beforeConnect} on
     * the new connection after {@code rdma_create_qp} and before {@code rdma_connect}: its queue
     * pair is in INIT and accepts receives, so post the receives for what the peer sends at once
     * there. When {@code beforeConnect} throws, everything made is closed and its exception
     * thrown. With {@link ConnectionOptions#listenerWait()} it runs once per try.
     *
     * @param remote the server's address
     * @param options the connection options (queue sizes, retries, timeouts, private data)
     * @param beforeConnect the set-up step (e.g. register memory and post receives)
     * @return the established connection
     * @throws ConnectionRejectedException when rejected, or (InfiniBand, RoCE) nothing listens on
     *         that port (past {@link ConnectionOptions#listenerWait()})
     * @throws ConnectionException naming {@code remote} when resolution fails or times out, the
     *         peer is unreachable, no answer came in time, or (iWARP: errno {@code ECONNREFUSED})
     *         nothing listens on that port (past {@link ConnectionOptions#listenerWait()})
     * @throws VerbsUnavailableException when libibverbs or librdmacm is missing
     * @throws dev.panamaverbs.VerbsSetupException when {@code /dev/infiniband/rdma_cm} cannot be
     *         opened (the {@code rdma_ucm} kernel module is not loaded, or not permitted; see
     *         {@link RdmaCm#isAvailable()})
     * @throws dev.panamaverbs.VerbsException when a verb on the way fails (its name and errno)
     */
    public static RdmaConnection connect(InetSocketAddress remote, ConnectionOptions options,
                                         Consumer<? super RdmaConnection> beforeConnect) {
        Objects.requireNonNull(options, "rdma_connect: options is null");
        Objects.requireNonNull(beforeConnect, "rdma_connect: beforeConnect is null");
        if (options.listenerWait().isZero()) {
            return connectOnce(remote, options, beforeConnect);
        }
        long deadline = Deadline.start("rdma_connect", options.listenerWait());
        long pause = FIRST_RETRY_PAUSE_NANOS;
        ConnectionException nothingThere = null;
        while (true) {
            long left = Deadline.remainingNanos(deadline);
            ConnectionOptions thisTry = cutTo(options, left);
            try {
                return connectOnce(remote, thisTry, beforeConnect);
            } catch (ConnectionException e) {
                ConnectionException answer = answer(e, nothingThere, isCut(thisTry, options));
                left = Deadline.remainingNanos(deadline);
                if (!answer.nothingListens() || left <= pause) {
                    if (answer != e) {
                        answer.addSuppressed(e);
                    }
                    throw answer;
                }
                nothingThere = answer;
                LockSupport.parkNanos(pause);
                if (Thread.currentThread().isInterrupted()) {
                    ConnectionException interrupted = new ConnectionException("rdma_connect", "to "
                            + SocketAddresses.format(remote), Errno.EINTR, null, "interrupted while waiting for a listener");
                    interrupted.addSuppressed(e);
                    throw interrupted;
                }
                pause = Math.min(MAX_RETRY_PAUSE_NANOS, pause * 2);
            }
        }
    }

    /**
     * What a listener wait makes of a try that failed with {@code e}: {@code e}, unless it is the
     * timeout ({@code ETIMEDOUT}) of a try the wait {@code cut} short after an earlier try found
     * nothing listening ({@code nothingThere}, else null): that answer then stands, since the cut
     * try only ran out of the wait's time (under load a reject can take longer than the last
     * milliseconds of the wait).
     */
    static ConnectionException answer(ConnectionException e, ConnectionException nothingThere, boolean cut) {
        return nothingThere != null && cut && e.errno() == Errno.ETIMEDOUT ? nothingThere : e;
    }

    /** Whether {@code thisTry} waits less than {@code options} in some step ({@link #cutTo}). */
    private static boolean isCut(ConnectionOptions thisTry, ConnectionOptions options) {
        return thisTry.resolveTimeout().compareTo(options.resolveTimeout()) < 0
                || thisTry.connectTimeout().compareTo(options.connectTimeout()) < 0;
    }

    private static RdmaConnection connectOnce(InetSocketAddress remote, ConnectionOptions options,
                                              Consumer<? super RdmaConnection> beforeConnect) {
        return resolveOnNewChannel(remote, options, ConnectionOptions.MAX_CONNECT_PRIVATE_DATA, PortSpace.TCP,
                id -> establish(id, options, true, beforeConnect));
    }

    /** {@code options} with each wait of one try cut so that the try ends within {@code leftNanos} (at least 1 ms each). */
    private static ConnectionOptions cutTo(ConnectionOptions options, long leftNanos) {
        // resolve address, resolve route and connect: a third each when they would not fit
        Duration third = Duration.ofNanos(Math.max(1_000_000L, leftNanos / 3));
        Duration resolve = options.resolveTimeout().compareTo(third) <= 0 ? options.resolveTimeout() : third;
        Duration connect = options.connectTimeout().compareTo(third) <= 0 ? options.connectTimeout() : third;
        return options.toBuilder().resolveTimeout(resolve).connectTimeout(connect).build();
    }

    /**
     * Makes PD, CQ and QP on {@code id}, runs {@code prepare} on the new connection, then connects
     * ({@code active}) or accepts. Closes the identifier (and its channel when it owns one of its
     * own) on failure.
     */
    static RdmaConnection establish(ConnectionId id, ConnectionOptions options, boolean active,
                                    Consumer<? super RdmaConnection> prepare) {
        String verb = active ? "rdma_connect" : "rdma_accept";
        return Undo.orUndo(() -> {
            Resources resources = Resources.create(id, QueuePairType.RC, options);
            RdmaConnection connection = new RdmaConnection(id, ownsItsChannel(id), resources);
            prepare.accept(connection);
            connection.state.require(verb, EnumSet.of(State.PREPARING));
            if (active) {
                connection.established = id.connect(options, options.connectTimeout());
            } else {
                id.accept(options, options.connectTimeout());
            }
            connection.state.move(verb, EnumSet.of(State.PREPARING), State.CONNECTED);
            return connection;
        }, () -> closeIdentifier(id));
    }

    /** Whether {@code id} is the only identifier of its channel's tree that we made for it. */
    private static boolean ownsItsChannel(ConnectionId id) {
        return CoreAccess.get().liveDependents(id.channel()).size() == 1;
    }

    /** Closes {@code id}, and its channel too when the channel serves only it. */
    static void closeIdentifier(ConnectionId id) {
        if (ownsItsChannel(id)) {
            id.channel().close();
        } else {
            id.close();
        }
    }

    /** The current state (tests). */
    State state() {
        return state.current();
    }

    private void require(Operation operation) {
        state.require(operation.verb, operation.allowed);
    }

    /**
     * The device context rdma_cm chose (librdmacm's; see {@link ConnectionId#context()}).
     *
     * @return the device context rdma_cm chose (librdmacm's; see {@link ConnectionId#context()}).
     */
    public Context context() {
        require(Operation.CONTEXT);
        return id.context();
    }


    /**
     * The peer's address.
     *
     * @return the peer's address.
     */
    public InetSocketAddress remoteAddress() {
        require(Operation.REMOTE_ADDRESS);
        return id.remoteAddress();
    }


    /**
     * True once closed.
     *
     * @return true once closed.
     */
    public boolean isClosed() {
        return state.current() == State.CLOSED || id.isClosed();
    }

    /**
     * The private data the server sent with its accept (client side; padded by the CM), else empty.
     *
     * @return the private data the server sent with its accept (client side; padded by the CM), else empty.
     */
    public byte[] acceptPrivateData() {
        ConnectionEvent event = established;
        return event != null ? event.privateData() : new byte[0];
    }

    /**
     * {@code rdma_disconnect} and wait up to {@code timeout} for DISCONNECTED: the queue pair goes
     * to ERROR (outstanding and later requests complete with a flush error), the peer sees
     * DISCONNECTED. Close afterwards. Once DISCONNECTED was seen (here or by
     * {@link #awaitDisconnect}) it answers true at once; while a disconnect is under way it only
     * waits.
     *
     * @param timeout how long to wait at most (not negative)
     * @return true when DISCONNECTED arrived (or had), false when the timeout passed first
     * @throws IllegalStateException when closed (also by another thread during the wait), or still
     *         preparing
     */
    public boolean disconnect(Duration timeout) {
        require(Operation.DISCONNECT);
        // The peer's DISCONNECTED, already seen by the identifier (and answered there), needs no rdma_disconnect of ours.
        try {
            if (state.current() == State.CONNECTED && id.awaitDisconnect(Duration.ZERO)) {
                state.moveIf(State.CONNECTED, State.DISCONNECTED);
            }
            if (state.moveIf(State.CONNECTED, State.DISCONNECTING)) {
                id.disconnect(Duration.ZERO); // the wait is ours, below
            }
        } catch (IllegalStateException e) {
            throw whenClosed(Operation.DISCONNECT, e);
        }
        return awaitDisconnect(timeout);
    }

    /**
     * Waits up to {@code timeout} for the peer to disconnect (or to be declared dead), or for the
     * DISCONNECTED of our own {@link #disconnect}; true once disconnected (at once when it was
     * seen before).
     *
     * @param timeout how long to wait at most (not negative)
     * @return true once disconnected, false when the timeout passed first
     * @throws IllegalStateException when closed (also by another thread during the wait), or still
     *         preparing
     */
    public boolean awaitDisconnect(Duration timeout) {
        require(Operation.AWAIT_DISCONNECT);
        long deadline = Deadline.start("rdma_get_cm_event", timeout);
        boolean checked = false; // the deadline rule: even a zero timeout looks once
        while (true) {
            State now = state.current();
            if (now == State.CLOSED) {
                throw state.closedWhileWaiting(Operation.AWAIT_DISCONNECT.verb, null);
            }
            if (now == State.DISCONNECTED) {
                return true;
            }
            long left = Deadline.remainingNanos(deadline);
            if (left <= 0 && checked) {
                return false;
            }
            checked = true;
            boolean seen;
            try {
                seen = id.awaitDisconnect(left < DISCONNECT_SLICE.toNanos() ? Duration.ofNanos(left) : DISCONNECT_SLICE);
            } catch (IllegalStateException e) {
                throw whenClosed(Operation.AWAIT_DISCONNECT, e);
            }
            if (seen) {
                state.moveIf(State.CONNECTED, State.DISCONNECTED);
                state.moveIf(State.DISCONNECTING, State.DISCONNECTED);
            }
        }
    }

    /** The failure of a wait: "closed by another thread" when the connection got closed, else {@code failure} itself. */
    private RuntimeException whenClosed(Operation operation, IllegalStateException failure) {
        return state.current() == State.CLOSED || id.isClosed()
                ? state.closedWhileWaiting(operation.verb, failure) : failure;
    }

    /**
     * Closes the queue pair, the completion queues, the protection domain (and what was made in
     * it), the identifier (disconnecting a connected one) and, when it has one of its own, its
     * event channel, in that order. Idempotent, from any thread, in any state: a thread waiting in
     * {@link #awaitDisconnect} ends with an {@link IllegalStateException}.
     */
    @Override
    public void close() {
        state.force(State.CLOSED);
        super.close();
    }

    @Override
    public String toString() {
        return "RdmaConnection[" + id + ", " + queuePair() + ", " + state.current() + "]";
    }
}
