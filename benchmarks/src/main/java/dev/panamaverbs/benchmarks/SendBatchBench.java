package dev.panamaverbs.benchmarks;

import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.SendBatch;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.ValueLayout;
import java.util.Set;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Setup;

/**
 * A 16-request batch through the extended post API ({@link SendBatch}: {@code ibv_wr_start}, 16
 * × {@code ibv_wr_rdma_write} + {@code ibv_wr_set_sge}, {@code ibv_wr_complete}) against the same
 * 16 requests chained through {@code next} and posted with one {@link dev.panamaverbs.QueuePair#postSend}
 * ({@code ibv_post_send}), on a real device: the same RC loopback pair ({@link LoopbackPair},
 * both queue pairs created with RDMA WRITE as an extended send operation, so both methods post on
 * the same queue pair), the same 64-byte RDMA WRITEs A -> B, only the last signaled. Each
 * invocation posts the 16 and polls A's queue until the last one's completion. Reported per work
 * request. The host-side twin, against the fake provider, is {@code OpsTableBench.postSendChain16}
 * / {@code qpExBatch16}.
 *
 * <p>Allocation: after measuring, {@link #tearDown} runs the benchmark's method 1,000 times more
 * while counting this thread's allocated bytes and prints {@code # allocation check: ...}.
 */
public class SendBatchBench extends LoopbackBench {
    private static final int ALLOCATION_CHECK_INVOCATIONS = 1000;
    private static final long WR_FIRST = 100;
    private static final long WR_LAST = WR_FIRST + BATCH - 1;

    private SendWorkRequest chain;
    private SendWorkRequest[] requests;
    private SendBatch batch;

    @Setup(Level.Trial)
    public void setUp() {
        openPair(Set.of(WorkRequestOpcode.RDMA_WRITE), BATCH);
        MemoryRegion a = pair.bufferA();
        MemoryRegion b = pair.bufferB();
        requests = new SendWorkRequest[BATCH];
        SendWorkRequest next = null;
        for (int i = BATCH - 1; i >= 0; i--) {
            long offset = (long) i * SIZE;
            requests[i] = SendWorkRequest.allocate(arena, 1).wrId(WR_FIRST + i).opcode(WorkRequestOpcode.RDMA_WRITE)
                    .sge(a, offset, SIZE).rdma(b.addressAt(offset, SIZE), b.rkey()).signaled(i == BATCH - 1);
            next = requests[i].next(next);
        }
        chain = next;
        batch = SendBatch.allocate(arena, pair.a(), BATCH);
        checkBothMove();
    }

    /** Before measuring: each method really moves all 16 × 64 bytes, so the two post the same work. */
    private void checkBothMove() {
        for (boolean extended : new boolean[] {false, true}) {
            byte mark = (byte) (extended ? 0x3C : 0x5A);
            pair.bufferA().memory().asSlice(0, BATCH * SIZE).fill(mark);
            pair.bufferB().memory().asSlice(0, BATCH * SIZE).fill((byte) 0);
            if (extended) {
                sendBatch16();
            } else {
                postSendChain16();
            }
            for (long at = 0; at < BATCH * SIZE; at++) {
                if (pair.bufferB().memory().get(ValueLayout.JAVA_BYTE, at) != mark) {
                    throw new IllegalStateException((extended ? "the ibv_wr_* batch" : "the postSend chain")
                            + " completed but byte " + at + " of B's buffer did not arrive");
                }
            }
        }
    }

    @Override
    void checkAllocation(String method) throws InterruptedException {
        ThreadAllocation.Invocation invocation = method.endsWith("sendBatch16") ? this::sendBatch16 : this::postSendChain16;
        ThreadAllocation.report(method, ThreadAllocation.allocatedIn(ALLOCATION_CHECK_INVOCATIONS, invocation),
                ALLOCATION_CHECK_INVOCATIONS);
    }

    /** The 16 WRITEs chained, one {@code ibv_post_send}, poll to the last completion; per work request. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long postSendChain16() {
        pair.a().postSend(chain);
        return awaitLast();
    }

    /** The same 16 WRITEs as one {@code ibv_wr_*} batch, poll to the last completion; per work request. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long sendBatch16() {
        batch.start();
        for (SendWorkRequest request : requests) {
            batch.add(request);
        }
        batch.complete();
        return awaitLast();
    }

    private long awaitLast() {
        LoopbackPair.awaitWrId(pair.queueA(), completions, WR_LAST, TIMEOUT_NANOS);
        return WR_LAST;
    }
}
