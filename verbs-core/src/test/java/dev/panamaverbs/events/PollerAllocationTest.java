package dev.panamaverbs.events;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.gateway.EventFd;
import dev.panamaverbs.internal.Deadline;
import java.lang.foreign.Arena;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The poller's wake-up, arm and dispatch path allocates nothing once warm, on an eventfd (what a
 * completion channel's fd is to the poller): per cycle, one thread writes the eventfd, the poller
 * thread takes the report and dispatches it (unparks a waiter, or runs a handler and re-arms the
 * fd with {@code EPOLL_CTL_MOD}), and the waiter reads the eventfd and arms again. Counted as the
 * allocated bytes of the poller thread and the waiter ({@code com.sun.management.ThreadMXBean}), in
 * the style of {@code PostPathAllocationTest}: less than one byte per cycle (C2's one-off compile
 * requests, see that test); exactly 0 was measured. Like that test it runs in the ordinary fork and
 * again under {@code -Xint} and C1 only (verbs-core's pom), with real downcalls ({@code epoll_wait},
 * {@code epoll_ctl}, {@code read}): the JDK's errno capture costs 40 B per call there (it slices the
 * capture segment), so {@code Epoll} makes these calls without it and repeats only a failed one with
 * it. The waiter's one read per cycle that finds the count 0 is such a failed call: its bound is that
 * read's own cost, measured on the same JVM ({@link #bytesPerEmptyRead}). The waiter is a platform
 * thread, or a virtual one: unparking a virtual thread from the poller (a platform thread) hands its
 * continuation to the JDK's scheduler, whose {@code ForkJoinPool.execute} wraps it in a task (32 B on
 * JDK 25), which is the JDK's; the test measures it in the same JVM and counts the poller thread's
 * bytes beyond it, and the virtual waiter's as its carrier threads' bytes (in the JIT fork only:
 * below C2 the JDK's own park and unmount code allocates on the carriers too). The writing thread
 * (this test's own loop) is not counted.
 */
class PollerAllocationTest {
    private static final int WARM_UP = 20_000;
    private static final int CYCLES = 5_000;
    /** Rounds of {@link #CYCLES} counted cycles before the test gives up on the path getting warm. */
    private static final int ROUNDS = 10;
    private static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private Poller poller;
    private Arena arena;
    private EventFd eventFd;
    private PollSource source;
    /** Cycles the consumer (handler or waiter) has completed. */
    private final AtomicLong consumed = new AtomicLong();
    private final AtomicReference<Thread> pollerThread = new AtomicReference<>();

    @BeforeAll
    static void meter() {
        assertTrue(THREADS.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        THREADS.setThreadAllocatedMemoryEnabled(true);
    }

    @BeforeEach
    void start() {
        poller = Poller.start("allocation-test-poller");
        arena = Arena.ofShared();
        eventFd = EventFd.open(arena);
        source = poller.register(eventFd.fd(), "allocation test eventfd");
    }

    @AfterEach
    void stop() {
        poller.close();
        eventFd.close();
        arena.close();
    }

    @Test
    void aHandlerCycleAllocatesNothing() {
        source.setHandler(() -> {
            pollerThread.compareAndSet(null, Thread.currentThread());
            if (eventFd.read() > 0) {
                consumed.incrementAndGet();
            }
        });
        Thread polling = pollerThreadOnceKnown();
        long[] bytes = cycles(() -> allocated(polling), () -> 0, 0);
        assertNothingAllocated("the poller thread (dispatch, handler, EPOLL_CTL_MOD re-arm)", bytes[0]);
    }

    @Test
    void aWaiterCycleAllocatesNothing() throws Exception {
        Thread waiter = Thread.ofPlatform().daemon().name("allocation-test-waiter").start(this::waitForEver);
        Thread polling = pollerThread();
        long[] bytes = cycles(() -> allocated(polling), () -> allocated(waiter), 0);
        assertNothingAllocated("the poller thread (dispatch, unpark)", bytes[0]);
        assertNothingBeyondTheEmptyRead("the waiting thread (read, arm with EPOLL_CTL_MOD, park)", bytes[1]);
        poller.close();
        waiter.join(TimeUnit.NANOSECONDS.toMillis(BOUND_NANOS));
    }

    /**
     * What one {@code read} of an empty eventfd allocates on this thread once warm: the JDK's errno
     * capture of the failed call (a 40-byte segment under {@code -Xint} and C1, nothing once C2 compiled
     * the caller). The waiter's cycle has one such read (it reads until the count is 0, then parks); the
     * poller thread's dispatch has none.
     */
    private void assertNothingBeyondTheEmptyRead(String what, long bytes) {
        long capture = bytesPerEmptyRead();
        assertTrue(bytes < (capture + 1) * CYCLES, what + " allocated " + bytes + " B over " + CYCLES
                + " cycles, beyond the " + capture + " B per cycle of its read that finds nothing");
    }

    private long bytesPerEmptyRead() {
        try (EventFd empty = EventFd.open(arena)) {
            for (int i = 0; i < WARM_UP; i++) {
                empty.read();
            }
            long id = Thread.currentThread().threadId();
            long before = THREADS.getThreadAllocatedBytes(id);
            for (int i = 0; i < CYCLES; i++) {
                empty.read();
            }
            return (THREADS.getThreadAllocatedBytes(id) - before) / CYCLES;
        }
    }

    /**
     * A virtual waiter without a deadline: its carriers allocate nothing (a timed park would
     * schedule a timer task at every park), and the poller thread nothing beyond the JDK's task
     * per unpark.
     */
    @Test
    void aVirtualWaiterCycleAllocatesNothingOfOurs() throws Exception {
        long perUnpark = jdkBytesPerVirtualUnpark();
        Thread waiter = Thread.ofVirtual().name("allocation-test-virtual-waiter").start(this::waitForEver);
        Thread polling = pollerThread();
        long[] bytes = cycles(() -> allocated(polling), PollerAllocationTest::carrierBytes, perUnpark);
        assertNothingAllocated("the poller thread (dispatch, unpark) beyond the JDK's " + perUnpark + " B per unpark",
                bytes[0] - perUnpark * CYCLES);
        assertNothingBeyondTheEmptyRead("the virtual waiter's carriers (read, arm with EPOLL_CTL_MOD, park)", bytes[1]);
        poller.close();
        waiter.join(TimeUnit.NANOSECONDS.toMillis(BOUND_NANOS));
    }

    /** The waiter's loop: read the eventfd, else park on the source for ever, until the poller closes. */
    private void waitForEver() {
        try {
            while (!source.isClosed()) {
                long seen = source.reports();
                if (eventFd.read() > 0) {
                    consumed.incrementAndGet();
                    continue;
                }
                source.awaitReadableSince(seen, Deadline.after(Deadline.FOREVER_NANOS));
            }
        } catch (PollerClosedException | InterruptedException end) {
            // the test is over
        }
    }

    /** The poller thread is the one daemon thread named after the poller. */
    private static Thread pollerThread() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("allocation-test-poller")).findFirst().orElseThrow();
    }

    private static long allocated(Thread thread) {
        return THREADS.getThreadAllocatedBytes(thread.threadId());
    }

    /** The bytes the default scheduler's carrier threads allocated (a virtual thread's are its carrier's). */
    private static long carrierBytes() {
        long bytes = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getClass().getName().equals("jdk.internal.misc.CarrierThread")) {
                bytes += allocated(thread);
            }
        }
        return bytes;
    }

    /**
     * What this (platform) thread allocates to unpark a parked virtual thread, the least of a few
     * rounds once warm: the JDK's, as the poller's unpark is.
     */
    private static long jdkBytesPerVirtualUnpark() throws InterruptedException {
        AtomicLong woken = new AtomicLong();
        Thread parker = Thread.ofVirtual().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                LockSupport.park();
                woken.incrementAndGet();
            }
        });
        long least = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            long before = allocated(Thread.currentThread());
            for (int i = 0; i < CYCLES; i++) {
                long turn = woken.get();
                while (parker.getState() != Thread.State.WAITING) {
                    Thread.onSpinWait(); // not parked yet: an unpark now would only leave a permit
                }
                LockSupport.unpark(parker);
                while (woken.get() == turn) {
                    Thread.onSpinWait();
                }
            }
            least = Math.min(least, allocated(Thread.currentThread()) - before);
        }
        parker.interrupt();
        parker.join(TimeUnit.NANOSECONDS.toMillis(BOUND_NANOS));
        return (least + CYCLES - 1) / CYCLES;
    }

    /** Runs the handler test's first cycle, so that the poller thread is known. */
    private Thread pollerThreadOnceKnown() {
        cycle(0);
        return pollerThread.get();
    }

    /**
     * Warm-up, then rounds of counted cycles until one allocates less than a byte per cycle on both
     * threads, beyond {@code pollerAllowance} bytes per cycle on the poller thread (at most
     * {@link #ROUNDS}): the bytes of the poller thread and the waiter in the last round. More than one round is needed only on a host so loaded that C2 has not compiled
     * the path by the end of the warm-up (until then each downcall allocates, see above).
     */
    private long[] cycles(LongSupplier polling, LongSupplier waiter, long pollerAllowance) {
        long start = consumed.get();
        for (int i = 0; i < WARM_UP; i++) {
            cycle(start + i);
        }
        long[] bytes = null;
        for (int round = 0; round < ROUNDS
                && (bytes == null || bytes[0] - pollerAllowance * CYCLES >= CYCLES || bytes[1] >= CYCLES); round++) {
            bytes = round(polling, waiter);
        }
        return bytes;
    }

    /** One round of counted cycles: the bytes of the poller thread and the waiter. */
    private long[] round(LongSupplier polling, LongSupplier waiter) {
        long start = consumed.get();
        long pollerBefore = polling.getAsLong();
        long waiterBefore = waiter.getAsLong();
        for (int i = 0; i < CYCLES; i++) {
            cycle(start + i);
        }
        return new long[] {polling.getAsLong() - pollerBefore, waiter.getAsLong() - waiterBefore};
    }

    /** One wake-up: write the eventfd, spin until the consumer took it (a hang fails after a minute). */
    private void cycle(long before) {
        assertZero(eventFd.write(1));
        long end = System.nanoTime() + BOUND_NANOS;
        while (consumed.get() == before) {
            if (System.nanoTime() > end) {
                throw new AssertionError("the wake-up after cycle " + before + " never came");
            }
            Thread.onSpinWait();
        }
    }

    private static void assertZero(int rc) {
        if (rc != 0) {
            throw new AssertionError("eventfd write: " + rc);
        }
    }

    private static void assertNothingAllocated(String what, long bytes) {
        assertTrue(bytes < CYCLES, what + " allocated " + bytes + " B over " + CYCLES + " cycles");
    }
}
