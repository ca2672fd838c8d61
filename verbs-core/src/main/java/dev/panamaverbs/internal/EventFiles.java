package dev.panamaverbs.internal;

import dev.panamaverbs.VerbsException;
import dev.panamaverbs.events.PollSource;
import dev.panamaverbs.events.PollerClosedException;
import dev.panamaverbs.gateway.Libc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;

/**
 * The file descriptors libibverbs hands out (a completion channel's, a context's async fd), made
 * non-blocking and polled with a timeout, so that waits park in Java and can be interrupted or
 * closed instead of blocking a thread in C. Failures become {@link VerbsException}s naming the fd.
 */
public final class EventFiles {
    private EventFiles() {}

    /** Adds {@code O_NONBLOCK} to {@code fd}'s status flags ({@code fcntl F_GETFL/F_SETFL}). */
    public static void setNonBlocking(int fd) {
        int errno = Libc.setNonBlocking(fd);
        if (errno != 0) {
            throw new VerbsException("fcntl", errno, "fd " + fd);
        }
    }

    /** True when {@code O_NONBLOCK} is set on {@code fd}. */
    public static boolean isNonBlocking(int fd) {
        int flags = Libc.statusFlags(fd);
        if (flags < 0) {
            throw new VerbsException("fcntl(F_GETFL)", -flags, "fd " + fd);
        }
        return (flags & Libc.O_NONBLOCK) != 0;
    }

    /** Room for one {@link #pollReadable} call at a time; reusable by one thread. */
    public static MemorySegment allocatePollState(Arena arena) {
        return Libc.allocatePollState(arena);
    }

    /** {@code poll(fd, POLLIN, timeoutMillis)}: true when readable; false on timeout or EINTR. */
    public static boolean pollReadable(MemorySegment pollState, int fd, int timeoutMillis) {
        int rc = Libc.pollReadable(pollState, fd, timeoutMillis);
        if (rc < 0) {
            throw new VerbsException("poll", -rc, "fd " + fd);
        }
        return rc > 0;
    }

    /**
     * How {@link #awaitUntil} waits between attempts: a platform thread polls in slices of at most
     * {@code sliceMillis}; a virtual thread polls with timeout 0, yields {@code yieldRounds} times,
     * then parks from {@code firstParkNanos}, doubling up to {@code maxParkNanos}.
     */
    public record Backoff(int sliceMillis, int yieldRounds, long firstParkNanos, long maxParkNanos) {}

    /** One attempt of {@link #awaitUntil}: poll the fd for up to {@code pollMillis} and take an event, or null. */
    public interface Attempt<T> {
        T tryOnce(int pollMillis);
    }

    /**
     * The wait loop the event readers share: attempts until one returns an event or
     * {@code deadline} ({@link Deadline}) has passed. It always attempts once, so a deadline
     * already over (a zero timeout) is one non-blocking check.
     *
     * <p>While {@code watch} has a source on the shared poller, every attempt is non-blocking and
     * the thread (virtual or platform) parks on the poller between attempts: it is unparked when
     * the fd becomes readable or someone calls {@link FdWatch#wakeWaiters()}; the count of reports
     * is read before each attempt, so nothing that happens after the attempt looked is missed.
     * Otherwise (poller opted out) it waits between attempts as {@code backoff} says.
     *
     * @return the event, or null on timeout
     * @throws InterruptedException naming {@code verb} and {@code waitedOn}, when interrupted
     * @throws PollerClosedException when the shared poller was closed while waiting (the watch
     *         closing, when its owner closes, ends the wait by the attempt's own closed check)
     */
    public static <T> T awaitUntil(long deadline, String verb, Object waitedOn, Backoff backoff, FdWatch watch,
                                   Attempt<T> attempt) throws InterruptedException {
        boolean virtual = Thread.currentThread().isVirtual();
        long park = 0;
        int round = 0;
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException(verb + ": interrupted while waiting on " + waitedOn);
            }
            PollSource source = watch == null ? null : watch.source();
            if (source != null) {
                long seen = source.reports();
                T event = attempt.tryOnce(0);
                if (event != null) {
                    return event;
                }
                if (Deadline.expired(deadline)) {
                    return null;
                }
                try {
                    source.awaitReadableSince(seen, deadline);
                } catch (InterruptedException e) {
                    throw new InterruptedException(verb + ": interrupted while waiting on " + waitedOn);
                } catch (PollerClosedException closed) {
                    T last = attempt.tryOnce(0); // the owner closing shows here, as its own closed exception
                    if (last != null) {
                        return last;
                    }
                    if (source.poller().isClosed()) {
                        throw closed;
                    }
                    // Only the watch closed (its owner is stopping): go on without the poller.
                }
                continue;
            }
            T event = attempt.tryOnce(virtual ? 0 : Deadline.pollMillis(deadline, backoff.sliceMillis()));
            if (event != null) {
                return event;
            }
            long remaining = Deadline.remainingNanos(deadline);
            if (remaining == 0) {
                return null;
            }
            if (virtual) {
                if (round < backoff.yieldRounds()) {
                    round++;
                    Thread.yield();
                } else {
                    park = park == 0 ? backoff.firstParkNanos() : Math.min(backoff.maxParkNanos(), park * 2);
                    LockSupport.parkNanos(Math.min(park, remaining));
                }
            }
        }
    }
}
