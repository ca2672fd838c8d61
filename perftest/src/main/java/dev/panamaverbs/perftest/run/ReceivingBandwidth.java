package dev.panamaverbs.perftest.run;

import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.ReceiveWorkRequest;
import java.lang.foreign.Arena;

/**
 * The receiving side of ib_send_bw ({@code run_iter_bw_server}): keeps receives posted (up to
 * {@code -r}, never more than the iterations left) and counts the peer's SENDs; the run is timed
 * from the first arrival to the last. Allocates nothing per iteration.
 */
public final class ReceivingBandwidth {
    private final QueuePair qp;
    private final ReceiveWorkRequest receive;
    private final CompletionWaiter completions;
    private final int depth;
    private int posted;
    private long first;
    private long last;

    public ReceivingBandwidth(QueuePair qp, MemoryRegion buffer, long offset, int length, int depth, CompletionWaiter completions,
                              Arena arena) {
        this.qp = qp;
        this.completions = completions;
        this.depth = depth;
        this.receive = ReceiveWorkRequest.allocate(arena, 1).wrId(3).sge(0, buffer, offset, length);
    }

    /** Posts the first receives (before the hand shake that lets the sender go). */
    public void postReceives(int iterations) {
        posted = 0;
        while (posted < Math.min(depth, iterations)) {
            qp.postReceive(receive);
            posted++;
        }
    }

    /**
     * Receives {@code iterations} SENDs, watched by perftest's liveness {@code alarm}: returns how
     * many arrived, fewer than {@code iterations} when the alarm gave up (nothing arrived between
     * two of its rings, as when UD lost datagrams).
     */
    public int run(int iterations, LivenessAlarm alarm) {
        int received = 0;
        first = 0;
        last = 0;
        alarm.start(System.nanoTime());
        while (received < iterations) {
            int n = completions.pollUntil(alarm.nextRingNanos());
            long now = System.nanoTime();
            if (n == 0) {
                if (alarm.ring(now, received, iterations)) {
                    return received;
                }
                continue;
            }
            if (received == 0) {
                first = now;
            }
            received += n;
            last = now;
            for (int i = 0; i < n && posted < iterations; i++) {
                qp.postReceive(receive);
                posted++;
            }
        }
        return received;
    }

    /**
     * Duration mode ({@code -D}): receives until {@code endNanos}, keeping {@code -r} receives
     * posted; returns how many arrived.
     */
    public long runUntil(long endNanos) {
        long received = 0;
        while (true) {
            int n = completions.pollUntil(endNanos);
            if (n == 0) {
                return received;
            }
            long now = System.nanoTime();
            if (received == 0) {
                first = now;
            }
            received += n;
            last = now;
            for (int i = 0; i < n; i++) {
                qp.postReceive(receive);
            }
        }
    }

    /** Nanoseconds from the first arrival to the last. */
    public long elapsedNanos() {
        return last - first;
    }
}
