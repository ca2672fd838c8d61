package dev.panamaverbs.gateway;

import dev.panamaverbs.loader.internal.*;
import dev.panamaverbs.ffm.ibv_poll_cq_attr;
import dev.panamaverbs.ffm.ibv_qp_ex;
import dev.panamaverbs.ffm.invoke.ibv_qp_ex$calls;
import dev.panamaverbs.ffm.ibv_recv_wr;
import dev.panamaverbs.ffm.ibv_send_wr;
import dev.panamaverbs.ffm.ibv_wc;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import java.util.stream.Stream;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * "The data path allocates nothing": the resolved-function invokers of {@link OpsTable} and
 * {@link CqEx}, and the generated {@code ibv_qp_ex} invokers through functions read once, called in
 * a loop against the fake provider, with the thread's allocated bytes read before and after. Not a
 * timing test. Surefire runs this class twice: in the ordinary JIT-enabled fork, and in a fork
 * with {@code -Xint} (verbs-loader/pom.xml), where escape analysis cannot hide an allocation.
 */
class OpsTableAllocationTest {
    private static final int WARM_UP = 2_000;
    private static final int CALLS = 10_000;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static FakeProvider fake;
    private static Arena arena;
    private static long qp;
    private static long cq;
    private static long srq;
    private static long sendWr;
    private static long recvWr;
    private static long badWr;
    private static long wcs;
    private static long cqx;
    private static long qpx;
    private static long pollAttr;
    private static long sge;
    private static long ah;

    /** Written by the control loop so its segments escape (no escape analysis can remove them). */
    static volatile Object sink;

