package dev.panamaverbs.events;

import dev.panamaverbs.VerbsException;
import dev.panamaverbs.gateway.Epoll;
import dev.panamaverbs.internal.Deadline;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One fd registered on a {@link Poller}, and the three ways to be told it became readable:
 * <ul>
 *   <li>{@link #awaitReadable(Duration)}: the calling thread (virtual or platform) parks until the
 *       poller unparks it, the deadline passes, or the source or poller closes;</li>
 *   <li>{@link #nextReadable()}: a future the poller completes;</li>
 *   <li>{@link #setHandler(Runnable)}: run on the poller thread at every report.</li>
 * </ul>
 * Readiness is a hint, not an event: whoever is told must still read the fd without blocking
 * (it is non-blocking) and may find nothing, because another consumer was faster. The fd is armed
 * one-shot ({@link Poller}, "Level-triggered, one-shot") each time someone starts waiting and
 * after each handler run, so a report is never lost between a consumer's check and its wait.
 *
 * <p>Once warm, a wait, a report and a re-arm allocate nothing: the {@code struct epoll_event} and
 * errno state of {@code EPOLL_CTL_MOD} are allocated once per source (freed at close) and written
 * under the source's lock, which arming from a waiter and from the poller thread both take; the
 * waiting threads sit in an array that only grows.
 */
public final class PollSource implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PollSource.class);

    private final Poller poller;
    private final int fd;
    private final String name;
    private final long token;
    /** Guards {@link #armState} (one {@code epoll_ctl} at a time), {@link #waiters} and the arena's close. */
    private final Object lock = new Object();
    /** Owns {@link #armState}; closed with the source. */
    private final Arena arena = Arena.ofShared();
    private final Epoll.ControlState armState = Epoll.allocateControlState(arena);
    /** The parked threads, in {@code [0, waiterCount)}; grown, never shrunk, so waiting allocates nothing once warm. */
    private Thread[] waiters = new Thread[4];
    private int waiterCount;
    /**
     * Guards {@link #toWake}: {@link #wakeWaiters()} copies the waiters here under {@link #lock} and
     * unparks them after releasing it, so a woken virtual thread does not block on the lock its
     * waker still holds (a blocked virtual thread unmounts: a stack chunk and a resubmission).
     */
    private final Object wakeLock = new Object();
    private Thread[] toWake = new Thread[4];
    private final Queue<CompletableFuture<Void>> futures = new ConcurrentLinkedQueue<>();
    private volatile Runnable handler;
    /** Bumped at every report and {@link #wakeWaiters()}: a waiter returns once it changed. */
    private final AtomicLong reports = new AtomicLong();
    /** What was closed (this source or its poller), or null while open. */
    private volatile String closedBy;

    PollSource(Poller poller, int fd, String name, long token) {
        this.poller = poller;
        this.fd = fd;
        this.name = name;
        this.token = token;
    }

    /**
     * The registered file descriptor.
     *
     * @return the fd
     */
    public int fd() {
        return fd;
    }

    /** How many threads are parked on this source now (for tests and diagnostics). */
    int waiterCount() {
        synchronized (lock) {
            return waiterCount;
        }
    }

    long token() {
        return token;
    }

    /**
     * The poller this source is registered on.
     *
     * @return the poller
     */
    public Poller poller() {
        return poller;
    }

    /**
     * Parks the calling thread until the fd is reported readable (or {@link #wakeWaiters()} is
     * called), at most {@code timeout}. A zero timeout returns at once.
     *
     * @param timeout how long to wait at most (not negative; a huge one waits for ever)
     * @return true when woken by a report, false when the timeout passed
     * @throws InterruptedException if the thread is interrupted while waiting
     * @throws PollerClosedException if the source or its poller is (or gets) closed
     */
    public boolean awaitReadable(Duration timeout) throws InterruptedException {
        return awaitReadableUntil(Deadline.start("epoll_wait", timeout));
    }

    /**
     * {@link #awaitReadable(Duration)} with a deadline in {@link System#nanoTime()} terms (how the
     * library's waits keep one deadline across several steps).
     *
     * @param deadlineNanoTime the {@code System.nanoTime()} after which to give up
     * @return true when woken by a report, false when the deadline passed
     * @throws InterruptedException if the thread is interrupted while waiting
     * @throws PollerClosedException if the source or its poller is (or gets) closed
     */
    public boolean awaitReadableUntil(long deadlineNanoTime) throws InterruptedException {
        return awaitReadableSince(reports(), deadlineNanoTime);
    }

    /**
     * How many reports (and {@link #wakeWaiters()} calls) this source has seen: read it before
     * looking for work, then {@link #awaitReadableSince} it, and no wake-up that came in between
     * is lost.
     *
     * @return the count
     */
    public long reports() {
        return reports.get();
    }

    /**
     * Parks until the count of reports differs from {@code seen} (at once if it does already), the
     * deadline passes, or the source or poller closes; arms the fd first.
     *
     * @param seen what {@link #reports()} said before the caller last looked for work
     * @param deadlineNanoTime the {@code System.nanoTime()} after which to give up
     * @return true when woken by a report, false when the deadline passed
     * @throws InterruptedException if the thread is interrupted while waiting
     * @throws PollerClosedException if the source or its poller is (or gets) closed
     */
    public boolean awaitReadableSince(long seen, long deadlineNanoTime) throws InterruptedException {
        Thread self = Thread.currentThread();
        addWaiter(self);
        try {
            checkOpen();
            arm();
            while (true) {
                checkOpen();
                if (reports.get() != seen) {
                    return true;
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException("epoll_wait: interrupted while waiting on " + this);
                }
                long remaining = Deadline.remainingNanos(deadlineNanoTime);
                if (remaining == 0) {
                    return false;
                }
                if (Deadline.isEndless(remaining)) {
                    LockSupport.park(this); // a timed park of a virtual thread schedules a timer task per park
                } else {
                    LockSupport.parkNanos(this, remaining);
                }
            }
        } finally {
            removeWaiter(self);
        }
    }

    private void addWaiter(Thread waiter) {
        synchronized (lock) {
            if (waiterCount == waiters.length) {
                waiters = Arrays.copyOf(waiters, waiterCount * 2);
            }
            waiters[waiterCount++] = waiter;
        }
    }

    private void removeWaiter(Thread waiter) {
        synchronized (lock) {
            for (int i = 0; i < waiterCount; i++) {
                if (waiters[i] == waiter) {
                    waiters[i] = waiters[--waiterCount];
                    waiters[waiterCount] = null;
                    return;
                }
            }
        }
    }

    /**
     * A future completed (with null) at the next report, or exceptionally with a
     * {@link PollerClosedException} when the source or poller closes first.
     *
     * @return the future
     */
    public CompletableFuture<Void> nextReadable() {
        CompletableFuture<Void> future = new CompletableFuture<>();
        futures.add(future);
        String closedNow = closedBy;
        if (closedNow != null) {
            failFutures(closedNow);
            return future;
        }
        armOrFail();
        return future;
    }

    /**
     * Installs {@code newHandler} (null removes it), run on the poller thread at every report,
     * the fd re-armed after it returns. It must consume what made the fd readable (else it runs
     * again at once), must be short (the poller's other sources wait meanwhile; hand long work to
     * an executor) and must not block. What it throws is logged.
     *
     * @param newHandler the handler, or null
     * @throws PollerClosedException if the source or its poller is closed
     */
    public void setHandler(Runnable newHandler) {
        checkOpen();
        handler = newHandler;
        if (newHandler != null) {
            armOrFail();
        }
    }

    /**
     * Unparks every thread waiting on this source, as a report would: they return true and look
     * again. For a consumer that took events meant for another waiter, or a waiter's object that
     * closed.
     */
    public void wakeWaiters() {
        wake();
    }

    /** Counts a report and unparks every registered waiter; {@return how many} */
    private int wake() {
        reports.incrementAndGet();
        synchronized (wakeLock) {
            int count;
            synchronized (lock) {
                count = waiterCount;
                if (toWake.length < count) {
                    toWake = new Thread[waiters.length];
                }
                System.arraycopy(waiters, 0, toWake, 0, count);
            }
            // A waiter that registers after the copy saw the count change before it parks.
            for (int i = 0; i < count; i++) {
                LockSupport.unpark(toWake[i]);
                toWake[i] = null;
            }
            return count;
        }
    }

    /**
     * Called by a poller thread on a report; the fd is disarmed until someone arms it again.
     *
     * @return how many waiters, futures and handlers it woke, completed or ran
     */
    int dispatch() {
        int woken = wake();
        CompletableFuture<Void> future;
        while ((future = futures.poll()) != null) {
            future.complete(null);
            woken++;
        }
        Runnable current = handler;
        if (current != null) {
            woken++;
            try {
                current.run();
            } catch (RuntimeException | Error e) {
                LOG.warn("handler of {} threw", this, e);
            }
            if (handler != null && closedBy == null) {
                arm();
            }
        }
        return woken;
    }

    /** The source's name, for the sampled dispatch event. */
    String name() {
        return name;
    }

    private void arm() {
        int rc;
        synchronized (lock) {
            // Closed: the arena is gone; EBADF as from the kernel, and checkOpen below says why.
            rc = arena.scope().isAlive() ? poller.arm(this, armState) : -9;
        }
        if (rc != 0) {
            checkOpen(); // closed meanwhile: say so rather than EBADF
            if (poller.isClosed()) {
                throw new PollerClosedException(poller.toString()); // closing, this source not reached yet
            }
            throw new VerbsException("epoll_ctl", -rc, "EPOLL_CTL_MOD of fd " + fd + " (" + name + ")");
        }
    }

    private void armOrFail() {
        try {
            arm();
        } catch (VerbsException e) {
            CompletableFuture<Void> future;
            while ((future = futures.poll()) != null) {
                future.completeExceptionally(e);
            }
            throw e;
        }
    }

    private void checkOpen() {
        String closedNow = closedBy;
        if (closedNow != null) {
            throw new PollerClosedException(closedNow);
        }
    }

    /**
     * Whether this source (or its poller) was closed.
     *
     * @return whether closed
     */
    public boolean isClosed() {
        return closedBy != null;
    }

    /**
     * Deregisters the fd ({@code EPOLL_CTL_DEL}; the fd itself stays open, the caller's), ends
     * every wait with a {@link PollerClosedException} naming this source and fails the futures
     * with it. Idempotent.
     */
    @Override
    public void close() {
        if (closeBecause(toString())) {
            poller.deregister(this);
        }
    }

    /** Marks the source closed by {@code what}, wakes and fails everyone; false if already closed. */
    boolean closeBecause(String what) {
        synchronized (this) {
            if (closedBy != null) {
                return false;
            }
            closedBy = what;
        }
        handler = null;
        wakeWaiters();
        failFutures(what);
        synchronized (lock) {
            arena.close(); // no arm is running: they hold the lock
        }
        return true;
    }

    private void failFutures(String what) {
        CompletableFuture<Void> future;
        while ((future = futures.poll()) != null) {
            future.completeExceptionally(new PollerClosedException(what));
        }
    }

    @Override
    public String toString() {
        return "PollSource[fd=" + fd + " " + name + "]";
    }
}
