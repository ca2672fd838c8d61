package dev.panamaverbs.perftest.run;

import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.Completions;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.Arena;

/**
 * The sending side of a bandwidth test ({@code run_iter_bw}): keeps up to {@code -t} requests
 * outstanding, one in {@code -Q} signaled (and the last), and times each post and, per
 * completion, every iteration it covers. The opcode is the test's verb: RDMA WRITE or SEND of
 * {@code size} bytes, RDMA READ of {@code size} bytes, or an 8-byte fetch-and-add, always on the
 * peer's target. Allocates nothing per iteration: the two requests (signaled and not) are built
 * once, and only their {@code wr_id} changes. With a post list ({@code -l} &gt; 1) the unit is a
 * chain of that many requests, built once and posted by one {@code ibv_post_send}, signaled where
 * {@code -Q} divides the position (so always at its end: the list is a multiple of {@code -Q}).
 */
public final class PostingBandwidth {
    private final QueuePair qp;
    private final SendWorkRequest signaled;
    private final SendWorkRequest unsignaled;
    private final CompletionWaiter completions;
    private final int txDepth;
    private final int cqModeration;
    private final int postList;
    /** The post list's requests, chained in order; null when {@code postList} is 1. */
    private final SendWorkRequest[] list;

    /**
     * @param opcode        RDMA_WRITE, SEND, RDMA_READ, ATOMIC_FETCH_AND_ADD or ATOMIC_CMP_AND_SWP
     * @param ah            the peer's address handle on UD ({@code null} otherwise), with {@code remoteQpn} and {@code qkey}
     * @param postList      requests per post ({@code -l}); above 1, a multiple of {@code cqModeration}
     */
    public PostingBandwidth(QueuePair qp, MemoryRegion buffer, WorkRequestOpcode opcode, int size, int maxInline,
                            long remoteAddress, int remoteRkey, AddressHandle ah, int remoteQpn, int qkey, int txDepth,
                            int postList, int cqModeration, CompletionWaiter completions, Arena arena) {
        if (postList < 1 || postList > txDepth || (postList > 1 && postList % cqModeration != 0)) {
            throw new IllegalArgumentException("post list " + postList + " with tx depth " + txDepth + " and CQ moderation "
                    + cqModeration + ": the list must fit the tx depth and be a multiple of the moderation");
        }
        this.qp = qp;
        this.completions = completions;
        this.txDepth = txDepth;
        this.cqModeration = cqModeration;
        this.postList = postList;
        this.signaled = request(arena, buffer, opcode, size, maxInline, remoteAddress, remoteRkey, ah, remoteQpn, qkey, true);
        this.unsignaled = request(arena, buffer, opcode, size, maxInline, remoteAddress, remoteRkey, ah, remoteQpn, qkey, false);
        if (postList == 1) {
            this.list = null;
        } else {
            this.list = new SendWorkRequest[postList];
            for (int k = postList - 1; k >= 0; k--) {
                list[k] = request(arena, buffer, opcode, size, maxInline, remoteAddress, remoteRkey, ah, remoteQpn, qkey,
                        (k + 1) % cqModeration == 0);
                if (k < postList - 1) {
                    list[k].next(list[k + 1]);
                }
            }
        }
    }

    /**
     * Posts the next unit from request number {@code scnt} (0-based): one request (signaled as
     * {@code signal} says) or the whole post list. Returns how many requests went out.
     */
    private int postNext(long scnt, boolean signal) {
        if (list == null) {
            SendWorkRequest request = signal ? signaled : unsignaled;
            request.wrId(scnt + 1);
            qp.postSend(request);
            return 1;
        }
        for (int k = 0; k < postList; k++) {
            list[k].wrId(scnt + k + 1);
        }
        qp.postSend(list[0]);
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

    /** Runs {@code iterations}: {@code posted[i]} and {@code completed[i]} get when iteration i was posted and completed (ns). */
    public void run(int iterations, long[] posted, long[] completed) {
        if (iterations % postList != 0) {
            throw new IllegalArgumentException(iterations + " iterations are not a multiple of the post list " + postList);
        }
        int scnt = 0;
        int ccnt = 0;
        while (ccnt < iterations) {
            while (scnt < iterations && scnt - ccnt + postList <= txDepth) {
                boolean signal = (scnt + 1) % cqModeration == 0 || scnt + 1 == iterations;
                long now = System.nanoTime();
                int sent = postNext(scnt, signal);
                for (int k = 0; k < sent; k++) {
                    posted[scnt + k] = now;
                }
                scnt += sent;
            }
            int n = completions.poll("the completion of request", ccnt + 1);
            long now = System.nanoTime();
            Completions batch = completions.batch();
            for (int i = 0; i < n; i++) {
                int upTo = (int) batch.wrId(i);
                while (ccnt < upTo) {
                    completed[ccnt++] = now;
                }
            }
        }
    }

    /**
     * Duration mode ({@code -D}): keeps {@code -t} requests outstanding until {@code endNanos}, then
     * waits for those still out. Returns the iterations completed; {@link #elapsedNanos} the time
     * from the first post to the last completion.
     */
    public long runUntil(long endNanos) {
        long scnt = 0;
        long ccnt = 0;
        long first = System.nanoTime();
        long last = first;
        while (ccnt < scnt || System.nanoTime() - endNanos < 0) {
            boolean posting = System.nanoTime() - endNanos < 0;
            while (posting && scnt - ccnt + postList <= txDepth) {
                // every burst fills the window and ends signaled (a post list always does), so the
                // last request posted always completes
                boolean signal = (scnt + 1) % cqModeration == 0 || scnt - ccnt + 1 == txDepth;
                scnt += postNext(scnt, signal);
            }
            if (ccnt < scnt) {
                int n = completions.poll("the completion of request", ccnt + 1);
                last = System.nanoTime();
                Completions batch = completions.batch();
                for (int i = 0; i < n; i++) {
                    ccnt = Math.max(ccnt, batch.wrId(i));
                }
            }
        }
        elapsed = last - first;
        return ccnt;
    }

    private long elapsed;

    /** The time {@link #runUntil} took from its first post to its last completion. */
    public long elapsedNanos() {
        return elapsed;
    }
}
