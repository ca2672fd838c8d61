package dev.panamaverbs.gateway;

import dev.panamaverbs.loader.internal.*;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.ffm.ibv_recv_wr;
import dev.panamaverbs.ffm.ibv_send_wr;
import dev.panamaverbs.ffm.ibv_wc;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ops-table verbs against a fake provider whose ops record the arguments they receive. */
class OpsTableTest extends ProcessFakeProviderTest {
    private static long qp;
    private static long cq;
    private static long srq;

    private MemorySegment sendWr;
    private MemorySegment recvWr;
    private MemorySegment badWr;

    @BeforeAll
    static void queues() {
        qp = fake.qp(context);
        cq = fake.cq(context);
        srq = fake.srq(context);
    }

    @BeforeEach
    void requests() {
        sendWr = arena.allocate(ibv_send_wr.LAYOUT);
        recvWr = arena.allocate(ibv_recv_wr.LAYOUT);
        badWr = arena.allocate(JAVA_LONG);
    }

    @Test
    void resolvingReadsTheContextsOpsOnce() {
        MemorySegment postSend = OpsTable.resolvePostSend(qp);
        assertTrue(postSend.address() != 0);
        assertEquals(postSend.address(), OpsTable.resolvePostSend(fake.qp(context)).address(),
                "QPs of one context share its ops table");
        assertTrue(postSend.address() != OpsTable.resolvePostRecv(qp).address());
        assertTrue(OpsTable.resolvePollCq(cq).address() != OpsTable.resolveReqNotifyCq(cq).address());
        assertTrue(OpsTable.resolvePostSrqRecv(srq).address() != 0);
        long before = fake.calls();
        OpsTable.resolvePostSend(qp);
        OpsTable.resolvePostRecv(qp);
        OpsTable.resolvePostSrqRecv(srq);
        OpsTable.resolvePollCq(cq);
        OpsTable.resolveReqNotifyCq(cq);
        assertEquals(before, fake.calls(), "resolving calls nothing");
        assertEquals("", fake.lastOp());
    }

    @Test
    void postSendDeliversExactlyItsArguments() {
        MemorySegment postSend = OpsTable.resolvePostSend(qp);
        long before = fake.calls();
        assertEquals(0, OpsTablePosts.postSend(postSend, qp, sendWr.address(), badWr.address()));
        assertLastCall("post_send", qp, sendWr.address(), badWr.address());
        assertEquals(before + 1, fake.calls());
    }

    @Test
    void postSendReturnsTheProvidersErrnoAndBadWr() {
        MemorySegment postSend = OpsTable.resolvePostSend(qp);
        fake.nextReturn(TestErrno.ENOMEM);
        assertEquals(TestErrno.ENOMEM, OpsTablePosts.postSend(postSend, qp, sendWr.address(), badWr.address()));
        assertEquals(sendWr.address(), badWr.get(JAVA_LONG, 0), "the provider's bad_wr reaches the caller");
    }

    @Test
    void postRecvDeliversExactlyItsArguments() {
        assertPostsReceives("post_recv", qp, OpsTable.resolvePostRecv(qp), OpsTablePosts::postRecv, TestErrno.EINVAL);
    }

    @Test
    void postSrqRecvGoesThroughTheSrqsContext() {
        assertPostsReceives("post_srq_recv", srq, OpsTable.resolvePostSrqRecv(srq), OpsTablePosts::postSrqRecv,
                TestErrno.ENOMEM);
    }

    /** {@link OpsTablePosts#postRecv} and {@link OpsTablePosts#postSrqRecv}: same arguments, same answer. */
    private interface ReceivePost {
        int post(MemorySegment function, long queue, long wr, long badWrOut);
    }

    /** Both receive verbs deliver exactly their arguments, and hand back the provider's errno and bad_wr. */
    private void assertPostsReceives(String op, long queue, MemorySegment function, ReceivePost verb, int errno) {
        assertEquals(0, verb.post(function, queue, recvWr.address(), badWr.address()));
        assertEquals(op, fake.lastOp());
        assertEquals(queue, fake.arg(0));
        assertEquals(recvWr.address(), fake.arg(1));
        assertEquals(badWr.address(), fake.arg(2));

        fake.nextReturn(errno);
        assertEquals(errno, verb.post(function, queue, recvWr.address(), badWr.address()));
        assertEquals(recvWr.address(), badWr.get(JAVA_LONG, 0));
    }

