package dev.panamaverbs.perftest.run;

import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.Arena;

/**
 * ib_read_lat's and ib_atomic_lat's loop ({@code run_iter_lat}): the client posts one RDMA READ
 * of {@code size} bytes (or one 8-byte fetch-and-add) on the peer's target and waits for its
 * completion before the next; a gap is one round trip. The server takes no part. Allocates
 * nothing per iteration.
 */
public final class OneSidedLatency {
    private final QueuePair qp;
    private final SendWorkRequest request;
    private final CompletionWaiter completions;

    /**
     * @param atomic ATOMIC_FETCH_AND_ADD or ATOMIC_CMP_AND_SWP ({@code -A}) for atomic_lat; {@code null} for read_lat
     */
    public OneSidedLatency(QueuePair qp, MemoryRegion buffer, WorkRequestOpcode atomic, int size, long remoteAddress,
                           int remoteRkey, CompletionWaiter completions, Arena arena) {
        this.qp = qp;
        this.completions = completions;
        this.request = SendWorkRequest.allocate(arena, 1).wrId(4).signaled(true);
        if (atomic == WorkRequestOpcode.ATOMIC_CMP_AND_SWP) {
            request.opcode(atomic).sge(0, buffer, 0, 8).atomicCompareAndSwap(remoteAddress, remoteRkey, 0, 0);
        } else if (atomic != null) {
            request.opcode(WorkRequestOpcode.ATOMIC_FETCH_AND_ADD).sge(0, buffer, 0, 8).atomicFetchAndAdd(remoteAddress, remoteRkey, 1);
        } else {
            request.opcode(WorkRequestOpcode.RDMA_READ).sge(0, buffer, 0, size).rdma(remoteAddress, remoteRkey);
        }
    }

    /** Runs {@code iterations}; {@code posted[i]} gets when request i was posted (ns). */
    public void run(int iterations, long[] posted) {
        for (int i = 0; i < iterations; i++) {
            posted[i] = System.nanoTime();
            qp.postSend(request);
            completions.poll("the completion of request", i + 1);
        }
    }

    /** Duration mode ({@code -D}): requests one after the other until {@code endNanos}; returns how many. */
    public long runUntil(long endNanos) {
        long done = 0;
        while (System.nanoTime() - endNanos < 0) {
            qp.postSend(request);
            completions.poll("the completion of request", ++done);
        }
        return done;
    }
}
