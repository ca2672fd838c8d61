package dev.panamaverbs.cm;

import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.internal.CoreAccess;
import dev.panamaverbs.CompletionChannel;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.VerbsResource;
import dev.panamaverbs.VerbsUnavailableException;
import dev.panamaverbs.internal.Deadline;
import dev.panamaverbs.internal.EventFiles;
import dev.panamaverbs.internal.FdWatch;
import dev.panamaverbs.events.PollSource;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.RdmacmCalls;
import dev.panamaverbs.ffm.rdmacm.rdma_cm_event;
import dev.panamaverbs.ffm.rdmacm.rdma_event_channel;
import dev.panamaverbs.loader.internal.LibRdmacm;
import dev.panamaverbs.gateway.Pointers;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * An rdma_cm event channel (C {@code struct rdma_event_channel}, {@code rdma_create_event_channel}):
 * where the connection identifiers created on it report address and route resolution,
 * connection requests, establishment, rejection and disconnection. The root of an rdma_cm
 * resource tree: {@link #close()} closes its identifiers (and what they created) first, then
 * {@code rdma_destroy_event_channel}.
 *
 * <h2>Waiting</h2>
 * The channel's fd is made non-blocking, so {@code rdma_get_cm_event} never blocks; waiters park
 * on the shared {@link dev.panamaverbs.events.Poller} like {@link CompletionChannel}'s, unparked
 * when the fd becomes readable. Opted out ({@link dev.panamaverbs.events.Poller#ENABLED_PROPERTY}),
 * they poll the fd: a virtual thread polls with timeout 0 and parks in Java between polls
 * (backoff up to 1 ms), a platform thread blocks in {@code poll(2)} slices of 50 ms.
 * Every event is copied and acknowledged ({@code rdma_ack_cm_event}) at once, then handed to the
 * identifier it concerns (a connection request to its listener): a thread waiting for one
 * identifier keeps the events of others for them, so several identifiers and threads can share
 * one channel. Closing the channel or the identifier a thread waits for ends the wait with an
 * {@link IllegalStateException}.
 */
public final class ConnectionEventChannel extends VerbsResource {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionEventChannel.class);
    /** Platform threads poll the fd in 50 ms slices (a close is noticed within one); virtual threads park from 10 µs up to 1 ms. */
    private static final EventFiles.Backoff BACKOFF = new EventFiles.Backoff(50, 0, 10_000, 1_000_000);

    private final int fd;
    /** The identifiers on this channel, by {@code rdma_cm_id*} address. */
    private final Map<Long, ConnectionId> identifiers = new ConcurrentHashMap<>();
    /** Events taken from the fd but not yet claimed, by the address of the identifier they concern. */
    private final Map<Long, Queue<ConnectionEvent>> mailboxes = new ConcurrentHashMap<>();
    /** Connection requests taken but not yet claimed, by the address of their listener. */
    private final Map<Long, Queue<ConnectionEvent>> requests = new ConcurrentHashMap<>();
    /** The fd on the shared poller; closed before {@code rdma_destroy_event_channel}. */
    private final FdWatch watch;
    /** Shown every event taken from the fd, or null ({@link #setEventHandler}). */
    private volatile Consumer<? super ConnectionEvent> eventHandler;
    /** The handler's call state on the poller thread (poll, event slot, errno), made with the first handler (guarded by this). */
    private Arena handlerArena;
    private MemorySegment handlerPoll, handlerSlot, handlerCall;

    private ConnectionEventChannel(MemorySegment handle, int fd) {
        super("ConnectionEventChannel", handle);
        this.fd = fd;
        this.watch = new FdWatch(fd, "ConnectionEventChannel fd=" + fd);
    }

    /**
     * {@code rdma_create_event_channel}, its fd made non-blocking.
     *
     * @throws VerbsUnavailableException when libibverbs or librdmacm is unavailable
     * @throws dev.panamaverbs.VerbsSetupException when {@code /dev/infiniband/rdma_cm} cannot be
     *         opened (the {@code rdma_ucm} kernel module is not loaded, or not permitted)
     * @throws VerbsException when the call fails otherwise
     * @return {@code rdma_create_event_channel}, its fd made non-blocking.
     */
    public static ConnectionEventChannel create() {
        RdmaCm.ensureAvailable();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            MemorySegment created = RdmacmCalls.rdma_create_event_channel(state);
            int errno = CallState.errno(state);
            if (created.equals(MemorySegment.NULL)) {
                if (errno == Errno.ENOENT || errno == Errno.ENODEV) { // the device went since the check
                    throw RdmaCmDevice.missing("rdma_create_event_channel: " + Errno.describe(errno)
                            + ": " + RdmaCmDevice.DEFAULT_PATH + " (the rdma_ucm kernel module)");
                }
                throw new VerbsException("rdma_create_event_channel", errno != 0 ? errno : Errno.ENODEV, null);
            }
            created = Pointers.sized(created, rdma_event_channel.SIZE);
            int fd = rdma_event_channel.fd(created);
            ConnectionEventChannel channel = new ConnectionEventChannel(created, fd);
            try {
                EventFiles.setNonBlocking(fd);
            } catch (RuntimeException e) {
                RdmacmCalls.rdma_destroy_event_channel(state, created);
                throw e;
            }
            CoreAccess.get().register(channel);
            LibRdmacm.LIBRARY.announceLoaded(); // the library's first use, not the probe, logs its file
            return channel;
        }
    }

    /**
     * The channel's file descriptor ({@code rdma_event_channel.fd}), non-blocking.
     *
     * @return the channel's file descriptor ({@code rdma_event_channel.fd}), non-blocking.
     */
    public int fd() {
        return fd;
    }

    /**
     * {@code rdma_create_id}: a new identifier on this channel in {@code space}.
     *
     * @param space the port space: TCP for a connected RC queue pair, UDP for UD datagrams
     * @return {@code rdma_create_id}: a new identifier on this channel in {@code space}.
     */
    public ConnectionId createIdentifier(PortSpace space) {
        Objects.requireNonNull(space, "rdma_create_id: port space is null");
        CoreAccess.get().acquire(this);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            MemorySegment slot = arena.allocate(ADDRESS);
            int rc = RdmacmCalls.rdma_create_id(state, CoreAccess.get().handleSegment(this), slot, MemorySegment.NULL, space.value());
            NativeCalls.checkErrno("rdma_create_id", rc, CallState.errno(state));
            return ConnectionId.adopt(this, slot.get(ADDRESS, 0).address(), space, IdentifierState.CREATED);
        } finally {
            CoreAccess.get().release(this);
        }
    }


    /**
     * Has {@code handler} shown every event taken from this channel from now on, for any of its
     * identifiers, connection requests included: the shared poller's thread takes each event as
     * the fd becomes readable, so a server with many connections hears of a DISCONNECTED, say,
     * without a thread per connection. The handler observes and does not consume: each event is
     * still kept for its identifier, so that identifier's waits (connect, accept,
     * {@link ConnectionId#awaitDisconnect}, {@link ConnectionId#awaitRequest}) see it as before.
     * It runs on the thread that took the event from the fd: the poller's, or a thread waiting on
     * this channel that took it first. It must be short and must not block; what it throws is
     * logged (WARN). Null removes it.
     *
     * @param handler the handler, or null
     * @throws IllegalStateException when the channel is closed, or the shared poller is opted out
     *         ({@link dev.panamaverbs.events.Poller#ENABLED_PROPERTY})
     */
    public void setEventHandler(Consumer<? super ConnectionEvent> handler) {
        acquire();
        try {
            PollSource source = watch.sourceForHandler("rdma_get_cm_event");
            synchronized (this) {
                if (handler != null && handlerArena == null) {
                    handlerArena = Arena.ofShared();
                    handlerPoll = EventFiles.allocatePollState(handlerArena);
                    handlerSlot = handlerArena.allocate(ADDRESS);
                    handlerCall = CallState.allocate(handlerArena);
                }
            }
            eventHandler = handler;
            source.setHandler(handler == null ? null : this::takeForHandler);
        } finally {
            release();
        }
    }

    /** On the poller thread: every event now pending, each kept for its identifier, then shown to the handler. */
    private void takeForHandler() {
        while (true) {
            ConnectionEvent event;
            try {
                event = tryTake(handlerPoll, handlerSlot, handlerCall, 0);
            } catch (IllegalStateException closed) {
                return; // the channel closed under the handler: its waiters hear of it
            }
            if (event == null) {
                return;
            }
            deliver(event);
            show(event);
        }
    }

    /** Shows {@code event} to the handler, if any; what it throws is logged. */
    private void show(ConnectionEvent event) {
        Consumer<? super ConnectionEvent> handler = eventHandler;
        if (handler != null) {
            try {
                handler.accept(event);
            } catch (RuntimeException e) {
                LOG.warn("the event handler of {} threw on {}", this, event, e);
            }
        }
    }

    /**
     * The next event for any identifier of this channel, waiting up to {@code timeout}
     * ({@code rdma_get_cm_event}, then {@code rdma_ack_cm_event}); events already taken for an
     * identifier no one waited for come first. Connection requests are not returned here: they
     * wait for their listener's {@link ConnectionId#awaitRequest}.
     *
     * @return the event, or empty when none came in time
     * @throws IllegalStateException when the channel is (or gets) closed
     * @param timeout how long to wait at most (not negative)
     */
    public Optional<ConnectionEvent> awaitEvent(Duration timeout) {
        long deadline = Deadline.start("rdma_get_cm_event", timeout);
        ConnectionEvent event = awaitUntil(null, false, deadline, "rdma_get_cm_event", "on " + this);
        // The identifier's state follows its events, whoever takes them.
        ConnectionId id = event == null ? null : identifiers.get(event.idAddress());
        return Optional.ofNullable(id == null ? event : id.observe(event));
    }

    /**
     * The next event concerning {@code id} (with {@code request}: the next connection request to
     * the listener {@code id}) before {@code deadline} ({@link Deadline}; one check when it has
     * passed already), or null. Other events are kept for
     * whoever they concern.
     *
     * @throws IllegalStateException when the channel or {@code id} is (or gets) closed
     * @throws ConnectionException with EINTR when interrupted (the interrupt flag is kept)
     */
    ConnectionEvent awaitUntil(ConnectionId id, boolean request, long deadline, String verb, String target) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pollState = EventFiles.allocatePollState(arena);
            MemorySegment eventSlot = arena.allocate(ADDRESS);
            MemorySegment callState = CallState.allocate(arena);
            return EventFiles.awaitUntil(deadline, verb, target, BACKOFF, watch, pollMillis -> {
                ConnectionEvent mine = claim(id, request);
                if (mine != null) {
                    return mine;
                }
                if (isClosed()) {
                    throw new IllegalStateException(this + " was closed while waiting for " + verb + " " + target);
                }
                if (id != null && id.isClosed()) {
                    throw new IllegalStateException(id + " was closed while waiting for " + verb + " " + target);
                }
                // Events for others are kept for them, and the fd is looked at again at once.
                for (int wait = pollMillis; ; wait = 0) {
                    ConnectionEvent event = tryTake(pollState, eventSlot, callState, wait);
                    if (event == null) {
                        return null;
                    }
                    show(event);
                    boolean isRequest = event.type() == ConnectionEventType.CONNECT_REQUEST;
                    if (isRequest == request && (id == null || event.ownerAddress() == CoreAccess.get().handleAddress(id))) {
                        return event;
                    }
                    deliver(event);
                }
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // kept: the rdma_cm waits declare no InterruptedException
            throw new ConnectionException(verb, target, Errno.EINTR, null, "interrupted while waiting");
        }
    }

    /** An event (or request) already taken for {@code id} (any identifier's when null), or null. */
    private ConnectionEvent claim(ConnectionId id, boolean request) {
        Map<Long, Queue<ConnectionEvent>> boxes = request ? requests : mailboxes;
        if (id != null) {
            Queue<ConnectionEvent> box = boxes.get(CoreAccess.get().handleAddress(id));
            return box == null ? null : box.poll();
        }
        for (Queue<ConnectionEvent> box : boxes.values()) {
            ConnectionEvent event = box.poll();
            if (event != null) {
                return event;
            }
        }
        return null;
    }

    /** Keeps {@code event} for its identifier; an event for none of ours is dropped (a request refused). */
    private void deliver(ConnectionEvent event) {
        long owner = event.ownerAddress();
        boolean isRequest = event.type() == ConnectionEventType.CONNECT_REQUEST;
        if (identifiers.containsKey(owner)) {
            (isRequest ? requests : mailboxes).computeIfAbsent(owner, k -> new ConcurrentLinkedQueue<>()).add(event);
            watch.wakeWaiters(); // its waiter may be parked on the poller: it looks in its mailbox again
        } else if (isRequest) {
            IdentifierCalls.refuseRaw(event.idAddress());
        }
    }

    /** One attempt: poll the fd, and if readable take one event, copy it and acknowledge it. */
    private ConnectionEvent tryTake(MemorySegment pollState, MemorySegment eventSlot, MemorySegment callState,
                                    int pollMillis) {
        acquire();
        try {
            if (!EventFiles.pollReadable(pollState, fd, pollMillis)) {
                return null;
            }
            int rc = RdmacmCalls.rdma_get_cm_event(callState, handleSegment(), eventSlot);
            if (rc != 0) {
                int errno = CallState.errno(callState);
                if (errno == Errno.EAGAIN || errno == Errno.EINTR) {
                    return null;
                }
                throw NativeCalls.failure("rdma_get_cm_event", errno);
            }
            MemorySegment event = Pointers.sized(eventSlot.get(ADDRESS, 0), rdma_cm_event.SIZE);
            try {
                return ConnectionEvents.copy(event);
            } finally {
                // Acknowledged at once: rdma_destroy_id waits for every event of its id to be acknowledged.
                RdmacmCalls.rdma_ack_cm_event(callState, event);
            }
        } finally {
            release();
        }
    }

    /** Called by an identifier once registered on this channel. */
    void attach(ConnectionId id) {
        identifiers.put(CoreAccess.get().handleAddress(id), id);
    }

    /**
     * Called by an identifier being destroyed: forgets it and returns the events no one claimed
     * (pending connection requests the caller must refuse).
     */
    Queue<ConnectionEvent> detach(ConnectionId id) {
        identifiers.remove(CoreAccess.get().handleAddress(id), id);
        mailboxes.remove(CoreAccess.get().handleAddress(id));
        Queue<ConnectionEvent> left = requests.remove(CoreAccess.get().handleAddress(id));
        watch.wakeWaiters(); // a thread waiting for this identifier sees it closed
        return left != null ? left : new ConcurrentLinkedQueue<>();
    }

    /** {@code rdma_destroy_event_channel}; every identifier on it is already destroyed. */
    @Override
    protected void destroy() {
        watch.close(); // before the fd goes: parked waiters look again and find the channel closed
        try (Arena arena = Arena.ofConfined()) {
            RdmacmCalls.rdma_destroy_event_channel(CallState.allocate(arena), handleSegment());
        } finally {
            synchronized (this) {
                if (handlerArena != null) {
                    handlerArena.close(); // no handler runs now: it takes events under a use of the channel
                }
            }
        }
    }

    @Override
    protected String describe() {
        return "fd=" + fd;
    }
}
