package dev.panamaverbs.perftest.run;

import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.Completions;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.SendWorkRequest;
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
    private static final long COUNT_MASK = (1L << QP_SHIFT) - 1;

    private final QueuePair[] qps;
    private final SendWorkRequest[] signaled;
    private final SendWorkRequest[] unsignaled;
    private final CompletionWaiter completions;
    private final int txDepth;
    private final int cqModeration;
    private final int postList;
    /** Per queue pair, the post list's requests, chained in order; null when {@code postList} is 1. */
    private final SendWorkRequest[][] lists;
    /** Per queue pair: requests posted and completed in the current run. */
    private final long[] scnt;
    private final long[] ccnt;

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
        this.txDepth = txDepth;
        this.cqModeration = cqModeration;
        this.postList = postList;
        int n = qps.length;
        this.signaled = new SendWorkRequest[n];
        this.unsignaled = new SendWorkRequest[n];
        this.lists = postList == 1 ? null : new SendWorkRequest[n][];
        this.scnt = new long[n];
        this.ccnt = new long[n];
        for (int q = 0; q < n; q++) {
            long address = remoteAddresses[q];
            int rkey = remoteRkeys[q];
            int remoteQpn = remoteQpns[q];
            signaled[q] = request(arena, buffer, opcode, size, maxInline, address, rkey, ah, remoteQpn, qkey, true);
            unsignaled[q] = request(arena, buffer, opcode, size, maxInline, address, rkey, ah, remoteQpn, qkey, false);
            if (lists != null) {
                SendWorkRequest[] list = new SendWorkRequest[postList];
                for (int k = postList - 1; k >= 0; k--) {
                    list[k] = request(arena, buffer, opcode, size, maxInline, address, rkey, ah, remoteQpn, qkey,
                            (k + 1) % cqModeration == 0);
                    if (k < postList - 1) {
                        list[k].next(list[k + 1]);
                    }
                }
                lists[q] = list;
            }
        }
    }

    /**
     * Posts queue pair {@code q}'s next unit from its request number {@code from} (0-based): one
     * request (signaled as {@code signal} says) or the whole post list. Returns how many went out.
     */
    private int postNext(int q, long from, boolean signal) {
        long tag = (long) q << QP_SHIFT;
        if (lists == null) {
            SendWorkRequest request = signal ? signaled[q] : unsignaled[q];
            request.wrId(tag | (from + 1));
            qps[q].postSend(request);
            return 1;
        }
        SendWorkRequest[] list = lists[q];
        for (int k = 0; k < postList; k++) {
            list[k].wrId(tag | (from + k + 1));
        }
        qps[q].postSend(list[0]);
        return postList;
    }

    private static SendWorkRequest request(Arena arena, MemoryRegion buffer, WorkRequestOpcode opcode, int size, int maxInline,
                                           long remoteAddress, int remoteRkey, AddressHandle ah, int remoteQpn, int qkey,
                                           boolean signaled) {
        SendWorkRequest request = SendWorkRequest.allocate(arena, 1).opcode(opcode).signaled(signaled);
        switch (opcode) {
            case RDMA_WRITE -> request.inline(size <= maxInline).sge(0, buffer, 0, size).rdma(remoteAddress, remoteRkey);
            case SEND -> {
                request.inline(size <= maxInline).sge(0, buffer, 0, size);
                if (ah != null) {
                    request.ud(ah, remoteQpn, qkey);
                }
            }
            case RDMA_READ -> request.sge(0, buffer, 0, size).rdma(remoteAddress, remoteRkey);
            case ATOMIC_FETCH_AND_ADD -> request.sge(0, buffer, 0, 8).atomicFetchAndAdd(remoteAddress, remoteRkey, 1);
            // perftest's -A CMP_AND_SWAP: the operation's cost is measured, not its outcome.
            case ATOMIC_CMP_AND_SWP -> request.sge(0, buffer, 0, 8).atomicCompareAndSwap(remoteAddress, remoteRkey, 0, 0);
            default -> throw new IllegalArgumentException("not a bandwidth opcode: " + opcode);
        }
        return request;
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
        java.util.Arrays.fill(scnt, 0);
        java.util.Arrays.fill(ccnt, 0);
        long total = (long) iterations * qps.length;
        int totalPosted = 0;
        int totalCompleted = 0;
        while (totalCompleted < total) {
            for (int q = 0; q < qps.length; q++) {
                while (scnt[q] < iterations && scnt[q] - ccnt[q] + postList <= txDepth) {
                    boolean signal = (scnt[q] + 1) % cqModeration == 0 || scnt[q] + 1 == iterations;
                    long now = System.nanoTime();
                    int sent = postNext(q, scnt[q], signal);
                    for (int k = 0; k < sent; k++) {
                        posted[totalPosted++] = now;
                    }
                    scnt[q] += sent;
                }
            }
            int n = completions.poll("the completion of request", totalCompleted + 1);
            long now = System.nanoTime();
            Completions batch = completions.batch();
            for (int i = 0; i < n; i++) {
                long wrId = batch.wrId(i);
                int q = (int) (wrId >>> QP_SHIFT);
                long upTo = wrId & COUNT_MASK;
                while (ccnt[q] < upTo) {
                    ccnt[q]++;
                    completed[totalCompleted++] = now;
                }
            }
        }
    }

    /**
     * Duration mode ({@code -D}): keeps {@code -t} requests outstanding on each queue pair until
     * {@code endNanos}, then waits for those still out. Returns the iterations completed (all
     * queue pairs'); {@link #elapsedNanos} the time from the first post to the last completion.
     */
    public long runUntil(long endNanos) {
        java.util.Arrays.fill(scnt, 0);
        java.util.Arrays.fill(ccnt, 0);
        long totalPosted = 0;
        long totalCompleted = 0;
        long first = System.nanoTime();
        long last = first;
        while (totalCompleted < totalPosted || System.nanoTime() - endNanos < 0) {
            boolean posting = System.nanoTime() - endNanos < 0;
            for (int q = 0; posting && q < qps.length; q++) {
                while (scnt[q] - ccnt[q] + postList <= txDepth) {
                    // every burst fills the window and ends signaled (a post list always does), so the
                    // last request posted always completes
                    boolean signal = (scnt[q] + 1) % cqModeration == 0 || scnt[q] - ccnt[q] + 1 == txDepth;
                    int sent = postNext(q, scnt[q], signal);
                    scnt[q] += sent;
                    totalPosted += sent;
                }
            }
            if (totalCompleted < totalPosted) {
                int n = completions.poll("the completion of request", totalCompleted + 1);
                last = System.nanoTime();
                Completions batch = completions.batch();
                for (int i = 0; i < n; i++) {
                    long wrId = batch.wrId(i);
                    int q = (int) (wrId >>> QP_SHIFT);
                    long upTo = wrId & COUNT_MASK;
                    if (upTo > ccnt[q]) {
                        totalCompleted += upTo - ccnt[q];
                        ccnt[q] = upTo;
                    }
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