    @BeforeAll
    static void provider() {
        assertTrue(THREADS.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        THREADS.setThreadAllocatedMemoryEnabled(true);
        fake = FakeProvider.standard();
        long context = fake.context();
        qp = fake.qp(context);
        cq = fake.cq(context);
        srq = fake.srq(context);
        arena = Arena.ofShared();
        sendWr = arena.allocate(ibv_send_wr.LAYOUT).address();
        recvWr = arena.allocate(ibv_recv_wr.LAYOUT).address();
        badWr = arena.allocate(JAVA_LONG).address();
        wcs = arena.allocate(ibv_wc.LAYOUT, 16).address();
        cqx = fake.cqEx(context, true);
        qpx = fake.qpEx(context, true);
        pollAttr = arena.allocate(ibv_poll_cq_attr.LAYOUT).address();
        sge = arena.allocate(64).address();
        ah = arena.allocate(64).address();
        segments = Segments.of(arena);
    }

    @AfterAll
    static void close() {
        arena.close();
    }

    /** The segment-variant arguments, in the shared arena, made once. */
    private static Segments segments;

    private record Segments(MemorySegment qp, MemorySegment cq, MemorySegment srq,
                            MemorySegment sendWr, MemorySegment recvWr, MemorySegment badWr, MemorySegment wcs) {
        static Segments of(Arena arena) {
            return new Segments(Pointers.sized(OpsTableAllocationTest.qp, 64),
                    Pointers.sized(OpsTableAllocationTest.cq, 64), Pointers.sized(OpsTableAllocationTest.srq, 64),
                    arena.allocate(ibv_send_wr.LAYOUT),
                    arena.allocate(ibv_recv_wr.LAYOUT), arena.allocate(JAVA_LONG), arena.allocate(ibv_wc.LAYOUT, 16));
        }
    }

    /** A data-path call: its function resolved once (as core does at creation), then called through it. */
    record ResolvedCall(String name, Supplier<MemorySegment> resolve, ToIntFunction<MemorySegment> call) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** The resolved-function invokers of {@link OpsTable}. */
    static Stream<ResolvedCall> opsTableCalls() {
        return Stream.of(
                new ResolvedCall("postSend", () -> OpsTable.resolvePostSend(qp),
                        f -> OpsTablePosts.postSend(f, qp, sendWr, badWr)),
                new ResolvedCall("postRecv", () -> OpsTable.resolvePostRecv(qp),
                        f -> OpsTablePosts.postRecv(f, qp, recvWr, badWr)),
                new ResolvedCall("postSrqRecv", () -> OpsTable.resolvePostSrqRecv(srq),
                        f -> OpsTablePosts.postSrqRecv(f, srq, recvWr, badWr)),
                new ResolvedCall("pollCq", () -> OpsTable.resolvePollCq(cq),
                        f -> OpsTable.pollCq(f, cq, 16, wcs)),
                // The segment variants the data path uses: the arena kept open, still nothing allocated.
                new ResolvedCall("postSend(segments)", () -> OpsTable.resolvePostSend(qp),
                        f -> OpsTable.postSend(f, segments.qp, segments.sendWr, segments.badWr)),
                new ResolvedCall("postRecv(segments)", () -> OpsTable.resolvePostRecv(qp),
                        f -> OpsTable.postRecv(f, segments.qp, segments.recvWr, segments.badWr)),
                new ResolvedCall("postSrqRecv(segments)", () -> OpsTable.resolvePostSrqRecv(srq),
                        f -> OpsTable.postSrqRecv(f, segments.srq, segments.recvWr, segments.badWr)),
                new ResolvedCall("pollCq(segments)", () -> OpsTable.resolvePollCq(cq),
                        f -> OpsTable.pollCq(f, segments.cq, 16, segments.wcs)),
                new ResolvedCall("reqNotifyCq", () -> OpsTable.resolveReqNotifyCq(cq), f -> {
                    OpsTable.reqNotifyCq(f, cq, false);
                    return 0;
                }));
    }

    /** The generated {@code ibv_qp_ex} invokers, through functions read once from the fake {@code ibv_qp_ex}. */
    static Stream<ResolvedCall> qpExCalls() {
        return Stream.of(
                qpExCall("wr_start", ibv_qp_ex.wr_start$OFFSET, f -> {
                    ibv_qp_ex$calls.wr_start$raw(f, qpx);
                    return 0;
                }),
                qpExCall("wr_send", ibv_qp_ex.wr_send$OFFSET, f -> {
                    ibv_qp_ex$calls.wr_send$raw(f, qpx);
                    return 0;
                }),
                qpExCall("wr_set_sge", ibv_qp_ex.wr_set_sge$OFFSET, f -> {
                    ibv_qp_ex$calls.wr_set_sge$raw(f, qpx, 1, sge, 64);
                    return 0;
                }),
                qpExCall("wr_complete", ibv_qp_ex.wr_complete$OFFSET, f -> ibv_qp_ex$calls.wr_complete$raw(f, qpx)),
                qpExCall("wr_rdma_write", ibv_qp_ex.wr_rdma_write$OFFSET, f -> {
                    ibv_qp_ex$calls.wr_rdma_write$raw(f, qpx, 7, 0x1000);
                    return 0;
                }),
                qpExCall("wr_send_imm", ibv_qp_ex.wr_send_imm$OFFSET, f -> {
                    ibv_qp_ex$calls.wr_send_imm$raw(f, qpx, 5);
                    return 0;
                }),
                qpExCall("wr_atomic_cmp_swp", ibv_qp_ex.wr_atomic_cmp_swp$OFFSET, f -> {
                    ibv_qp_ex$calls.wr_atomic_cmp_swp$raw(f, qpx, 7, 0x1000, 1, 2);
                    return 0;
                }),
                qpExCall("wr_set_inline_data", ibv_qp_ex.wr_set_inline_data$OFFSET, f -> {
                    ibv_qp_ex$calls.wr_set_inline_data$raw(f, qpx, sge, 16);
                    return 0;
                }),
                qpExCall("wr_set_ud_addr", ibv_qp_ex.wr_set_ud_addr$OFFSET, f -> {
                    ibv_qp_ex$calls.wr_set_ud_addr$raw(f, qpx, ah, 3, 4);
                    return 0;
                }));
    }

    private static ResolvedCall qpExCall(String name, long offset, ToIntFunction<MemorySegment> call) {
        return new ResolvedCall(name, () -> qpExFunction(offset), call);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource({"opsTableCalls", "qpExCalls"})
    void dataPathCallsAllocateNothing(ResolvedCall verb) {
        MemorySegment function = verb.resolve().get();
        assertNoAllocation(verb.name(), () -> verb.call().applyAsInt(function));
    }

    // ---- CqEx: functions read once, then called through ----

    @Test
    void cqExPollingAllocatesNothing() {
        CqEx.Functions fns = CqEx.resolve(cqx);
        assertNoAllocation("CqEx.startPoll", () -> CqEx.startPoll(fns, cqx, pollAttr));
        assertNoAllocation("CqEx.endPoll", () -> {
            CqEx.endPoll(fns, cqx);
            return 0;
        });
    }

    @Test
    void cqExReadersAllocateNothing() {
        CqEx.Functions fns = CqEx.resolve(cqx);
        assertNoAllocation("CqExReaders.readOpcode", () -> CqExReaders.readOpcode(fns, cqx));
        assertNoAllocation("CqExReaders.readByteLen", () -> CqExReaders.readByteLen(fns, cqx));
        assertNoAllocation("CqExReaders.readSl", () -> CqExReaders.readSl(fns, cqx));
        assertNoAllocation("CqExReaders.readCompletionTs", () -> (int) CqExReaders.readCompletionTs(fns, cqx));
    }

    /**
     * A whole one-request {@code ibv_wr_*} batch through {@link QpEx}: start, the request's
     * translation (wr_id, wr_flags, the opcode, a two-entry sge list), complete.
     */
    @Test
    void qpExBatchAllocatesNothing() {
        QpEx.Functions fns = QpEx.resolve(qpx);
        MemorySegment wr = arena.allocate(ibv_send_wr.LAYOUT);
        ibv_send_wr.opcode(wr, dev.panamaverbs.ffm.VerbsConstants.IBV_WR_SEND_WITH_IMM);
        ibv_send_wr.wr_id(wr, 42);
        ibv_send_wr.num_sge(wr, 2);
        ibv_send_wr.sg_list(wr, MemorySegment.ofAddress(sge));
        long wrAddress = wr.address();
        long dataBufs = arena.allocate(64).address();
        int rc = dev.panamaverbs.ffm.VerbsConstants.IBV_QPT_RC;
        assertNoAllocation("QpEx batch", 4, () -> {
            QpEx.start(fns, qpx);
            QpEx.post(fns, qpx, rc, wrAddress, dataBufs);
            return QpEx.complete(fns, qpx);
        });
    }

    /** The fake {@code ibv_qp_ex}'s function at {@code offset}, read once, as an API would at creation. */
    private static MemorySegment qpExFunction(long offset) {
        return MemorySegment.ofAddress(Memory.readLong(qpx + offset));
    }

    /** The meter works: wrapping the function per call, as the invokers used to, is counted. */
    @Test
    void theMeterSeesAPerCallSegment() {
        long function = OpsTable.resolvePollCq(cq).address();
        long bytes = allocatedBy(() -> {
            MemorySegment wrapped = MemorySegment.ofAddress(function);
            sink = wrapped;
            return (int) wrapped.byteSize();
        });
        assertTrue(bytes >= 16L * CALLS, "a segment per call should be counted, got " + bytes + " B for " + CALLS);
    }

    private static void assertNoAllocation(String what, IntSupplier call) {
        assertNoAllocation(what, 1, call);
    }

    /** As above, for an invocation that makes {@code providerCalls} calls into the provider. */
    private static void assertNoAllocation(String what, int providerCalls, IntSupplier call) {
        long calls = fake.calls();
        long bytes = allocatedBy(call);
        assertEquals(calls + (long) providerCalls * (WARM_UP + CALLS), fake.calls(), "every call reached the provider");
        // Less than one byte per call: a stray allocation would be tens of bytes each time.
        assertTrue(bytes < CALLS, what + " allocated " + bytes + " B over " + CALLS + " calls");
    }

    /** Bytes this thread allocated over {@link #CALLS} calls, after {@link #WARM_UP} of the same. */
    private static long allocatedBy(IntSupplier call) {
        int sum = 0;
        for (int i = 0; i < WARM_UP; i++) {
            sum += call.getAsInt();
        }
        long before = THREADS.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < CALLS; i++) {
            sum += call.getAsInt();
        }
        long after = THREADS.getCurrentThreadAllocatedBytes();
        sink = sum; // after the measurement: boxing here is not counted
        return after - before;
    }
}