    @Test
    void pollCqDeliversItsArgumentsAndReturnsTheCount() {
        MemorySegment pollCq = OpsTable.resolvePollCq(cq);
        MemorySegment wcs = arena.allocate(ibv_wc.LAYOUT, 16);
        fake.nextReturn(3);
        assertEquals(3, OpsTable.pollCq(pollCq, cq, 16, wcs.address()));
        assertLastCall("poll_cq", cq, 16, wcs.address());
        assertEquals(1002, wcs.get(JAVA_LONG, 2 * ibv_wc.SIZE + ibv_wc.wr_id$OFFSET));

        fake.nextReturn(0);
        assertEquals(0, OpsTable.pollCq(pollCq, cq, 16, wcs.address()));
        // num_entries 0 needs no array, as in C.
        assertEquals(0, OpsTable.pollCq(pollCq, cq, 0, 0));
        assertEquals(0, fake.arg(1));
    }

    @Test
    void aNegativePollIsReturnedAsIs() {
        MemorySegment pollCq = OpsTable.resolvePollCq(cq);
        MemorySegment wcs = arena.allocate(ibv_wc.LAYOUT, 4);
        fake.nextReturn(-2);
        assertEquals(-2, OpsTable.pollCq(pollCq, cq, 4, wcs.address()));
    }

    @Test
    void reqNotifyCqPassesSolicitedOnlyAndMapsErrors() {
        MemorySegment reqNotifyCq = OpsTable.resolveReqNotifyCq(cq);
        assertEquals(0, OpsTable.reqNotifyCq(reqNotifyCq, cq, true));
        assertLastCall("req_notify_cq", cq, 1);
        assertEquals(0, OpsTable.reqNotifyCq(reqNotifyCq, cq, false));
        assertEquals(0, fake.arg(1));

        fake.nextReturn(TestErrno.EINVAL);
        assertEquals(TestErrno.EINVAL, OpsTable.reqNotifyCq(reqNotifyCq, cq, false));
    }

    @Test
    void nullOpsResolveToNullAndAreNeverCalled() {
        long bare = fake.context(true, fake.verbsContextSize(), false);
        long bareQp = fake.qp(bare);
        long bareCq = fake.cq(bare);
        long bareSrq = fake.srq(bare);
        long before = fake.calls();

        assertEquals(MemorySegment.NULL, OpsTable.resolvePostSend(bareQp));
        assertEquals(MemorySegment.NULL, OpsTable.resolvePostRecv(bareQp));
        assertEquals(MemorySegment.NULL, OpsTable.resolvePostSrqRecv(bareSrq));
        assertEquals(MemorySegment.NULL, OpsTable.resolvePollCq(bareCq));
        assertEquals(MemorySegment.NULL, OpsTable.resolveReqNotifyCq(bareCq));
        assertEquals(0, OpsTable.allocMw(state, fake.pd(bare), 2), "the header's answer: NULL");
        assertEquals(TestErrno.EOPNOTSUPP, CallState.errno(state), "with errno EOPNOTSUPP");
        assertEquals(TestErrno.EOPNOTSUPP, OpsTable.bindMw(bareQp, fake.pd(bare), arena.allocate(64).address()),
                "bind_mw of a provider without it (read through the object's context, like mw->context)");
        assertEquals(before, fake.calls(), "nothing was called");
    }

