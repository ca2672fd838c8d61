package dev.panamaverbs.benchmarks.poller;

import dev.panamaverbs.gateway.Epoll;
import java.lang.foreign.Arena;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandleProxies;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The library's own event wait ({@code dev.panamaverbs.internal.EventFiles.awaitUntil} with an
 * {@code FdWatch}, what a completion channel's {@code awaitEvent} runs) on one eventfd, with the
 * completion channel's back-off. The package is not exported, so it is reached by reflection: the
 * benchmarks jar runs on the class path. Whether it parks on the shared poller or backs off is the
 * library's choice: the system property {@code panamaverbs.poller} ({@code false} opts out), read
 * at each wait. One waiting thread per instance.
 */
final class EventFileWait {
    /** {@code CompletionChannel}'s back-off: 50 ms slices, 8 yields, parks from 10 us doubling to 1 ms. */
    private static final Object BACKOFF;
    private static final MethodHandle AWAIT_UNTIL;
    private static final MethodHandle NEW_WATCH;
    private static final Class<?> ATTEMPT;
    private static final long FOREVER_NANOS = Long.MAX_VALUE / 4;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Class<?> eventFiles = Class.forName("dev.panamaverbs.internal.EventFiles");
            Class<?> backoff = Class.forName("dev.panamaverbs.internal.EventFiles$Backoff");
            Class<?> watch = Class.forName("dev.panamaverbs.internal.FdWatch");
            ATTEMPT = Class.forName("dev.panamaverbs.internal.EventFiles$Attempt");
            BACKOFF = lookup.findConstructor(backoff, MethodType.methodType(void.class, int.class, int.class, long.class,
                    long.class)).invoke(50, 8, 10_000L, 1_000_000L);
            NEW_WATCH = lookup.findConstructor(watch, MethodType.methodType(void.class, int.class, String.class));
            AWAIT_UNTIL = lookup.findStatic(eventFiles, "awaitUntil", MethodType.methodType(Object.class, long.class,
                    String.class, Object.class, backoff, watch, ATTEMPT));
        } catch (Throwable t) {
            throw new ExceptionInInitializerError(t);
        }
    }

    private final int fd;
    private final Object watch;
    private final Object attempt;
    private final Epoll.EventFdState readState;

    EventFileWait(int fd, Arena arena) {
        this.fd = fd;
        this.readState = Epoll.allocateEventFdState(arena);
        try {
            this.watch = NEW_WATCH.invoke(fd, "bench eventfd " + fd);
            MethodHandle tryOnce = MethodHandles.lookup().findVirtual(EventFileWait.class, "tryOnce",
                    MethodType.methodType(Object.class, int.class)).bindTo(this);
            this.attempt = MethodHandleProxies.asInterfaceInstance(ATTEMPT, tryOnce);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** One attempt: reads the eventfd (non-blocking; the wait polls or parks between attempts). */
    private Object tryOnce(int pollMillis) {
        long count = Epoll.eventFdRead(readState, fd);
        return count > 0 ? Long.valueOf(count) : null;
    }

    /** Waits until the eventfd is written, and reads it. */
    void await() throws InterruptedException {
        try {
            Object event = AWAIT_UNTIL.invoke(System.nanoTime() + FOREVER_NANOS, "read", "bench eventfd", BACKOFF, watch,
                    attempt);
            if (event == null) {
                throw new IllegalStateException("the wait timed out");
            }
        } catch (InterruptedException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Deregisters the fd from the poller (if it was registered). */
    void close() {
        try {
            watch.getClass().getMethod("close").invoke(watch);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
