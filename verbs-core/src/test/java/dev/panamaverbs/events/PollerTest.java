package dev.panamaverbs.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.VerbsException;
import dev.panamaverbs.gateway.Epoll;
import dev.panamaverbs.gateway.Libc;
import dev.panamaverbs.internal.TestThreads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The poller on eventfds, no device: waiters on virtual and platform threads unparked by a
 * write, futures, handlers, deadlines, close of a source or of the poller while threads wait
 * (each ends with a {@link PollerClosedException}, none hangs), and many sources at once.
 */
class PollerTest {
    /** Generous bound for anything that must end "soon": a hang fails, a slow machine does not. */
    private static final long BOUND_SECONDS = 30;

    private Poller poller;
    private final List<Integer> fds = new ArrayList<>();

    @BeforeEach
    void start() {
        poller = Poller.start("test-poller");
    }

    @AfterEach
    void stop() {
        poller.close();
        fds.forEach(Libc::close);
    }

    private int eventFd() {
        int fd = Epoll.eventFd();
        assertTrue(fd >= 0, "eventfd: " + fd);
        fds.add(fd);
        return fd;
    }

    private static void signal(int fd) {
        assertEquals(0, Epoll.eventFdWrite(fd, 1));
    }

    private static <T> CompletableFuture<T> on(boolean virtual, Callable<T> body) {
        return TestThreads.start(virtual, body);
    }

