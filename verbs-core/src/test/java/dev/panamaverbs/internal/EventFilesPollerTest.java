package dev.panamaverbs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.events.Poller;
import dev.panamaverbs.events.PollerClosedException;
import dev.panamaverbs.gateway.Epoll;
import dev.panamaverbs.gateway.Libc;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link EventFiles#awaitUntil} with an {@link FdWatch} on the shared poller (how the channels
 * wait): a write wakes the waiter, a deadline still bounds the wait, the opt-out property keeps the
 * old fd polling, a {@link FdWatch#wakeWaiters()} makes the waiter look again, and closing the
 * shared poller ends the wait with a {@link PollerClosedException}.
 */
class EventFilesPollerTest {
    private static final EventFiles.Backoff BACKOFF = new EventFiles.Backoff(50, 4, 10_000, 1_000_000);
    private static final long BOUND_SECONDS = 30;

    private int fd;
    private FdWatch watch;
    /** How often the wait has looked at the fd. */
    private final AtomicInteger attempts = new AtomicInteger();
    /** Set to 1 to stand for an event handed over to the waiter (it then answers -1). */
    private final AtomicInteger handedOver = new AtomicInteger();

    @BeforeEach
    void open() {
        fd = Epoll.eventFd();
        assertTrue(fd >= 0);
        watch = new FdWatch(fd, "test eventfd");
    }

    @AfterEach
    void close() {
        watch.close();
        Libc.close(fd);
        System.clearProperty(Poller.ENABLED_PROPERTY);
    }

    /** Waits until {@code deadline} for the eventfd's counter (or {@code handedOver}), counting attempts. */
    private Long await(long deadline) throws InterruptedException {
        return EventFiles.awaitUntil(deadline, "test_wait", "test eventfd", BACKOFF, watch, pollMillis -> {
            attempts.incrementAndGet();
            if (handedOver.getAndSet(0) > 0) {
                return -1L;
            }
            long value = Epoll.eventFdRead(fd);
            return value > 0 ? value : null;
        });
    }

    /** Waits (a day at most) on a virtual or platform thread. */
    private CompletableFuture<Long> awaitOn(boolean virtual) {
        return TestThreads.start(virtual, () -> await(Deadline.after(TimeUnit.DAYS.toNanos(1))));
    }

    @ParameterizedTest(name = "poller on: {0}")
    @ValueSource(booleans = {true, false})
    void aWriteWakesTheWaiterAndADeadlineStillBoundsIt(boolean pollerOn) throws Exception {
        System.setProperty(Poller.ENABLED_PROPERTY, Boolean.toString(pollerOn));
        CompletableFuture<Long> woken = awaitOn(true);
        Thread.sleep(50); // usually parked by now; either way the write must be seen
        assertEquals(0, Epoll.eventFdWrite(fd, 5));
        assertEquals(5L, woken.get(BOUND_SECONDS, TimeUnit.SECONDS));
        assertEquals(pollerOn, watch.registered() != null, "registered on the shared poller only when on");

        long started = System.nanoTime();
        assertNull(TestThreads.start(false, () -> await(Deadline.start("test_wait", Duration.ofMillis(300))))
                .get(BOUND_SECONDS, TimeUnit.SECONDS));
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertTrue(tookMillis >= 290 && tookMillis < 5_000, "300 ms deadline took " + tookMillis + " ms");
        attempts.set(0);
        assertNull(await(Deadline.start("test_wait", Duration.ZERO)));
        assertEquals(1, attempts.get(), "zero: one check");
    }

    @ParameterizedTest(name = "virtual thread: {0}")
    @ValueSource(booleans = {true, false})
    void wakeWaitersMakesTheWaiterLookAgain(boolean virtual) throws Exception {
        CompletableFuture<Long> woken = awaitOn(virtual);
        Thread.sleep(50);
        handedOver.set(1);
        watch.wakeWaiters();
        assertEquals(-1L, woken.get(BOUND_SECONDS, TimeUnit.SECONDS));
    }

    @ParameterizedTest(name = "virtual thread: {0}")
    @ValueSource(booleans = {true, false})
    void closingTheSharedPollerEndsTheWait(boolean virtual) throws Exception {
        CompletableFuture<Long> waiting = awaitOn(virtual);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        while (watch.registered() == null) {
            assertTrue(System.nanoTime() < end);
            Thread.sleep(1);
        }
        Thread.sleep(50);
        Poller.shared().orElseThrow().close();
        ExecutionException e = assertThrows(ExecutionException.class, () -> waiting.get(BOUND_SECONDS, TimeUnit.SECONDS));
        PollerClosedException closed = assertInstanceOf(PollerClosedException.class, e.getCause());
        assertTrue(closed.getMessage().contains("panamaverbs-poller"), closed.getMessage());
        // The next wait registers on a new shared poller.
        assertEquals(0, Epoll.eventFdWrite(fd, 2));
        assertEquals(2L, await(Deadline.after(TimeUnit.DAYS.toNanos(1))));
    }
}
