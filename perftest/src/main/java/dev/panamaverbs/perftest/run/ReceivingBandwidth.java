package dev.panamaverbs.perftest.run;

import dev.panamaverbs.Completions;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.ReceiveWorkRequest;
import java.lang.foreign.Arena;

/**
 * The receiving side of ib_send_bw ({@code run_iter_bw_server}): keeps receives posted on each
 * of its queue pairs (up to {@code -r} each, never more than that queue pair's iterations left)
 * and counts the peer's SENDs, {@code -n} per queue pair; each receive's {@code wr_id} is its
 * queue pair's index, so a completion's receive goes back on its own queue pair. The run is
 * timed from the first arrival to the last. Allocates nothing per iteration.
 */
public final class ReceivingBandwidth {
    private final QueuePair[] qps;
    private final ReceiveWorkRequest[] receives;
    private final CompletionWaiter completions;
    private final int depth;
    /** Per queue pair: receives posted in the current run. */
    private final long[] posted;
    private long first;
    private long last;

    /** One queue pair. */
    public ReceivingBandwidth(QueuePair qp, MemoryRegion buffer, long offset, int length, int depth, CompletionWaiter completions,
                              Arena arena) {
        this(new QueuePair[] {qp}, buffer, offset, length, depth, completions, arena);
    }

    /** Several queue pairs ({@code -q}) on one completion queue, each receive landing at {@code offset}. */
    public ReceivingBandwidth(QueuePair[] qps, MemoryRegion buffer, long offset, int length, int depth,
                              CompletionWaiter completions, Arena arena) {
        this.qps = qps.clone();
        this.completions = completions;
        this.depth = depth;
        this.posted = new long[qps.length];
        this.receives = new ReceiveWorkRequest[qps.length];
        for (int q = 0; q < qps.length; q++) {
            receives[q] = ReceiveWorkRequest.allocate(arena, 1).wrId(q).sge(0, buffer, offset, length);
        }
    }

    /** Posts the first receives on each queue pair, {@code iterations} at most (before the hand shake that lets the sender go). */
    public void postReceives(int iterations) {
        for (int q = 0; q < qps.length; q++) {
            posted[q] = 0;
            while (posted[q] < Math.min(depth, iterations)) {
                qps[q].postReceive(receives[q]);
                posted[q]++;
            }
        }
    }

    /**
     * Receives {@code iterations} SENDs on each queue pair, watched by perftest's liveness
     * {@code alarm}: returns how many arrived in all, fewer than {@code iterations} times the
     * queue pairs when the alarm gave up (nothing arrived between two of its rings, as when UD
     * lost datagrams).
     */
    public long run(int iterations, LivenessAlarm alarm) {
        long required = (long) iterations * qps.length;
        long received = 0;
        first = 0;
        last = 0;
        alarm.start(System.nanoTime());
        while (received < required) {
            int n = completions.pollUntil(alarm.nextRingNanos());
            long now = System.nanoTime();
            if (n == 0) {
                if (alarm.ring(now, received, required)) {
                    return received;
                }
                continue;
            }
            stampArrival(now, received);
            received += n;
            Completions batch = completions.batch();
            for (int i = 0; i < n; i++) {
                int q = (int) batch.wrId(i);
                if (posted[q] < iterations) {
                    qps[q].postReceive(receives[q]);
                    posted[q]++;
                }
            }
        }
        // perftest's server takes its end time after the loop, not at the last batch: a run whose
        // every message came in one poll would otherwise measure 0 ns and print inf.
        last = System.nanoTime();
        return received;
    }

    /**
     * Duration mode ({@code -D}): receives until {@code endNanos}, keeping {@code -r} receives
     * posted on each queue pair; returns how many arrived.
     */
    public long runUntil(long endNanos) {
        long received = 0;
        while (true) {
            int n = completions.pollUntil(endNanos);
            if (n == 0) {
                return received;
            }
            long now = System.nanoTime();
            stampArrival(now, received);
            received += n;
            Completions batch = completions.batch();
            for (int i = 0; i < n; i++) {
                int q = (int) batch.wrId(i);
                qps[q].postReceive(receives[q]);
            }
        }
    }

    /** Marks an arrival at {@code now}: the first when nothing arrived before ({@code receivedBefore} 0), always the last. */
    private void stampArrival(long now, long receivedBefore) {
        if (receivedBefore == 0) {
            first = now;
        }
        last = now;
    }

    /** Nanoseconds from the first arrival to the end of the run (iterations) or the last arrival (duration). */
    public long elapsedNanos() {
        return last - first;
    }
}
