package dev.panamaverbs.loader;

import dev.panamaverbs.error.Errno;
import dev.panamaverbs.error.VerbsException;
import dev.panamaverbs.error.VerbsUnsupportedException;
import dev.panamaverbs.ffm.ibv_recv_wr;
import dev.panamaverbs.ffm.ibv_send_wr;
import dev.panamaverbs.ffm.ibv_wc;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ops-table verbs against a fake provider whose ops record the arguments they receive. */
class OpsTableTest {
    private static FakeProvider fake;
    private static long context;
    private static long qp;
    private static long cq;
    private static long srq;
    private static Arena arena;

    private MemorySegment sendWr;
    private MemorySegment recvWr;
    private MemorySegment badWr;

    @BeforeAll
    static void provider() {
        fake = FakeProvider.standard();
        context = fake.context();
        qp = fake.qp(context);
        cq = fake.cq(context);
        srq = fake.srq(context);
        arena = Arena.ofShared();
    }

    @AfterAll
    static void close() {
        arena.close();
    }

    @BeforeEach
    void requests() {
        fake.reset();
        sendWr = arena.allocate(ibv_send_wr.LAYOUT);
        recvWr = arena.allocate(ibv_recv_wr.LAYOUT);
        badWr = arena.allocate(JAVA_LONG);
    }

    @Test
    void postSendDeliversExactlyItsArguments() {
        long before = fake.calls();
        assertEquals(0, OpsTable.postSend(qp, sendWr.address(), badWr.address()));
        assertEquals("post_send", fake.lastOp());
        assertEquals(qp, fake.arg(0));
        assertEquals(sendWr.address(), fake.arg(1));
        assertEquals(badWr.address(), fake.arg(2));
        assertEquals(before + 1, fake.calls());
    }

    @Test
    void postSendReturnsTheProvidersErrnoAndBadWr() {
        fake.nextReturn(Errno.ENOMEM);
        assertEquals(Errno.ENOMEM, OpsTable.postSend(qp, sendWr.address(), badWr.address()));
        assertEquals(sendWr.address(), badWr.get(JAVA_LONG, 0), "the provider's bad_wr reaches the caller");
    }

    @Test
    void postRecvDeliversExactlyItsArguments() {
        assertEquals(0, OpsTable.postRecv(qp, recvWr.address(), badWr.address()));
        assertEquals("post_recv", fake.lastOp());
        assertEquals(qp, fake.arg(0));
        assertEquals(recvWr.address(), fake.arg(1));
        assertEquals(badWr.address(), fake.arg(2));

        fake.nextReturn(Errno.EINVAL);
        assertEquals(Errno.EINVAL, OpsTable.postRecv(qp, recvWr.address(), badWr.address()));
        assertEquals(recvWr.address(), badWr.get(JAVA_LONG, 0));
    }

    @Test
    void postSrqRecvGoesThroughTheSrqsContext() {
        assertEquals(0, OpsTable.postSrqRecv(srq, recvWr.address(), badWr.address()));
        assertEquals("post_srq_recv", fake.lastOp());
        assertEquals(srq, fake.arg(0));
        assertEquals(recvWr.address(), fake.arg(1));
        assertEquals(badWr.address(), fake.arg(2));
    }

    @Test
    void pollCqDeliversItsArgumentsAndReturnsTheCount() {
        MemorySegment wcs = arena.allocate(ibv_wc.LAYOUT, 16);
        fake.nextReturn(3);
        assertEquals(3, OpsTable.pollCq(cq, 16, wcs.address()));
        assertEquals("poll_cq", fake.lastOp());
        assertEquals(cq, fake.arg(0));
        assertEquals(16, fake.arg(1));
        assertEquals(wcs.address(), fake.arg(2));
        assertEquals(1002, wcs.get(JAVA_LONG, 2 * ibv_wc.SIZE + ibv_wc.wr_id$OFFSET));

        fake.nextReturn(0);
        assertEquals(0, OpsTable.pollCq(cq, 16, wcs.address()));
    }

    @Test
    void aNegativePollIsAnException() {
        MemorySegment wcs = arena.allocate(ibv_wc.LAYOUT, 4);
        fake.nextReturn(-2);
        VerbsException thrown = assertThrows(VerbsException.class, () -> OpsTable.pollCq(cq, 4, wcs.address()));
        assertEquals("ibv_poll_cq", thrown.verb());
        assertTrue(thrown.getMessage().contains("-2"), thrown.getMessage());
    }