    @Test
    void nullArgumentsAreRejectedBeforeAnyCall() {
        MemorySegment postSend = OpsTable.resolvePostSend(qp);
        MemorySegment postRecv = OpsTable.resolvePostRecv(qp);
        MemorySegment postSrqRecv = OpsTable.resolvePostSrqRecv(srq);
        MemorySegment pollCq = OpsTable.resolvePollCq(cq);
        MemorySegment reqNotifyCq = OpsTable.resolveReqNotifyCq(cq);
        long before = fake.calls();
        IllegalArgumentException noQp = assertThrows(IllegalArgumentException.class,
                () -> OpsTablePosts.postSend(postSend, 0, sendWr.address(), badWr.address()));
        assertTrue(noQp.getMessage().startsWith("ibv_post_send"), noQp.getMessage());
        assertThrows(IllegalArgumentException.class, () -> OpsTablePosts.postSend(postSend, qp, 0, badWr.address()));
        assertThrows(IllegalArgumentException.class, () -> OpsTablePosts.postSend(postSend, qp, sendWr.address(), 0));
        assertThrows(IllegalArgumentException.class, () -> OpsTablePosts.postRecv(postRecv, 0, recvWr.address(), badWr.address()));
        assertThrows(IllegalArgumentException.class, () -> OpsTablePosts.postRecv(postRecv, qp, 0, badWr.address()));
        assertThrows(IllegalArgumentException.class, () -> OpsTablePosts.postRecv(postRecv, qp, recvWr.address(), 0));
        assertThrows(IllegalArgumentException.class, () -> OpsTablePosts.postSrqRecv(postSrqRecv, 0, recvWr.address(), badWr.address()));
        assertThrows(IllegalArgumentException.class, () -> OpsTablePosts.postSrqRecv(postSrqRecv, srq, 0, badWr.address()));
        assertThrows(IllegalArgumentException.class, () -> OpsTablePosts.postSrqRecv(postSrqRecv, srq, recvWr.address(), 0));
        assertThrows(IllegalArgumentException.class, () -> OpsTable.pollCq(pollCq, 0, 4, sendWr.address()));
        assertThrows(IllegalArgumentException.class, () -> OpsTable.pollCq(pollCq, cq, 4, 0));
        assertThrows(IllegalArgumentException.class, () -> OpsTable.pollCq(pollCq, cq, -1, sendWr.address()));
        assertThrows(IllegalArgumentException.class, () -> OpsTable.reqNotifyCq(reqNotifyCq, 0, false));
        // Resolving a NULL object, or one whose context pointer is NULL.
        IllegalArgumentException noObject = assertThrows(IllegalArgumentException.class, () -> OpsTable.resolvePostSend(0));
        assertTrue(noObject.getMessage().startsWith("ibv_post_send: qp"), noObject.getMessage());
        assertThrows(IllegalArgumentException.class, () -> OpsTable.resolvePostRecv(0));
        assertThrows(IllegalArgumentException.class, () -> OpsTable.resolvePostSrqRecv(0));
        assertThrows(IllegalArgumentException.class, () -> OpsTable.resolvePollCq(0));
        assertThrows(IllegalArgumentException.class, () -> OpsTable.resolveReqNotifyCq(0));
        long orphan = fake.qp(0);
        IllegalArgumentException noContext = assertThrows(IllegalArgumentException.class,
                () -> OpsTable.resolvePostSend(orphan));
        assertTrue(noContext.getMessage().contains("context pointer is NULL"), noContext.getMessage());
        assertEquals(before, fake.calls());
    }

    /** The class-path crash of issue 8: a made-up address is refused, not dereferenced. */
    @Test
    void addressesNoProviderHandsOutAreRefusedBeforeAnyRead() {
        long before = fake.calls();
        for (long bogus : new long[] {16, 0xFFFF, -8, Long.MIN_VALUE}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> OpsTable.resolvePostSend(bogus));
            assertTrue(e.getMessage().contains("is not a user-space pointer"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> OpsTable.resolvePollCq(bogus));
            assertThrows(IllegalArgumentException.class, () -> CqEx.resolve(bogus));
            assertThrows(IllegalArgumentException.class, () -> ExtendedOps.verbsContext(bogus));
        }
        MemorySegment postSend = OpsTable.resolvePostSend(qp);
        assertThrows(IllegalArgumentException.class, () -> OpsTablePosts.postSend(postSend, qp, 16, badWr.address()));
        assertEquals(before, fake.calls());
    }

    @Test
    void nothingCallsThroughANullFunction() {
        long before = fake.calls();
        assertThrows(IllegalArgumentException.class,
                () -> OpsTablePosts.postSend(MemorySegment.NULL, qp, sendWr.address(), badWr.address()));
        assertThrows(IllegalArgumentException.class,
                () -> OpsTable.pollCq(MemorySegment.NULL, cq, 1, sendWr.address()));
        assertThrows(IllegalArgumentException.class, () -> OpsTable.reqNotifyCq(MemorySegment.NULL, cq, false));
        assertThrows(NullPointerException.class, () -> OpsTablePosts.postRecv(null, qp, recvWr.address(), badWr.address()));
        assertEquals(before, fake.calls());
    }

    @Test
    void memoryWindowsGoThroughTheOpsTable() {
        long pd = fake.pd(context);
        long mw = OpsTable.allocMw(state, pd, 2);
        assertTrue(mw != 0);
        assertLastCall("alloc_mw", pd, 2);

        assertEquals(0, OpsTable.deallocMw(mw));
        assertLastCall("dealloc_mw", mw);

        fake.nextReturn(TestErrno.ENOMEM);
        assertEquals(0, OpsTable.allocMw(state, pd, 2));
        assertEquals(TestErrno.ENOMEM, CallState.errno(state), "errno captured right after the call");
    }
}
