package dev.panamaverbs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/** The one deadline rule (null, negative, zero, huge) and the arithmetic every wait asks of a deadline. */
class DeadlineTest {

    @Test
    void nullIsANullPointerExceptionNamingTheCall() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> Deadline.timeoutNanos("ibv_get_cq_event", null));
        assertEquals("ibv_get_cq_event: timeout is null", e.getMessage());
        assertThrows(NullPointerException.class, () -> Deadline.start("rdma_connect", null));
    }

    @Test
    void negativeIsAnIllegalArgumentExceptionNamingTheCall() {
        for (Duration negative : new Duration[] {Duration.ofNanos(-1), Duration.ofMillis(-1), Duration.ofSeconds(Long.MIN_VALUE)}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Deadline.start("rdma_accept", negative));
            assertEquals("rdma_accept: timeout must not be negative, got " + negative, e.getMessage());
        }
    }

    @Test
    void zeroIsAlreadyOverSoAWaitChecksOnce() {
        assertEquals(0, Deadline.timeoutNanos("x", Duration.ZERO));
        long deadline = Deadline.start("x", Duration.ZERO);
        assertTrue(Deadline.expired(deadline));
        assertEquals(0, Deadline.remainingNanos(deadline));
        assertEquals(0, Deadline.pollMillis(deadline, 50), "a poll(2) that does not block");
        assertEquals(1, Deadline.blockingMillis(deadline), "1 ms where 0 would mean for ever");
    }

    @Test
    void hugeIsClampedToForEverWithoutOverflow() {
        Duration[] huge = {Duration.ofSeconds(Long.MAX_VALUE), Duration.ofSeconds(Long.MAX_VALUE, 999_999_999),
                ChronoUnit.FOREVER.getDuration(), Duration.ofNanos(Long.MAX_VALUE), Duration.ofDays(365L * 200)};
        for (Duration timeout : huge) {
            assertEquals(Deadline.FOREVER_NANOS, Deadline.timeoutNanos("x", timeout), timeout::toString);
            long deadline = Deadline.start("x", timeout);
            assertFalse(Deadline.expired(deadline), timeout::toString);
            long remaining = Deadline.remainingNanos(deadline);
            assertTrue(remaining > Deadline.FOREVER_NANOS - Duration.ofMinutes(1).toNanos() && remaining <= Deadline.FOREVER_NANOS);
            assertEquals(50, Deadline.pollMillis(deadline, 50));
            assertEquals(Integer.MAX_VALUE, Deadline.blockingMillis(deadline));
        }
        assertEquals(Deadline.FOREVER_NANOS, Deadline.timeoutNanos("x", Duration.ofNanos(Deadline.FOREVER_NANOS)));
        assertEquals(Deadline.FOREVER_NANOS - 1, Deadline.timeoutNanos("x", Duration.ofNanos(Deadline.FOREVER_NANOS - 1)));
        assertFalse(Deadline.expired(Deadline.after(Long.MAX_VALUE)), "Long.MAX_VALUE nanos is for ever too");
        assertTrue(Deadline.expired(Deadline.after(-5)), "a negative nanos count is already over");
    }

    @Test
    void ordinaryTimeoutsAreExactAndRoundUpToWholeMilliseconds() {
        assertEquals(5_000_000, Deadline.timeoutNanos("x", Duration.ofMillis(5)));
        assertEquals(1, Deadline.timeoutNanos("x", Duration.ofNanos(1)));
        long deadline = Deadline.start("x", Duration.ofSeconds(10));
        assertFalse(Deadline.expired(deadline));
        int millis = Deadline.pollMillis(deadline, Integer.MAX_VALUE);
        assertTrue(millis > 9_000 && millis <= 10_000, "rounded up, never past the timeout: " + millis);
        assertEquals(50, Deadline.pollMillis(deadline, 50), "at most one slice");
        long sub = Deadline.after(300_000); // 0.3 ms left: poll 1 ms, not 0 (which would spin)
        assertTrue(Deadline.pollMillis(sub, 50) <= 1);
    }

    @Test
    void aShortDeadlinePasses() throws InterruptedException {
        long deadline = Deadline.start("x", Duration.ofMillis(20));
        Thread.sleep(40);
        assertTrue(Deadline.expired(deadline));
        assertEquals(0, Deadline.remainingNanos(deadline));
        assertEquals(0, Deadline.pollMillis(deadline, 50));
    }

    @Test
    void onlyAClampedTimeoutIsEndless() {
        assertTrue(Deadline.isEndless(Deadline.remainingNanos(Deadline.start("x", ChronoUnit.FOREVER.getDuration()))));
        assertTrue(Deadline.isEndless(Deadline.remainingNanos(Deadline.after(Long.MAX_VALUE))));
        assertFalse(Deadline.isEndless(Deadline.remainingNanos(Deadline.start("x", Duration.ofDays(365L * 50)))));
        assertFalse(Deadline.isEndless(Deadline.remainingNanos(Deadline.start("x", Duration.ofSeconds(10)))));
        assertFalse(Deadline.isEndless(0));
    }
}