    @Test
    void reqNotifyCqPassesSolicitedOnlyAndMapsErrors() {
        OpsTable.reqNotifyCq(cq, true);
        assertEquals("req_notify_cq", fake.lastOp());
        assertEquals(cq, fake.arg(0));
        assertEquals(1, fake.arg(1));
        OpsTable.reqNotifyCq(cq, false);
        assertEquals(0, fake.arg(1));

        fake.nextReturn(Errno.EINVAL);
        VerbsException failed = assertThrows(VerbsException.class, () -> OpsTable.reqNotifyCq(cq, false));
        assertEquals(Errno.EINVAL, failed.errno());
        assertEquals("ibv_req_notify_cq", failed.verb());

        fake.nextReturn(Errno.EOPNOTSUPP);
        assertThrows(VerbsUnsupportedException.class, () -> OpsTable.reqNotifyCq(cq, false));
    }

    @Test
    void nullOpsAreUnsupportedAndNeverCalled() {
        long bare = fake.context(true, fake.verbsContextSize(), false);
        long bareQp = fake.qp(bare);
        long bareCq = fake.cq(bare);
        long bareSrq = fake.srq(bare);
        long before = fake.calls();

        VerbsUnsupportedException send = assertThrows(VerbsUnsupportedException.class,
                () -> OpsTable.postSend(bareQp, sendWr.address(), badWr.address()));
        assertEquals("ibv_post_send", send.verb());
        assertTrue(send.getMessage().contains("post_send"), send.getMessage());
        assertThrows(VerbsUnsupportedException.class, () -> OpsTable.postRecv(bareQp, recvWr.address(), badWr.address()));
        assertThrows(VerbsUnsupportedException.class, () -> OpsTable.postSrqRecv(bareSrq, recvWr.address(), badWr.address()));
        assertThrows(VerbsUnsupportedException.class, () -> OpsTable.pollCq(bareCq, 1, sendWr.address()));
        assertThrows(VerbsUnsupportedException.class, () -> OpsTable.reqNotifyCq(bareCq, false));
        assertThrows(VerbsUnsupportedException.class, () -> OpsTable.allocMw(fake.pd(bare), 2));
        assertEquals(before, fake.calls(), "nothing was called");
    }

    @Test
    void nullArgumentsAreRejectedBeforeAnyCall() {
        long before = fake.calls();
        IllegalArgumentException noQp = assertThrows(IllegalArgumentException.class,
                () -> OpsTable.postSend(0, sendWr.address(), badWr.address()));
        assertTrue(noQp.getMessage().startsWith("ibv_post_send"), noQp.getMessage());
        assertThrows(IllegalArgumentException.class, () -> OpsTable.postSend(qp, 0, badWr.address()));
        assertThrows(IllegalArgumentException.class, () -> OpsTable.postSend(qp, sendWr.address(), 0));
        assertThrows(IllegalArgumentException.class, () -> OpsTable.postRecv(qp, 0, badWr.address()));
        assertThrows(IllegalArgumentException.class, () -> OpsTable.postSrqRecv(0, recvWr.address(), badWr.address()));
        assertThrows(IllegalArgumentException.class, () -> OpsTable.pollCq(cq, 4, 0));
        assertThrows(IllegalArgumentException.class, () -> OpsTable.pollCq(cq, -1, sendWr.address()));
        assertThrows(IllegalArgumentException.class, () -> OpsTable.reqNotifyCq(0, false));
        // An object whose context pointer is NULL.
        long orphan = fake.qp(0);
        assertThrows(IllegalArgumentException.class, () -> OpsTable.postSend(orphan, sendWr.address(), badWr.address()));
        assertEquals(before, fake.calls());
    }

    @Test
    void memoryWindowsGoThroughTheOpsTable() {
        long pd = fake.pd(context);
        long mw = OpsTable.allocMw(pd, 2);
        assertTrue(mw != 0);
        assertEquals("alloc_mw", fake.lastOp());
        assertEquals(pd, fake.arg(0));
        assertEquals(2, fake.arg(1));

        OpsTable.deallocMw(mw);
        assertEquals("dealloc_mw", fake.lastOp());
        assertEquals(mw, fake.arg(0));

        fake.nextReturn(Errno.ENOMEM);
        VerbsException failed = assertThrows(VerbsException.class, () -> OpsTable.allocMw(pd, 2));
        assertEquals(Errno.ENOMEM, failed.errno(), "errno captured right after the call");
        fake.nextReturn(Errno.EOPNOTSUPP);
        assertInstanceOf(VerbsUnsupportedException.class, assertThrows(VerbsException.class, () -> OpsTable.allocMw(pd, 1)));
    }
}
