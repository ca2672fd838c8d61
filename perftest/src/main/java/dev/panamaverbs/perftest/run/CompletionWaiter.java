package dev.panamaverbs.perftest.run;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import java.lang.foreign.Arena;
import java.time.Duration;

/**
 * Polls one completion queue into a preallocated batch, bounded by a timeout, and fails on the
 * first completion in error the way perftest reports it ("Completion with error at client").
 * Allocates nothing once created when it polls. With events ({@code -e}) it sleeps on the
 * queue's completion channel instead ({@link CompletionQueue#awaitCompletions}: poll, arm
 * with {@code ibv_req_notify_cq}, poll, {@code ibv_get_cq_event}), as perftest's
 * {@code ctx_notify_events} before each poll.
 */
public final class CompletionWaiter {
    private final CompletionQueue cq;
    private final Completions batch;
    private final long timeoutNanos;
    private final String side;
    private final boolean events;

    /** A waiter that busy-polls {@code cq}. */
    public CompletionWaiter(CompletionQueue cq, Arena arena, int capacity, Duration timeout, boolean server) {
        this(cq, arena, capacity, timeout, server, false);
    }

    /** With {@code events}, a waiter that sleeps on {@code cq}'s completion channel between completions. */
    public CompletionWaiter(CompletionQueue cq, Arena arena, int capacity, Duration timeout, boolean server, boolean events) {
        this.cq = cq;
        this.events = events;
        this.batch = Completions.allocate(arena, capacity);
        this.timeoutNanos = timeout.toNanos();
        this.side = server ? "server" : "client";
    }

    /** The batch the last {@link #poll} filled. */
    public Completions batch() {
        return batch;
    }

    /** Polls until at least one completion is there, or {@code endNanos} passes (0 then); each is checked for success. */
    public int pollUntil(long endNanos) {
        if (events) {
            int n = await(Math.max(0, endNanos - System.nanoTime()));
            check(n);
            return n;
        }
        int n;
        int spins = 0;
        while ((n = cq.poll(batch)) == 0) {
            if ((++spins & 0x3FF) == 0 && System.nanoTime() - endNanos > 0) {
                return 0;
            }
            Thread.onSpinWait();
        }
        check(n);
        return n;
    }

    /**
     * Polls until at least one completion is there (or {@code timeout} passes: {@link TestFailedException});
     * returns how many; each is checked for success. {@code waitingFor} and {@code number} only
     * name the wait in the error (no string is built unless it fails).
     */
    public int poll(String waitingFor, long number) {
        int n = events ? await(timeoutNanos) : cq.poll(batch);
        if (n == 0 && !events) {
            long deadline = System.nanoTime() + timeoutNanos;
            int spins = 0;
            while ((n = cq.poll(batch)) == 0) {
                if ((++spins & 0x3FF) == 0 && System.nanoTime() - deadline > 0) {
                    break;
                }
                Thread.onSpinWait();
            }
        }
        if (n == 0) {
            throw new TestFailedException("no completion within " + timeoutNanos / 1_000_000_000 + " s while waiting for "
                    + waitingFor + " " + number + " (did the peer stop, or does it run another test?)");
        }
        check(n);
        return n;
    }

    /** One wait on the channel of at most {@code nanos}; 0 when it passed with no completion. */
    private int await(long nanos) {
        try {
            return cq.awaitCompletions(batch, Duration.ofNanos(nanos));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TestFailedException("interrupted while waiting for a completion event");
        }
    }

    private void check(int n) {
        for (int i = 0; i < n; i++) {
            if (!batch.isSuccess(i)) {
                throw new TestFailedException("Completion with error at " + side + ": Failed status " + batch.status(i)
                        + " (" + batch.statusValue(i) + "): wr_id " + batch.wrId(i) + " syndrom 0x"
                        + Integer.toHexString(batch.vendorError(i)));
            }
        }
    }
}
