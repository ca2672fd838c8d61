package dev.panamaverbs;

import dev.panamaverbs.values.Errno;
import dev.panamaverbs.internal.AddressTable;
import dev.panamaverbs.internal.Undo;
import dev.panamaverbs.internal.Deadline;
import dev.panamaverbs.internal.EventFiles;
import dev.panamaverbs.internal.FdWatch;
import dev.panamaverbs.events.Poller;
import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.gateway.Pointers;
import dev.panamaverbs.ffm.ibv_comp_channel;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.IbverbsCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A completion event channel ({@code struct ibv_comp_channel}): CQs created with it signal
 * "a completion arrived" here once armed with {@link CompletionQueue#requestNotification}, and a
 * thread sleeps in {@link #awaitEvent} instead of spinning on {@code ibv_poll_cq}.
 *
 * <h2>How waiting works, and why</h2>
 * The channel's fd is made non-blocking at creation ({@code fcntl O_NONBLOCK}), so
 * {@code ibv_get_cq_event} (a {@code read} of that fd) never blocks, and a waiter calls it only
 * once the fd is readable. The JDK offers no public way to register a foreign fd with its poller,
 * and a virtual thread inside a native call holds its carrier thread for the whole call. So the
 * fd is registered, at the first wait, on the library's shared
 * {@link dev.panamaverbs.events.Poller} (one platform thread in {@code epoll_wait}), and waiters,
 * virtual or platform, park in Java until the poller reports the fd readable
 * ({@code docs/poller.md}). Many CQs may share a channel: a thread waiting for one CQ that takes
 * another's event hands it over to that CQ's waiter.
 *
 * <p>With the poller opted out ({@link dev.panamaverbs.events.Poller#ENABLED_PROPERTY}):
 * <ul>
 *   <li>on a <b>virtual thread</b> the fd is polled with timeout 0 and the thread parks in Java
 *       between polls, with a backoff from {@value #FIRST_PARK_NANOS} ns doubling up to
 *       {@value #MAX_PARK_NANOS} ns: the carrier is never held, at the cost of up to that much
 *       wake-up latency and a poll per backoff step while idle;</li>
 *   <li>on a <b>platform thread</b> {@code poll(2)} itself blocks, in slices of at most
 *       {@value #PLATFORM_SLICE_MILLIS} ms, so the wake-up is immediate and interrupts and
 *       {@link #close()} are noticed between slices.</li>
 * </ul>
 * Latency-critical code polls the CQ instead ({@link CompletionQueue#poll}).
 *
 * <p>Each event is acknowledged through its CQ in batches ({@link CompletionQueue#setEventAckBatch});
 * a CQ acknowledges everything outstanding before it is destroyed. CQs using this channel depend
 * on it: closing the channel closes them first ({@code ibv_destroy_comp_channel} fails with EBUSY
 * while a CQ uses it).
 */
public final class CompletionChannel extends VerbsResource {
    static final long FIRST_PARK_NANOS = 10_000;
    static final long MAX_PARK_NANOS = 1_000_000;
    static final int PLATFORM_SLICE_MILLIS = 50;
    /** Timeout-0 polls (with a {@link Thread#yield}) before a virtual thread starts parking. */
    private static final int YIELD_ROUNDS = 8;
    private static final EventFiles.Backoff BACKOFF =
            new EventFiles.Backoff(PLATFORM_SLICE_MILLIS, YIELD_ROUNDS, FIRST_PARK_NANOS, MAX_PARK_NANOS);

    private final Context context;
    private final int fd;
    /** The CQs created on this channel, by {@code ibv_cq*} address, to map events back. */
    private final AddressTable<CompletionQueue> queues = new AddressTable<>();
    /**
     * CQs whose event a thread waiting for another CQ took (and counted): handed to their own
     * waiter ({@link CompletionQueue#awaitCompletions}) or to the next {@link #awaitEvent}.
     */
    private final Set<CompletionQueue> handedOver = ConcurrentHashMap.newKeySet();
    /** The fd on the shared poller; closed before {@code ibv_destroy_comp_channel}. */
    private final FdWatch watch;
    /**
     * The event slots and errno capture of {@link #handleEvents}, which only the poller thread
     * runs: allocated once so that an event allocates nothing there (waiters on other threads
     * allocate their own per wait). An automatic arena: freed with the channel object, so a
     * close costs no shared-arena handshake, and a destroy refused with EBUSY leaves them valid.
     */
    private final Arena handlerArena = Arena.ofAuto();
    private final MemorySegment handlerSlots = handlerArena.allocate(ADDRESS, 2);
    private final MemorySegment handlerContextSlot = handlerSlots.asSlice(ADDRESS.byteSize());
    private final MemorySegment handlerCallState = CallState.allocate(handlerArena);
    /** The futures this channel's events complete ({@link CompletionFutures#attach}), or null. */
    private volatile CompletionFutures futures;
    /** Whether the application's own handler is set ({@link #setEventHandler}). */
    private volatile boolean handlerSet;

    private CompletionChannel(Context context, MemorySegment handle, int fd) {
        super("CompletionChannel", handle, context);
        this.context = context;
        this.fd = fd;
        this.watch = new FdWatch(fd, "CompletionChannel fd=" + fd);
    }

    /** {@code ibv_create_comp_channel}, then the fd made non-blocking. Hook of {@code Context.createCompletionChannel()}. */
    static CompletionChannel create(Context context) {
        Objects.requireNonNull(context, "context");
        context.acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            MemorySegment created = IbverbsCalls.ibv_create_comp_channel(state,
                    context.handleSegment());
            created = Pointers.sized(NativeCalls.checkPointer("ibv_create_comp_channel", created, CallState.errno(state)),
                    ibv_comp_channel.LAYOUT.byteSize());
            int fd = ibv_comp_channel.fd(created);
            CompletionChannel channel = new CompletionChannel(context, created, fd);
            Undo.orUndo(() -> EventFiles.setNonBlocking(fd), channel::destroy);
            channel.register();
            return channel;
        } finally {
            context.release();
        }
    }

    /**
     * The context this channel belongs to.
     *
     * @return the context this channel belongs to
     */
    public Context context() {
        return context;
    }

    /**
     * The channel's file descriptor ({@code ibv_comp_channel.fd}), non-blocking.
     *
     * @return the channel's file descriptor ({@code ibv_comp_channel.fd}), non-blocking
     */
    public int fd() {
        return fd;
    }

    /**
     * Waits up to {@code timeout} for a completion event and returns the CQ it is for
     * ({@code ibv_get_cq_event}, called only once the fd is readable, so it never blocks). The
     * event is counted for acknowledgement on that CQ; re-arm it with
     * {@link CompletionQueue#requestNotification} before polling it empty, or later completions
     * raise no event. The timeout follows the library's deadline rule ({@code docs/safety.md},
     * "Deadlines"): zero checks once, a huge one waits for ever.
     *
     * @return the CQ, or empty when the timeout passed without an event
     * @throws InterruptedException if the thread is interrupted while waiting
     * @throws IllegalStateException if the channel is (or gets) closed
     * @throws NullPointerException if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @param timeout how long to wait at most
     */
    public Optional<CompletionQueue> awaitEvent(Duration timeout) throws InterruptedException {
        return Optional.ofNullable(awaitUntil(Deadline.start("ibv_get_cq_event", timeout)));
    }

    /**
     * Waits without a time limit for a completion event ({@code ibv_get_cq_event}); see
     * {@link #awaitEvent(Duration)}.
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     * @throws IllegalStateException if the channel is (or gets) closed
     * @return the completion queue
     */
    public CompletionQueue awaitEvent() throws InterruptedException {
        return awaitUntil(Deadline.after(Deadline.FOREVER_NANOS));
    }

    /** The wait of both {@code awaitEvent}s: the next event for any CQ, until {@code deadline}. */
    CompletionQueue awaitUntil(long deadline) throws InterruptedException {
        return awaitUntil(deadline, null);
    }

    /**
     * The next event for {@code forQueue} (any CQ's when null) before {@code deadline}, or null.
     * Events taken for another CQ of the channel are handed over to it and its waiters woken, so
     * many CQs, each waited for by its own thread, share the channel without losing a wake-up.
     *
     * @throws IllegalStateException when the channel or {@code forQueue} is (or gets) closed
     */
    CompletionQueue awaitUntil(long deadline, CompletionQueue forQueue) throws InterruptedException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pollState = EventFiles.allocatePollState(arena);
            MemorySegment eventSlots = arena.allocate(ADDRESS, 2); // struct ibv_cq **, void **cq_context
            MemorySegment callState = CallState.allocate(arena);
            return EventFiles.awaitUntil(deadline, "ibv_get_cq_event", forQueue == null ? this : forQueue, BACKOFF, watch,
                    pollMillis -> {
                        CompletionQueue mine = claimHandedOver(forQueue);
                        if (mine != null) {
                            return mine;
                        }
                        for (int wait = pollMillis; ; wait = 0) {
                            CompletionQueue queue = pollAndGetEvent(pollState, eventSlots, callState, wait);
                            if (queue == null || forQueue == null || queue == forQueue) {
                                return queue;
                            }
                            handedOver.add(queue);
                            watch.wakeWaiters();
                        }
                    });
        }
    }

    /**
     * Has the shared {@link Poller} call {@code handler}, on its thread, with the CQ of every
     * completion event of this channel ({@code ibv_get_cq_event} once the fd is readable), instead
     * of a thread waiting in {@link #awaitEvent}. Each CQ is re-armed
     * ({@link CompletionQueue#requestNotification}) before the handler is called with it, so the
     * handler polls it until empty and a completion that comes after that raises a new event (arm,
     * then drain: no completion is left without an event). The handler must be short and must not
     * block (the poller's other fds wait meanwhile); what it throws is logged. Null removes it.
     * Arm every CQ once before the first completion, as for any event use.
     *
     * @param handler called with each CQ that has an event, or null
     * @throws IllegalStateException if the channel is closed, or the shared poller is opted out
     *         ({@link Poller#ENABLED_PROPERTY})
     */
    public synchronized void setEventHandler(Consumer<? super CompletionQueue> handler) {
        acquire();
        try {
            if (futures != null) {
                throw new IllegalStateException("ibv_get_cq_event: " + this + "'s events go to its CompletionFutures; close it first");
            }
            setHandler(handler);
            handlerSet = handler != null;
        } finally {
            release();
        }
    }

    private void setHandler(Consumer<? super CompletionQueue> handler) {
        watch.sourceForHandler("ibv_get_cq_event").setHandler(handler == null ? null : () -> handleEvents(handler));
    }

    /** {@link CompletionFutures#attach}: {@code handler} takes every event until {@link #detachFutures}. */
    synchronized void attachFutures(CompletionFutures attached, Consumer<CompletionQueue> handler) {
        acquire();
        try {
            if (futures != null) {
                throw new IllegalStateException("CompletionFutures.attach: " + this + " has one already");
            }
            if (handlerSet) {
                throw new IllegalStateException("CompletionFutures.attach: " + this + " has an event handler; remove it first");
            }
            setHandler(handler);
            futures = attached;
        } finally {
            release();
        }
    }

    /** {@link CompletionFutures#close}: the channel's events stop going to {@code attached}. */
    synchronized void detachFutures(CompletionFutures attached) {
        if (futures != attached) {
            return;
        }
        futures = null;
        try {
            acquire();
        } catch (IllegalStateException closed) {
            return; // the channel's close removed the handler with its fd
        }
        try {
            setHandler(null);
        } finally {
            release();
        }
    }

    /**
     * On the poller thread: every event now pending, each CQ re-armed, then handed to
     * {@code handler}. What {@code awaitUntil} with a deadline already over does, without its
     * per-call arena, poll and lambda, so that an event allocates nothing: the fd is readable (the
     * poller said so) and non-blocking, so {@code ibv_get_cq_event} is called directly and fails
     * with EAGAIN when a waiter took the event first.
     */
    private void handleEvents(Consumer<? super CompletionQueue> handler) {
        while (true) {
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
            CompletionQueue queue;
            try {
                queue = handedOver.isEmpty() ? null : claimHandedOver(null);
                if (queue == null) {
                    queue = getEvent(handlerSlots, handlerContextSlot, handlerCallState);
                }
            } catch (IllegalStateException closed) {
                return; // the channel is closing
            }
            if (queue == null) {
                return;
            }
            try {
                queue.requestNotification(false);
            } catch (IllegalStateException closed) {
                continue; // the CQ is closing: nothing to hand over
            }
            handler.accept(queue);
        }
    }

    /** An event handed over to {@code forQueue} (to any CQ when null), or null; throws if {@code forQueue} closed. */
    private CompletionQueue claimHandedOver(CompletionQueue forQueue) {
        if (forQueue != null) {
            if (forQueue.isClosed()) {
                throw new IllegalStateException("ibv_get_cq_event: " + forQueue + " was closed while waiting for its event");
            }
            return handedOver.remove(forQueue) ? forQueue : null;
        }
        for (CompletionQueue queue : handedOver) {
            if (handedOver.remove(queue)) {
                return queue;
            }
        }
        return null;
    }

    /**
     * One attempt: poll the fd (up to {@code pollMillis}), and if readable take one event.
     * Returns the CQ or null (nothing readable, or another thread took the event: EAGAIN).
     */
    private CompletionQueue pollAndGetEvent(MemorySegment pollState, MemorySegment eventSlots,
                                            MemorySegment callState, int pollMillis) {
        acquire();
        try {
            if (!EventFiles.pollReadable(pollState, fd, pollMillis)) {
                return null;
            }
        } finally {
            release();
        }
        return getEvent(eventSlots, eventSlots.asSlice(ADDRESS.byteSize()), callState);
    }

    /**
     * {@code ibv_get_cq_event} on the non-blocking fd, counted on its CQ: the CQ, or null when
     * there was none (EAGAIN: nothing readable, or another thread took it; EINTR).
     */
    private CompletionQueue getEvent(MemorySegment eventSlots, MemorySegment contextSlot, MemorySegment callState) {
        long cqAddress;
        acquire();
        try {
            int rc = IbverbsCalls.ibv_get_cq_event(callState, handleSegment(),
                    eventSlots, contextSlot);
            if (rc != 0) {
                int errno = CallState.errno(callState);
                if (errno == Errno.EAGAIN || errno == Errno.EINTR) {
                    return null;
                }
                throw NativeCalls.failure("ibv_get_cq_event", errno);
            }
            cqAddress = eventSlots.get(JAVA_LONG, 0);
        } finally {
            release();
        }
        CompletionQueue queue = queues.get(cqAddress);
        if (queue == null) {
            // Not one of ours (cannot happen through this API): acknowledge at once so that
            // whoever destroys that CQ is not left waiting for the acknowledgement.
            CompletionQueue.acknowledgeRaw(MemorySegment.ofAddress(cqAddress), 1);
            return null;
        }
        queue.recordEvent();
        return queue;
    }

    /** Called by a CQ created on this channel, once it is registered. */
    void attach(CompletionQueue queue) {
        queues.put(queue.handleAddress(), queue);
    }

    /** Called by a CQ after {@code ibv_destroy_cq} returned: no event can name it any more. */
    void detach(CompletionQueue queue, long address) {
        queues.remove(address, queue);
        handedOver.remove(queue);
        CompletionFutures attached = futures;
        if (attached != null) {
            attached.queueClosed(queue);
        }
        watch.wakeWaiters(); // a thread waiting for this CQ's event sees it closed
    }

    /** {@code ibv_destroy_comp_channel}; every CQ using the channel is already closed. */
    @Override
    protected void destroy() {
        CompletionFutures attached = futures;
        if (attached != null) {
            attached.channelClosed();
        }
        watch.close(); // before the fd goes: parked waiters look again and find the channel closed
        // Returns the errno itself (EBUSY while a CQ still uses the channel).
        NativeCalls.destroy("ibv_destroy_comp_channel", IbverbsCalls::ibv_destroy_comp_channel, handleSegment());
    }

    @Override
    protected String describe() {
        return "fd=" + fd;
    }
}
