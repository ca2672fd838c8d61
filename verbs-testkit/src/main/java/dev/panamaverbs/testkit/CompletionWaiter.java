package dev.panamaverbs.testkit;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import java.time.Duration;
import org.junit.jupiter.api.Assertions;

/**
 * Busy-polls a completion queue for tests, with a deadline so a lost completion fails the test
 * instead of hanging it.
 */
public final class CompletionWaiter {
    /** How long a test waits for a completion by default (generous: the rxe VM runs under TCG). */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(20);

    private CompletionWaiter() {}

    /**
     * Polls {@code cq} into {@code batch} until {@code count} completions arrived (each must
     * fit in the batch), failing the test after {@code timeout}. Returns how many are in the batch.
     *
     * @param cq the completion queue
     * @param batch how many in one batch
     * @param count how many
     * @param timeout how long to wait at most
     * @return how many completions arrived
     */
    public static int await(CompletionQueue cq, Completions batch, int count, Duration timeout) {
        if (count < 1 || count > batch.capacity()) {
            throw new IllegalArgumentException("count must be in 1.." + batch.capacity() + ", got " + count);
        }
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, got " + timeout);
        }
        // The library's deadline rule: a huge timeout waits for ever (clamped, no overflow).
        long timeoutNanos = timeout.getSeconds() >= Long.MAX_VALUE / 2_000_000_000L ? Long.MAX_VALUE / 2 : timeout.toNanos();
        long deadline = System.nanoTime() + timeoutNanos;
        int got = 0;
        // Poll into a scratch batch so earlier entries are not overwritten, then copy in.
        Completions scratch = Completions.allocate(count);
        while (got < count) {
            int polled = cq.poll(scratch, count - got);
            for (int i = 0; i < polled; i++) {
                long entry = scratch.segment().byteSize() / scratch.capacity();
                java.lang.foreign.MemorySegment.copy(scratch.segment(), i * entry, batch.segment(), (got + i) * entry, entry);
            }
            got += polled;
            if (got < count) {
                if (System.nanoTime() - deadline > 0) {
                    Assertions.fail("waited " + timeout + " for " + count + " completions on " + cq + ", got " + got);
                }
                Thread.onSpinWait();
            }
        }
        return got;
    }

    /**
     * Waits for one completion, asserts it succeeded, and returns its index (0) in {@code batch}.
     *
     * @param cq the completion queue
     * @param batch how many in one batch
     * @return the completion's index in {@code batch} (0)
     */
    public static int awaitSuccess(CompletionQueue cq, Completions batch) {
        await(cq, batch, 1, DEFAULT_TIMEOUT);
        if (!batch.isSuccess(0)) {
            Assertions.fail("completion wr_id=" + batch.wrId(0) + " failed: " + batch.status(0)
                    + " (vendor error " + batch.vendorError(0) + ")");
        }
        return 0;
    }
}
