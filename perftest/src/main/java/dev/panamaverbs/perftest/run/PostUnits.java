package dev.panamaverbs.perftest.run;

import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.Arena;

/**
 * What a bandwidth sender posts on each of its queue pairs, built once ({@code ctx_set_send_wqes}):
 * one request signaled and one not, or with a post list ({@code -l} &gt; 1) a chain of that many,
 * signaled where {@code -Q} divides the position (so always at its end: the list is a multiple
 * of {@code -Q}), posted by one {@code ibv_post_send}. Only the {@code wr_id}s change per post
 * ({@link SendWindows#wrId}). The opcode is the test's verb, always on the peer's target.
 * Shared by {@link PostingBandwidth} and {@link BidirectionalSending}; allocates nothing per post.
 */
final class PostUnits {
    private final QueuePair[] qps;
    private final SendWindows sends;
    private final SendWorkRequest[] signaled;
    private final SendWorkRequest[] unsignaled;
    private final int postList;
    /** Per queue pair, the post list's requests, chained in order; null when {@code postList} is 1. */
    private final SendWorkRequest[][] lists;

    /**
     * @param ah       the peer's address handle on UD ({@code null} otherwise), with {@code remoteQpns} and {@code qkey}
     * @param postList requests per post ({@code -l}); above 1, a multiple of {@code cqModeration}
     */
    PostUnits(QueuePair[] qps, SendWindows sends, MemoryRegion buffer, WorkRequestOpcode opcode, int size, int maxInline,
              long[] remoteAddresses, int[] remoteRkeys, AddressHandle ah, int[] remoteQpns, int qkey, int postList,
              int cqModeration, Arena arena) {
        this.qps = qps.clone();
        this.sends = sends;
        this.postList = postList;
        int n = qps.length;
        this.signaled = new SendWorkRequest[n];
        this.unsignaled = new SendWorkRequest[n];
        this.lists = postList == 1 ? null : new SendWorkRequest[n][];
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

    /** Requests per post: 1, or the post list. */
    int size() {
        return postList;
    }

    /**
     * Posts queue pair {@code q}'s next unit from its request number {@code from} (0-based): one
     * request (signaled as {@code signal} says) or the whole post list. Returns how many went out.
     */
    int postNext(int q, long from, boolean signal) {
        if (lists == null) {
            SendWorkRequest request = signal ? signaled[q] : unsignaled[q];
            request.wrId(sends.wrId(q, from + 1));
            qps[q].postSend(request);
            return 1;
        }
        SendWorkRequest[] list = lists[q];
        for (int k = 0; k < postList; k++) {
            list[k].wrId(sends.wrId(q, from + k + 1));
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
}
