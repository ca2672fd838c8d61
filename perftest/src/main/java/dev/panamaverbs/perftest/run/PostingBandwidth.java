package dev.panamaverbs.perftest.run;

import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.Completions;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.Arena;

/**
 * The sending side of a bandwidth test ({@code run_iter_bw}): on each of its queue pairs
 * ({@code -q}; one by default) keeps up to {@code -t} requests outstanding, one in {@code -Q}
 * signaled (and the last), and times each post and, per completion, every iteration it covers;
 * the queue pairs share one completion queue and each runs the full {@code -n} iterations, as
 * perftest's (the run is {@code -n} times the queue pairs, timed as one). The opcode is the
 * test's verb: RDMA WRITE or SEND of {@code size} bytes, RDMA READ of {@code size} bytes, or an
 * 8-byte fetch-and-add, always on the peer's target. Allocates nothing per iteration: each queue
 * pair's two requests (signaled and not) are built once, and only their {@code wr_id} changes
 * (the queue pair's index in its upper 16 bits, the request's number below). With a post list
 * ({@code -l} &gt; 1) the unit is a chain of that many requests, built once and posted by one
 * {@code ibv_post_send}, signaled where {@code -Q} divides the position (so always at its end:
 * the list is a multiple of {@code -Q}).
 */
public final class PostingBandwidth {
    /** Where the queue pair's index starts in a {@code wr_id}. */
    private static final int QP_SHIFT = 48;

    private final QueuePair[] qps;
    private final CompletionWaiter completions;
    private final SendWindows sends;
    private final PostUnits units;
    private final int postList;

    /**
     * One queue pair.
     *
     * @param opcode        RDMA_WRITE, SEND, RDMA_READ, ATOMIC_FETCH_AND_ADD or ATOMIC_CMP_AND_SWP
     * @param ah            the peer's address handle on UD ({@code null} otherwise), with {@code remoteQpn} and {@code qkey}
     * @param postList      requests per post ({@code -l}); above 1, a multiple of {@code cqModeration}
     */
    public PostingBandwidth(QueuePair qp, MemoryRegion buffer, WorkRequestOpcode opcode, int size, int maxInline,
                            long remoteAddress, int remoteRkey, AddressHandle ah, int remoteQpn, int qkey, int txDepth,
                            int postList, int cqModeration, CompletionWaiter completions, Arena arena) {
        this(new QueuePair[] {qp}, buffer, opcode, size, maxInline, new long[] {remoteAddress}, new int[] {remoteRkey}, ah,
                new int[] {remoteQpn}, qkey, txDepth, postList, cqModeration, completions, arena);
    }

    /**
     * Several queue pairs ({@code -q}) on one completion queue, the i-th towards the peer's
     * {@code remoteAddresses[i]}, {@code remoteRkeys[i]} and (on UD) {@code remoteQpns[i]}.
     */
    public PostingBandwidth(QueuePair[] qps, MemoryRegion buffer, WorkRequestOpcode opcode, int size, int maxInline,
                            long[] remoteAddresses, int[] remoteRkeys, AddressHandle ah, int[] remoteQpns, int qkey,
                            int txDepth, int postList, int cqModeration, CompletionWaiter completions, Arena arena) {
        if (postList < 1 || postList > txDepth || (postList > 1 && postList % cqModeration != 0)) {
            throw new IllegalArgumentException("post list " + postList + " with tx depth " + txDepth + " and CQ moderation "
                    + cqModeration + ": the list must fit the tx depth and be a multiple of the moderation");
        }
        this.qps = qps.clone();
        this.completions = completions;
        this.postList = postList;
        this.sends = new SendWindows(qps.length, 0, QP_SHIFT, txDepth, cqModeration);
        this.units = new PostUnits(qps, sends, buffer, opcode, size, maxInline, remoteAddresses, remoteRkeys, ah, remoteQpns,
                qkey, postList, cqModeration, arena);
    }

    /**
     * Runs {@code iterations} on each queue pair: {@code posted[i]} and {@code completed[i]} get
     * when the run's i-th request (of {@code iterations} times the queue pairs, in the order they
     * were posted and completed) was posted and completed (ns).
     */
    public void run(int iterations, long[] posted, long[] completed) {
        if (iterations % postList != 0) {
            throw new IllegalArgumentException(iterations + " iterations are not a multiple of the post list " + postList);
        }
        sends.reset();
        long total = (long) iterations * qps.length;
        int totalPosted = 0;
        int totalCompleted = 0;
        while (totalCompleted < total) {
            for (int q = 0; q < qps.length; q++) {
                while (sends.hasRoom(q, postList, iterations)) {
                    long now = System.nanoTime();
                    int sent = units.postNext(q, sends.posted(q), sends.signalsNext(q, iterations));
                    for (int k = 0; k < sent; k++) {
                        posted[totalPosted++] = now;
                    }
                    sends.countPosted(q, sent);
                }
            }
            int n = completions.poll("the completion of request", totalCompleted + 1);
            long now = System.nanoTime();
            Completions batch = completions.batch();
            for (int i = 0; i < n; i++) {
                totalCompleted = sends.complete(batch.wrId(i), now, completed, totalCompleted);
            }
        }
    }

    /**
     * Duration mode ({@code -D}): keeps {@code -t} requests outstanding on each queue pair until
     * {@code endNanos}, then waits for those still out. Returns the iterations completed (all
     * queue pairs'); {@link #elapsedNanos} the time from the first post to the last completion.
     */
    public long runUntil(long endNanos) {
        sends.reset();
        long totalPosted = 0;
        long totalCompleted = 0;
        long first = System.nanoTime();
        long last = first;
        while (totalCompleted < totalPosted || System.nanoTime() - endNanos < 0) {
            boolean posting = System.nanoTime() - endNanos < 0;
            for (int q = 0; posting && q < qps.length; q++) {
                while (sends.hasRoom(q, postList, Long.MAX_VALUE)) {
                    int sent = units.postNext(q, sends.posted(q), sends.signalsNextOfBurst(q));
                    sends.countPosted(q, sent);
                    totalPosted += sent;
                }
            }
            if (totalCompleted < totalPosted) {
                int n = completions.poll("the completion of request", totalCompleted + 1);
                last = System.nanoTime();
                Completions batch = completions.batch();
                for (int i = 0; i < n; i++) {
                    totalCompleted += sends.complete(batch.wrId(i));
                }
            }
        }
        elapsed = last - first;
        return totalCompleted;
    }

    private long elapsed;

    /** The time {@link #runUntil} took from its first post to its last completion. */
    public long elapsedNanos() {
        return elapsed;
    }
}
