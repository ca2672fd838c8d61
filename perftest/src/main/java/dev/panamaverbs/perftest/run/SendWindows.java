package dev.panamaverbs.perftest.run;

import java.util.Arrays;

/**
 * Per queue pair of a run, the requests posted ({@code scnt}) and completed ({@code ccnt}) as
 * perftest counts them, its rule for which request is signaled, and the {@code wr_id} that
 * carries a request's place back: a tag, the queue pair's index from bit {@code qpShift} up and
 * the request's number (1-based) below. A completion covers every request of its queue pair up
 * to its number, the unsignaled ones before it included. Allocates nothing after construction.
 */
final class SendWindows {
    private final long tag;
    private final int qpShift;
    private final long countMask;
    private final int txDepth;
    private final int cqModeration;
    private final long[] scnt;
    private final long[] ccnt;

    /**
     * @param tag          bits every {@code wr_id} carries above the queue pair's index (0 for none)
     * @param txDepth      the requests a queue pair may have outstanding ({@code -t})
     * @param cqModeration one request in this many is signaled ({@code -Q})
     */
    SendWindows(int queuePairs, long tag, int qpShift, int txDepth, int cqModeration) {
        this.tag = tag;
        this.qpShift = qpShift;
        this.countMask = (1L << qpShift) - 1;
        this.txDepth = txDepth;
        this.cqModeration = cqModeration;
        this.scnt = new long[queuePairs];
        this.ccnt = new long[queuePairs];
    }

    /** Zero counts, for a new run. */
    void reset() {
        Arrays.fill(scnt, 0);
        Arrays.fill(ccnt, 0);
    }

    /** The requests queue pair {@code q} posted in this run. */
    long posted(int q) {
        return scnt[q];
    }

    /** The requests of queue pair {@code q} posted and not yet completed. */
    long outstanding(int q) {
        return scnt[q] - ccnt[q];
    }

    /** Whether queue pair {@code q} may post {@code count} more of its {@code iterations}. */
    boolean hasRoom(int q, int count, long iterations) {
        return scnt[q] < iterations && scnt[q] - ccnt[q] + count <= txDepth;
    }

    /** Whether queue pair {@code q}'s next request is signaled: one in {@code -Q}, and the run's last. */
    boolean signalsNext(int q, long iterations) {
        return (scnt[q] + 1) % cqModeration == 0 || scnt[q] + 1 == iterations;
    }

    /**
     * Whether queue pair {@code q}'s next request is signaled in duration mode ({@code -D}), where a
     * run has no last request: one in {@code -Q}, and the one that fills the window, so that every
     * burst ends signaled and the last request posted always completes.
     */
    boolean signalsNextOfBurst(int q) {
        return (scnt[q] + 1) % cqModeration == 0 || scnt[q] - ccnt[q] + 1 == txDepth;
    }

    /** Counts {@code count} requests posted on queue pair {@code q}. */
    void countPosted(int q, int count) {
        scnt[q] += count;
    }

    /** The {@code wr_id} of queue pair {@code q}'s request number {@code number} (1-based). */
    long wrId(int q, long number) {
        return tag | ((long) q << qpShift) | number;
    }

    /**
     * Counts the requests completion {@code wrId} covers as completed at {@code now}: each one's
     * time goes to {@code times}, from index {@code done} on. Returns the index after the last.
     */
    int complete(long wrId, long now, long[] times, int done) {
        int q = (int) ((wrId & ~tag) >>> qpShift);
        long upTo = wrId & countMask;
        while (ccnt[q] < upTo) {
            ccnt[q]++;
            times[done++] = now;
        }
        return done;
    }

    /** Counts the requests completion {@code wrId} covers as completed; returns how many it newly covers. */
    long complete(long wrId) {
        int q = (int) ((wrId & ~tag) >>> qpShift);
        long upTo = wrId & countMask;
        if (upTo <= ccnt[q]) {
            return 0;
        }
        long covered = upTo - ccnt[q];
        ccnt[q] = upTo;
        return covered;
    }
}
