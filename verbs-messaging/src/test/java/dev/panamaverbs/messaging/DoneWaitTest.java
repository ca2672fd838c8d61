package dev.panamaverbs.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class DoneWaitTest {
    private static final long MILLIS = 1_000_000L;

    @Test
    void aDoneThatNeverComesEndsAtTheDeadlineWithWhatExpiredReturns() {
        AtomicInteger expiredCalls = new AtomicInteger();
        RuntimeException timeout = new RendezvousTimeoutException("no DONE", 7);
        long start = System.nanoTime();
        long deadline = start + 300 * MILLIS;
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> new DoneWait().await(
                deadline, () -> {
                    expiredCalls.incrementAndGet();
                    return timeout;
                }));
        long end = System.nanoTime();
        assertSame(timeout, thrown);
        assertEquals(1, expiredCalls.get());
        assertTrue(end >= deadline, "ended " + (deadline - end) / MILLIS + " ms before its deadline");
        assertTrue(end - start < 10_000 * MILLIS, "took " + (end - start) / MILLIS + " ms");
    }

    @Test
    void aDoneInTimeReturnsAndNeverCallsExpired() {
        DoneWait done = new DoneWait();
        CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS).execute(() -> done.complete(null));
        done.await(System.nanoTime() + 30_000 * MILLIS, () -> {
            throw new AssertionError("expired called");
        });
        assertTrue(done.isDone());
    }

    @Test
    void aDoneAlreadyThereReturnsEvenPastTheDeadline() {
        completed(null).await(System.nanoTime() - 1, () -> {
            throw new AssertionError("expired called");
        });
    }

    @Test
    void aFailedRendezvousIsRethrownAsOneOnTheWaitingThread() {
        RendezvousException refused = new RendezvousException("refused", RendezvousStatus.TOO_LARGE, 3, null);
        RendezvousException thrown = assertThrows(RendezvousException.class, () -> completed(refused).await(
                System.nanoTime() + 30_000 * MILLIS, () -> {
                    throw new AssertionError("expired called");
                }));
        assertSame(refused, thrown.getCause());
        assertEquals(RendezvousStatus.TOO_LARGE, thrown.status());
        assertEquals(3, thrown.messageId());

        MessagingException lost = new MessagingException("lost", null);
        MessagingException channel = assertThrows(MessagingException.class, () -> completed(lost).await(
                System.nanoTime() + 30_000 * MILLIS, () -> null));
        assertSame(lost, channel.getCause());
        assertInstanceOf(MessagingException.class, channel);
    }

    @Test
    void anInterruptDoesNotEndTheWaitAndIsKept() {
        Thread.currentThread().interrupt();
        try {
            DoneWait done = new DoneWait();
            CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS).execute(() -> done.complete(null));
            done.await(System.nanoTime() + 30_000 * MILLIS, () -> {
                throw new AssertionError("expired called");
            });
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status is set again");
        } finally {
            assertTrue(Thread.interrupted());
        }
        assertFalse(Thread.currentThread().isInterrupted());
    }

    /** A wait whose outcome came already: {@code failure}, or OK when null. */
    private static DoneWait completed(Throwable failure) {
        DoneWait done = new DoneWait();
        done.complete(failure);
        return done;
    }
}
