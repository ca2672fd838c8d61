package dev.panamaverbs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fd wait every event reader shares ({@link EventFiles#awaitUntil}: completion channels, async
 * events), driven through a real fd (a named pipe) on platform and virtual threads: zero checks
 * once, a deadline bounds the whole wait, a huge timeout waits until something happens.
 */
class EventFilesDeadlineTest {
    private static final EventFiles.Backoff BACKOFF = new EventFiles.Backoff(50, 4, 10_000, 1_000_000);
    /** Generous: a 500 ms deadline must end well before this, however loaded the machine. */
    private static final long BOUND_MILLIS = 3_000;

    /** The fd every test waits on. */
    private TestFifo fifo;
    /** How often the wait has looked at the fd. */
    private final AtomicInteger attempts = new AtomicInteger();

    @BeforeEach
    void createFifo() throws Exception {
        fifo = TestFifo.create();
    }

    @AfterEach
    void closeFifo() throws Exception {
        fifo.close();
    }

    /** Waits on {@link #fifo} until {@code deadline}, counting attempts; true once it was readable. */
    private Boolean await(long deadline) throws InterruptedException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pollState = EventFiles.allocatePollState(arena);
            return EventFiles.awaitUntil(deadline, "test_wait", fifo, BACKOFF, null, pollMillis -> {
                attempts.incrementAndGet();
                return EventFiles.pollReadable(pollState, fifo.fd(), pollMillis) ? Boolean.TRUE : null;
            });
        }
    }

    /** Waits {@code timeout} from now on a virtual or platform thread. */
    private Boolean awaitOn(boolean virtual, Duration timeout) throws Exception {
        return TestThreads.start(virtual, () -> await(Deadline.start("test_wait", timeout))).get(30, TimeUnit.SECONDS);
    }

    @ParameterizedTest(name = "virtual thread: {0}")
    @ValueSource(booleans = {false, true})
    void zeroChecksOnceWithoutBlocking(boolean virtual) throws Exception {
        long started = System.nanoTime();
        assertNull(awaitOn(virtual, Duration.ZERO));
        assertEquals(1, attempts.get(), "one check");
        assertTrue(System.nanoTime() - started < TimeUnit.MILLISECONDS.toNanos(BOUND_MILLIS));
        fifo.makeReadable();
        attempts.set(0);
        assertEquals(Boolean.TRUE, awaitOn(virtual, Duration.ZERO), "zero answers what is ready now");
        assertEquals(1, attempts.get());
    }

    @ParameterizedTest(name = "virtual thread: {0}")
    @ValueSource(booleans = {false, true})
    void aDeadlineBoundsTheWholeWait(boolean virtual) throws Exception {
        long started = System.nanoTime();
        assertNull(awaitOn(virtual, Duration.ofMillis(500)));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertTrue(millis >= 500 && millis < BOUND_MILLIS, "ended at the deadline: " + millis + " ms");
    }

    @ParameterizedTest(name = "virtual thread: {0}")
    @ValueSource(booleans = {false, true})
    void aHugeTimeoutWaitsUntilTheFdIsReadable(boolean virtual) throws Exception {
        CompletableFuture<Boolean> waiting = TestThreads.start(virtual, () -> await(Deadline.start("test_wait", Duration.ofSeconds(Long.MAX_VALUE))));
        assertThrows(TimeoutException.class, () -> waiting.get(400, TimeUnit.MILLISECONDS), "still waiting");
        fifo.makeReadable();
        assertEquals(Boolean.TRUE, waiting.get(BOUND_MILLIS, TimeUnit.MILLISECONDS));
    }

    @Test
    void anInterruptEndsAWaitForEverNamingTheVerb() throws Exception {
        CompletableFuture<Throwable> ended = new CompletableFuture<>();
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                await(Deadline.after(Deadline.FOREVER_NANOS));
                ended.complete(null);
            } catch (Throwable t) {
                ended.complete(t);
            }
        });
        Thread.sleep(200);
        assertFalse(ended.isDone());
        waiter.interrupt();
        Throwable t = ended.get(BOUND_MILLIS, TimeUnit.MILLISECONDS);
        assertTrue(t instanceof InterruptedException && t.getMessage().startsWith("test_wait: interrupted"), String.valueOf(t));
    }

    @Test
    void pollReadableSeesTheFifo() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pollState = EventFiles.allocatePollState(arena);
            assertFalse(EventFiles.pollReadable(pollState, fifo.fd(), 0));
            fifo.makeReadable();
            assertTrue(EventFiles.pollReadable(pollState, fifo.fd(), 0));
        }
    }
}
