package dev.panamaverbs.loader;

import dev.panamaverbs.ffm.ibv_poll_cq_attr;
import dev.panamaverbs.ffm.ibv_recv_wr;
import dev.panamaverbs.ffm.ibv_send_wr;
import dev.panamaverbs.ffm.ibv_wc;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.function.IntSupplier;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * "The data path allocates nothing": the resolved-function invokers of {@link OpsTable}, and of
 * {@link CqEx} and {@link QpEx} through their {@code Functions}, called in
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
    }

    @AfterAll
    static void close() {
        arena.close();
    }

    @Test
    void postSendAllocatesNothing() {
        MemorySegment postSend = OpsTable.resolvePostSend(qp);
        assertNoAllocation("postSend", () -> OpsTable.postSend(postSend, qp, sendWr, badWr));
    }

    @Test
    void postRecvAllocatesNothing() {
        MemorySegment postRecv = OpsTable.resolvePostRecv(qp);
        assertNoAllocation("postRecv", () -> OpsTable.postRecv(postRecv, qp, recvWr, badWr));
    }

    @Test
    void postSrqRecvAllocatesNothing() {
        MemorySegment postSrqRecv = OpsTable.resolvePostSrqRecv(srq);
        assertNoAllocation("postSrqRecv", () -> OpsTable.postSrqRecv(postSrqRecv, srq, recvWr, badWr));
    }

    @Test
    void pollCqAllocatesNothing() {
        MemorySegment pollCq = OpsTable.resolvePollCq(cq);
        assertNoAllocation("pollCq", () -> OpsTable.pollCq(pollCq, cq, 16, wcs));
    }

    @Test
    void reqNotifyCqAllocatesNothing() {
        MemorySegment reqNotifyCq = OpsTable.resolveReqNotifyCq(cq);
        assertNoAllocation("reqNotifyCq", () -> {
            OpsTable.reqNotifyCq(reqNotifyCq, cq, false);
            return 0;
        });
    }

    // ---- CqEx and QpEx: resolved once into a Functions record, then called through it ----

    @Test
    void cqExPollingAllocatesNothing() {
        CqEx.Functions fns = CqEx.resolve(cqx);
        assertNoAllocation("CqEx.startPoll", () -> CqEx.startPoll(fns, cqx, pollAttr) ? 1 : 0);
        assertNoAllocation("CqEx.nextPoll", () -> CqEx.nextPoll(fns, cqx) ? 1 : 0);
        assertNoAllocation("CqEx.endPoll", () -> {
            CqEx.endPoll(fns, cqx);
            return 0;
        });
    }

    @Test
    void cqExReadersAllocateNothing() {
        CqEx.Functions fns = CqEx.resolve(cqx);
        assertNoAllocation("CqEx.readOpcode", () -> CqEx.readOpcode(fns, cqx));
        assertNoAllocation("CqEx.readByteLen", () -> CqEx.readByteLen(fns, cqx));
        assertNoAllocation("CqEx.readSl", () -> CqEx.readSl(fns, cqx));
        assertNoAllocation("CqEx.readCompletionTs", () -> (int) CqEx.readCompletionTs(fns, cqx));
    }

    @Test
    void qpExBatchAllocatesNothing() {
        QpEx.Functions fns = QpEx.resolve(qpx);
        assertNoAllocation("QpEx.wrStart", () -> {
            QpEx.wrStart(fns, qpx);
            return 0;
        });
        assertNoAllocation("QpEx.wrSend", () -> {
            QpEx.wrSend(fns, qpx);
            return 0;
        });
        assertNoAllocation("QpEx.wrSetSge", () -> {
            QpEx.wrSetSge(fns, qpx, 1, sge, 64);
            return 0;
        });
        assertNoAllocation("QpEx.wrComplete", () -> QpEx.wrComplete(fns, qpx));
    }

    @Test
    void qpExOpcodesAllocateNothing() {
        QpEx.Functions fns = QpEx.resolve(qpx);
        assertNoAllocation("QpEx.wrRdmaWrite", () -> {
            QpEx.wrRdmaWrite(fns, qpx, 7, 0x1000);
            return 0;
        });
        assertNoAllocation("QpEx.wrSendImm", () -> {
            QpEx.wrSendImm(fns, qpx, 5);
            return 0;
        });
        assertNoAllocation("QpEx.wrAtomicCmpSwp", () -> {
            QpEx.wrAtomicCmpSwp(fns, qpx, 7, 0x1000, 1, 2);
            return 0;
        });
        assertNoAllocation("QpEx.wrSetInlineData", () -> {
            QpEx.wrSetInlineData(fns, qpx, sge, 16);
            return 0;
        });
        assertNoAllocation("QpEx.wrSetUdAddr", () -> {
            QpEx.wrSetUdAddr(fns, qpx, ah, 3, 4);
            return 0;
        });
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
        long calls = fake.calls();
        long bytes = allocatedBy(call);
        assertEquals(calls + WARM_UP + CALLS, fake.calls(), "every call reached the provider");
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
