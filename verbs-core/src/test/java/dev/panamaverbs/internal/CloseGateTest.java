package dev.panamaverbs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** Close from any thread: uses refused after close, close waiting for uses under way and for a racing close. */
class CloseGateTest {
    /** Generous: each case takes milliseconds; only a hang comes near it. */
    private static final Duration BOUND = Duration.ofSeconds(20);

    @Test
    void aUseAfterCloseIsRefusedNamingTheOwnerAndTheUse() {
        CloseGate gate = new CloseGate("channel X");
        gate.enter("put");
        gate.exit();
        assertFalse(gate.isClosed());
        assertTrue(gate.beginClose());
        gate.awaitUsesDone();
        gate.endClose();
        assertTrue(gate.isClosed());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> gate.enter("waitSignal"));
        assertEquals("waitSignal: channel X is closed", e.getMessage());
        assertFalse(gate.beginClose(), "a second close is a no-op");
        assertTimeoutPreemptively(BOUND, gate::awaitUsesDone, "the refused use left no count behind");
    }

    @Test
    void nestedUsesCountAndAllLeave() {
        CloseGate gate = new CloseGate("owner");
        gate.enter("outer");
        gate.enter("inner");
        gate.exit();
        gate.exit();
        assertTrue(gate.beginClose());
        assertTimeoutPreemptively(BOUND, gate::awaitUsesDone);
    }

    @Test
    void closeWaitsUntilAUseUnderWayHasSeenTheCloseAndLeft() throws Exception {
        CloseGate gate = new CloseGate("owner");
        CountDownLatch inside = new CountDownLatch(1);
        AtomicBoolean left = new AtomicBoolean();
        CompletableFuture<Void> waiter = TestThreads.start(false, () -> {
            gate.enter("wait");
            try {
                inside.countDown();
                while (!gate.isClosed()) { // a wait's rounds: check, then park
                    LockSupport.parkNanos(1_000_000);
                }
                LockSupport.parkNanos(20_000_000); // still inside for a while after seeing the close
                left.set(true);
            } finally {
                gate.exit();
            }
            return null;
        });
        assertTrue(inside.await(BOUND.toSeconds(), TimeUnit.SECONDS));
        assertTimeoutPreemptively(BOUND, () -> {
            assertTrue(gate.beginClose());
            gate.awaitUsesDone();
            assertTrue(left.get(), "close returned from its wait while a use was still inside");
            gate.endClose();
        });
        waiter.get(BOUND.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void aCloseRacingACloseReturnsOnlyOnceTheFirstHasFinished() throws Exception {
        CloseGate gate = new CloseGate("owner");
        assertTrue(gate.beginClose());
        AtomicBoolean freed = new AtomicBoolean();
        CompletableFuture<Boolean> second = TestThreads.start(false, () -> {
            boolean closed = gate.beginClose();
            assertTrue(freed.get(), "the second close returned before the first had freed");
            return closed;
        });
        LockSupport.parkNanos(50_000_000);
        assertFalse(second.isDone(), "the second close must wait for the first");
        freed.set(true);
        gate.endClose();
        assertFalse(second.get(BOUND.toSeconds(), TimeUnit.SECONDS), "only the first close frees");
    }
}