    /** Waits (generously) until {@code count} threads are parked on {@code source}. */
    private static void awaitWaiters(PollSource source, int count) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        while (source.waiterCount() < count) {
            assertTrue(System.nanoTime() < end, "waiters never parked: " + source.waiterCount());
            Thread.sleep(1);
        }
    }

    @ParameterizedTest(name = "virtual thread: {0}")
    @ValueSource(booleans = {false, true})
    void aWriteUnparksTheWaiter(boolean virtual) throws Exception {
        int fd = eventFd();
        PollSource source = poller.register(fd, "test fd");
        CompletableFuture<Boolean> woken = on(virtual, () -> source.awaitReadable(Duration.ofDays(1)));
        awaitWaiters(source, 1);
        assertFalse(woken.isDone(), "nothing written yet");
        signal(fd);
        assertTrue(woken.get(BOUND_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void anFdAlreadyReadableWakesAtOnce() throws Exception {
        int fd = eventFd();
        PollSource source = poller.register(fd, "test fd");
        signal(fd);
        assertTrue(source.awaitReadable(Duration.ofDays(1)), "armed while readable: reported at once");
        assertTrue(source.awaitReadable(Duration.ofDays(1)), "still unread: reported again after re-arming");
        assertEquals(1, Epoll.eventFdRead(fd));
        assertFalse(source.awaitReadable(Duration.ZERO), "read: nothing to report");
    }

    @ParameterizedTest(name = "virtual thread: {0}")
    @ValueSource(booleans = {false, true})
    void aDeadlineEndsTheWait(boolean virtual) throws Exception {
        PollSource source = poller.register(eventFd(), "test fd");
        long started = System.nanoTime();
        assertFalse(on(virtual, () -> source.awaitReadable(Duration.ZERO)).get(BOUND_SECONDS, TimeUnit.SECONDS));
        assertFalse(on(virtual, () -> source.awaitReadable(Duration.ofMillis(300))).get(BOUND_SECONDS, TimeUnit.SECONDS));
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertTrue(tookMillis >= 290 && tookMillis < 5_000, "300 ms deadline took " + tookMillis + " ms");
    }

    @Test
    void anInterruptEndsTheWait() throws Exception {
        PollSource source = poller.register(eventFd(), "test fd");
        CompletableFuture<Boolean> waiting = new CompletableFuture<>();
        Thread thread = Thread.ofVirtual().start(() -> {
            try {
                waiting.complete(source.awaitReadable(Duration.ofDays(1)));
            } catch (Throwable t) {
                waiting.completeExceptionally(t);
            }
        });
        awaitWaiters(source, 1);
        thread.interrupt();
        ExecutionException e = assertThrows(ExecutionException.class, () -> waiting.get(BOUND_SECONDS, TimeUnit.SECONDS));
        assertInstanceOf(InterruptedException.class, e.getCause());
    }

    @Test
    void aFutureCompletesAtTheNextReport() throws Exception {
        int fd = eventFd();
        PollSource source = poller.register(fd, "test fd");
        CompletableFuture<Void> next = source.nextReadable();
        assertFalse(next.isDone());
        signal(fd);
        next.get(BOUND_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void theHandlerRunsAtEveryReportOnThePollerThread() throws Exception {
        int fd = eventFd();
        PollSource source = poller.register(fd, "test fd");
        Semaphore ran = new Semaphore(0);
        List<String> threads = new ArrayList<>();
        source.setHandler(() -> {
            assertTrue(Epoll.eventFdRead(fd) > 0, "readable when called"); // consumes: else it runs again at once
            threads.add(Thread.currentThread().getName());
            ran.release();
        });
        for (int i = 0; i < 3; i++) {
            signal(fd);
            assertTrue(ran.tryAcquire(BOUND_SECONDS, TimeUnit.SECONDS), "report " + i + " handled (re-armed after each)");
        }
        assertEquals(List.of("test-poller", "test-poller", "test-poller"), threads);
        source.setHandler(null);
    }

    @Test
    void closingTheSourceEndsEveryWaitAndFuture() throws Exception {
        PollSource source = poller.register(eventFd(), "closing fd");
        List<CompletableFuture<Boolean>> waits = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            boolean virtual = i % 2 == 0;
            waits.add(on(virtual, () -> source.awaitReadable(Duration.ofDays(1))));
        }
        CompletableFuture<Void> next = source.nextReadable();
        awaitWaiters(source, waits.size());
        source.close();
        source.close(); // idempotent
        for (CompletableFuture<Boolean> wait : waits) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> wait.get(BOUND_SECONDS, TimeUnit.SECONDS));
            PollerClosedException closed = assertInstanceOf(PollerClosedException.class, e.getCause());
            assertTrue(closed.getMessage().contains("closing fd"), closed.getMessage());
            assertInstanceOf(VerbsException.class, closed);
        }
        ExecutionException e = assertThrows(ExecutionException.class, () -> next.get(BOUND_SECONDS, TimeUnit.SECONDS));
        assertInstanceOf(PollerClosedException.class, e.getCause());
        assertThrows(PollerClosedException.class, () -> source.awaitReadable(Duration.ofDays(1)));
        assertEquals(0, poller.sourceCount());
    }

    @Test
    void closingThePollerEndsEveryWaitOnEverySource() throws Exception {
        List<PollSource> sources = new ArrayList<>();
        List<CompletableFuture<Boolean>> waits = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            PollSource source = poller.register(eventFd(), "fd " + i);
            sources.add(source);
            waits.add(on(true, () -> source.awaitReadable(Duration.ofDays(1))));
            waits.add(on(false, () -> source.awaitReadable(Duration.ofDays(1))));
        }
        for (PollSource source : sources) {
            awaitWaiters(source, 2);
        }
        poller.close();
        for (CompletableFuture<Boolean> wait : waits) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> wait.get(BOUND_SECONDS, TimeUnit.SECONDS));
            PollerClosedException closed = assertInstanceOf(PollerClosedException.class, e.getCause());
            assertEquals("Poller[test-poller]", closed.closed());
        }
        assertTrue(poller.isClosed());
        assertThrows(PollerClosedException.class, () -> poller.register(eventFd(), "late"));
        poller.close(); // idempotent
    }

    @Test
    void wakeWaitersUnparksWithoutAReport() throws Exception {
        PollSource source = poller.register(eventFd(), "test fd");
        long seen = source.reports();
        source.wakeWaiters();
        assertTrue(source.awaitReadableSince(seen, System.nanoTime() + TimeUnit.DAYS.toNanos(1)),
                "a wake before the wait is not lost");
        CompletableFuture<Boolean> woken = on(true, () -> source.awaitReadable(Duration.ofDays(1)));
        awaitWaiters(source, 1);
        source.wakeWaiters();
        assertTrue(woken.get(BOUND_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void manySourcesEachWithItsOwnVirtualThread() throws Exception {
        int count = 200;
        List<Integer> eventFds = new ArrayList<>();
        List<CompletableFuture<Long>> consumed = new ArrayList<>();
        AtomicInteger spurious = new AtomicInteger();
        for (int i = 0; i < count; i++) {
            int fd = eventFd();
            eventFds.add(fd);
            PollSource source = poller.register(fd, "fd " + i);
            consumed.add(on(true, () -> {
                while (true) { // readiness is a hint: read, and wait again if someone else was faster
                    long seen = source.reports();
                    long value = Epoll.eventFdRead(fd);
                    if (value > 0) {
                        return value;
                    }
                    if (!source.awaitReadableSince(seen, System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS))) {
                        spurious.incrementAndGet();
                        return -1L;
                    }
                }
            }));
        }
        for (int i = count - 1; i >= 0; i--) {
            assertEquals(0, Epoll.eventFdWrite(eventFds.get(i), i + 1L));
        }
        for (int i = 0; i < count; i++) {
            assertEquals(i + 1L, consumed.get(i).get(BOUND_SECONDS, TimeUnit.SECONDS), "source " + i);
        }
        assertEquals(0, spurious.get(), "a wake-up was lost");
        assertEquals(count, poller.sourceCount());
    }

    @Test
    void severalPollerThreadsShareTheWork() throws Exception {
        try (Poller pair = Poller.start("pair", 2)) {
            int fd = eventFd();
            PollSource source = pair.register(fd, "test fd");
            signal(fd);
            assertTrue(source.awaitReadable(Duration.ofDays(1)));
        }
        assertThrows(IllegalArgumentException.class, () -> Poller.start("none", 0));
    }

    @Test
    void theSharedPollerIsStartedLazilyAndAgainAfterAClose() {
        String before = System.getProperty(Poller.ENABLED_PROPERTY);
        try {
            System.setProperty(Poller.ENABLED_PROPERTY, "false");
            assertTrue(Poller.shared().isEmpty(), "opted out");
            System.clearProperty(Poller.ENABLED_PROPERTY);
            Poller shared = Poller.shared().orElseThrow();
            assertTrue(shared == Poller.shared().orElseThrow(), "one for the JVM");
            shared.close();
            Poller again = Poller.shared().orElseThrow();
            assertFalse(again.isClosed());
            assertFalse(shared == again);
        } finally {
            if (before == null) {
                System.clearProperty(Poller.ENABLED_PROPERTY);
            } else {
                System.setProperty(Poller.ENABLED_PROPERTY, before);
            }
        }
    }
}
