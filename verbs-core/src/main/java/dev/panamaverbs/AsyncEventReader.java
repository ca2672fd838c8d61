package dev.panamaverbs;

import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.internal.Deadline;
import dev.panamaverbs.internal.EventFiles;
import dev.panamaverbs.internal.FdWatch;
import dev.panamaverbs.events.PollerClosedException;
import dev.panamaverbs.gateway.Pointers;
import dev.panamaverbs.ffm.ibv_async_event;
import dev.panamaverbs.ffm.ibv_qp;
import dev.panamaverbs.ffm.ibv_wq;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.IbverbsCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * Reads a context's asynchronous events ({@code ibv_get_async_event}) without ever blocking in
 * native code: the async fd is made non-blocking on first use, readers park on the shared
 * {@link dev.panamaverbs.events.Poller} until it is readable (or, opted out, readiness is asked
 * with {@code poll(2)}: timeout 0 on virtual threads, which then park in Java with a backoff;
 * short slices on platform threads), and each event is copied and acknowledged
 * ({@code ibv_ack_async_event}) at once, before anyone can destroy the object it names.
 *
 * <p>Also runs the optional listener: one daemon virtual thread per context, stopped when the
 * listener is removed or the context closes.
 */
final class AsyncEventReader {
    private static final Logger LOG = LoggerFactory.getLogger(AsyncEventReader.class);

    /** 50 ms poll slices on platform threads; on virtual threads parks from 20 µs doubling up to 5 ms. */
    static final EventFiles.Backoff BACKOFF = new EventFiles.Backoff(50, 0, 20_000, 5_000_000);
    /** How long closing the context waits for the listener thread to finish its current callback. */
    private static final long LISTENER_JOIN_MILLIS = 2_000;


    /** The context whose events these are: held around each read, its tree searched for the named object. */
    private final VerbsResource context;
    private final String deviceName;
    private final EventFactory events;
    private final int fd;
    private volatile boolean nonBlocking;
    /** The async fd on the shared poller; closed by {@link #stop()}, before the context closes the fd. */
    private final FdWatch watch;
    private Thread listenerThread;
    private volatile Consumer<? super AsyncEvent> listener;

    /**
     * Wraps a copied event for the user; the context supplies it, since the event names its
     * context and the reader needs no more of it than a resource.
     */
    @FunctionalInterface
    interface EventFactory {
        AsyncEvent of(int typeValue, int number, VerbsResource resource);
    }

    AsyncEventReader(VerbsResource context, String deviceName, int fd, EventFactory events) {
        this.context = context;
        this.deviceName = deviceName;
        this.events = events;
        this.fd = fd;
        this.watch = new FdWatch(fd, "async event fd " + fd);
    }

