package dev.panamaverbs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Checks one waiting method against the library's deadline rule ({@link Deadline}): null and
 * negative timeouts are refused naming the call, zero checks once without blocking, 500 ms ends
 * at the deadline (within a generous bound), and a huge timeout waits until interrupted.
 */
public final class WaitRule {
    /** Generous bound for a 500 ms deadline, and for ending a wait that was interrupted. */
    public static final long BOUND_MILLIS = 3_000;

    private WaitRule() {}

    /** A waiting method, given its timeout. */
    @FunctionalInterface
    public interface Wait {
        Object call(Duration timeout) throws Exception;
    }

    /** Only null and negative: for waits that would reach a native call past the validation. */
    public static void assertRefusesNullAndNegative(String verb, Wait wait) {
        NullPointerException isNull = assertThrows(NullPointerException.class, () -> wait.call(null), verb);
        assertEquals(verb + ": timeout is null", isNull.getMessage());
        for (Duration negative : new Duration[] {Duration.ofNanos(-1), Duration.ofSeconds(Long.MIN_VALUE)}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> wait.call(negative), verb);
            assertTrue(e.getMessage().startsWith(verb + ": timeout must not be negative"), e.getMessage());
        }
    }

    /**
     * The whole rule. {@code timedOut} says whether a result is "nothing came" (empty, false);
     * {@code interrupted} whether what an interrupt ended the wait with is the documented one.
     */
    public static void assertFollowsTheRule(String verb, Wait wait, Predicate<Object> timedOut,
                                            Predicate<Throwable> interrupted) throws Exception {
        assertRefusesNullAndNegative(verb, wait);

        long started = System.nanoTime();
        Object zero = wait.call(Duration.ZERO);
        long zeroMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertTrue(timedOut.test(zero), verb + " with zero answered " + zero);
        assertTrue(zeroMillis < BOUND_MILLIS, verb + " with zero took " + zeroMillis + " ms");

        started = System.nanoTime();
        Object half = wait.call(Duration.ofMillis(500));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertTrue(timedOut.test(half), verb + " answered " + half);
        assertTrue(millis >= 500 && millis < BOUND_MILLIS, verb + ": a 500 ms deadline ended after " + millis + " ms");

        for (Duration huge : new Duration[] {Duration.ofSeconds(Long.MAX_VALUE), Duration.ofSeconds(Long.MAX_VALUE, 999_999_999)}) {
            CompletableFuture<Object> ended = new CompletableFuture<>();
            Thread waiter = Thread.ofPlatform().name("huge-" + verb).start(() -> {
                try {
                    ended.complete(wait.call(huge));
                } catch (Throwable t) {
                    ended.complete(t);
                }
            });
            Thread.sleep(400);
            assertFalse(ended.isDone(), () -> verb + " with " + huge + " ended at once: " + ended.join());
            waiter.interrupt();
            Object end = ended.get(BOUND_MILLIS, TimeUnit.MILLISECONDS);
            assertTrue(end instanceof Throwable t && interrupted.test(t), verb + ": an interrupt ended the wait with " + end);
            waiter.join(BOUND_MILLIS);
        }
    }
}