    /** The next event before {@code deadline} ({@link Deadline}), or null. Called by the user and by the listener thread. */
    AsyncEvent awaitUntil(long deadline) throws InterruptedException {
        ensureNonBlocking();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pollState = EventFiles.allocatePollState(arena);
            MemorySegment event = arena.allocate(ibv_async_event.LAYOUT);
            MemorySegment callState = CallState.allocate(arena);
            return EventFiles.awaitUntil(deadline, "ibv_get_async_event", context, BACKOFF, watch,
                    pollMillis -> tryRead(pollState, event, callState, pollMillis));
        }
    }

    private void ensureNonBlocking() {
        if (!nonBlocking) {
            context.acquire();
            try {
                EventFiles.setNonBlocking(fd);
                nonBlocking = true;
            } finally {
                context.release();
            }
        }
    }

    /**
     * One attempt: is the fd readable (within {@code pollMillis})? If so, take one event, copy it,
     * find the Java object it names, and acknowledge it. Null when there was nothing (EAGAIN: none
     * yet, or another reader took it).
     */
    private AsyncEvent tryRead(MemorySegment pollState, MemorySegment event, MemorySegment callState, int pollMillis) {
        context.acquire();
        try {
            if (!EventFiles.pollReadable(pollState, fd, pollMillis)) {
                return null;
            }
            int rc = IbverbsCalls.ibv_get_async_event(callState, context.handleSegment(), event);
            if (rc != 0) {
                int errno = CallState.errno(callState);
                if (errno == Errno.EAGAIN || errno == Errno.EINTR) {
                    return null;
                }
                throw NativeCalls.failure("ibv_get_async_event", errno);
            }
            AsyncEvent copied;
            try {
                copied = copy(event);
            } finally {
                // Always acknowledge, even if copying failed: ibv_destroy_qp/cq/srq wait for it.
                IbverbsCalls.ibv_ack_async_event(callState, event);
            }
            copied.record();
            return copied;
        } finally {
            context.release();
        }
    }

    /** Copies the event's fields while its element is still alive (it is, until acknowledged). */
    private AsyncEvent copy(MemorySegment event) {
        int typeValue = ibv_async_event.event_type(event);
        MemorySegment element = ibv_async_event.element(event);
        AsyncEvent.Element kind = AsyncEvent.elementOf(typeValue);
        return switch (kind) {
            case PORT -> events.of(typeValue, element.get(JAVA_INT, 0), null);
            case QUEUE_PAIR -> {
                MemorySegment qp = element.get(ADDRESS, 0);
                int qpn = qp.equals(MemorySegment.NULL) ? 0 : ibv_qp.qp_num(Pointers.sized(qp, ibv_qp.SIZE));
                yield events.of(typeValue, qpn, findResource(qp.address()));
            }
            case WORK_QUEUE -> {
                MemorySegment wq = element.get(ADDRESS, 0);
                int wqn = wq.equals(MemorySegment.NULL) ? 0 : ibv_wq.wq_num(Pointers.sized(wq, ibv_wq.SIZE));
                yield events.of(typeValue, wqn, findResource(wq.address()));
            }
            case COMPLETION_QUEUE, SHARED_RECEIVE_QUEUE ->
                    events.of(typeValue, 0, findResource(element.get(ADDRESS, 0).address()));
            case DEVICE -> events.of(typeValue, 0, null);
        };
    }

    /**
     * The live resource of this context's tree whose native object is at {@code address}, or null.
     * A walk, not a map: events are rare, and the tree already knows every live object.
     */
    private VerbsResource findResource(long address) {
        if (address == 0) {
            return null;
        }
        ArrayDeque<VerbsResource> pending = new ArrayDeque<>(context.liveDependents());
        Set<VerbsResource> seen = new HashSet<>();
        while (!pending.isEmpty()) {
            VerbsResource resource = pending.poll();
            if (!seen.add(resource)) {
                continue; // a QP is a dependent of its PD, its CQs and its SRQ
            }
            if (resource.handleSegment().address() == address) {
                return resource;
            }
            pending.addAll(resource.liveDependents());
        }
        return null;
    }

    /**
     * Installs {@code newListener} (null removes it). The first listener starts the delivery
     * thread; removing the listener stops it. Events are delivered on that thread, one at a time.
     */
    void setListener(Consumer<? super AsyncEvent> newListener) {
        Thread stopping = null;
        synchronized (this) {
            listener = newListener;
            if (newListener != null && listenerThread == null) {
                ensureNonBlocking();
                listenerThread = Thread.ofVirtual()
                        .name("panamaverbs-async-events-" + deviceName)
                        .unstarted(this::deliverUntilStopped);
                listenerThread.start();
            } else if (newListener == null && listenerThread != null) {
                stopping = listenerThread;
                listenerThread = null;
            }
        }
        if (stopping != null) {
            // Outside the lock: the thread takes it to see that it was stopped.
            stopping.interrupt();
            joinUnlessSelf(stopping);
        }
    }

    /** Whether a listener is installed (then {@code pollAsyncEvent} would race it for events). */
    boolean hasListener() {
        return listener != null;
    }

    /** Stops the listener thread; called by the context's destroy before {@code ibv_close_device}. */
    void stop() {
        Thread stopping;
        synchronized (this) {
            listener = null;
            stopping = listenerThread;
            listenerThread = null;
        }
        if (stopping != null) {
            stopping.interrupt();
            joinUnlessSelf(stopping);
        }
        watch.close();
    }

    private static void joinUnlessSelf(Thread thread) {
        if (thread == Thread.currentThread()) {
            return; // the listener itself closed the context or removed itself: it ends on return
        }
        try {
            if (!thread.join(Duration.ofMillis(LISTENER_JOIN_MILLIS))) {
                // Still inside the user's callback; it touches no native state of ours, and its next
                // read fails the context's acquire(), so the device can be closed regardless.
                LOG.warn("async event listener {} did not return within {} ms", thread.getName(), LISTENER_JOIN_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void deliverUntilStopped() {
        Thread self = Thread.currentThread();
        while (true) {
            synchronized (this) {
                if (listenerThread != self) {
                    return;
                }
            }
            AsyncEvent event;
            try {
                event = awaitUntil(Deadline.after(TimeUnit.MILLISECONDS.toNanos(BACKOFF.sliceMillis() * 4L)));
            } catch (InterruptedException | PollerClosedException e) {
                continue; // re-check whether we were stopped (a closed shared poller restarts at the next wait)
            } catch (IllegalStateException closed) {
                return; // the context is closing
            } catch (RuntimeException e) {
                LOG.warn("reading async events of {} failed; listener stops", context, e);
                return;
            }
            Consumer<? super AsyncEvent> current = listener;
            if (event != null && current != null) {
                try {
                    current.accept(event);
                } catch (RuntimeException e) {
                    LOG.warn("async event listener threw on {}", event, e);
                }
            }
        }
    }

    /** For diagnostics: the fd events are read from. */
    int fd() {
        return fd;
    }

    @Override
    public String toString() {
        return "AsyncEventReader[" + Objects.toString(context) + ", fd=" + fd + "]";
    }
}
