package dev.panamaverbs.loader;

import dev.panamaverbs.error.Errno;
import dev.panamaverbs.error.VerbsException;
import dev.panamaverbs.error.VerbsUnsupportedException;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_poll_cq_attr;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The extended completion calls through a fake ibv_cq_ex. */
@SuppressWarnings("removal") // the per-call (long cqx) forms are still tested until they are removed
class CqExTest {
    private static FakeProvider fake;
    private static long cqx;
    private static MemorySegment attr;

    @BeforeAll
    static void provider() {
        fake = FakeProvider.standard();
        cqx = fake.cqEx(fake.context(), true);
        attr = Arena.global().allocate(ibv_poll_cq_attr.LAYOUT);
    }

    @BeforeEach
    void reset() {
        fake.reset();
    }

    @Test
    void pollingReportsFoundEmptyAndErrors() {
        assertTrue(CqEx.startPoll(cqx, attr.address()));
        assertEquals("start_poll", fake.lastOp());
        assertEquals(cqx, fake.arg(0));
        assertEquals(attr.address(), fake.arg(1));
        assertEquals(4242, CqEx.wrId(cqx));
        assertEquals(VerbsConstants.IBV_WC_SUCCESS, CqEx.status(cqx));

        fake.nextReturn(Errno.ENOENT);
        assertFalse(CqEx.nextPoll(cqx));
        assertEquals("next_poll", fake.lastOp());
        CqEx.endPoll(cqx);
        assertEquals("end_poll", fake.lastOp());

        fake.nextReturn(Errno.EIO);
        VerbsException failed = assertThrows(VerbsException.class, () -> CqEx.startPoll(cqx, attr.address()));
        assertEquals("ibv_start_poll", failed.verb());
        assertEquals(Errno.EIO, failed.errno());

        fake.nextReturn(-Errno.EIO); // some providers answer -errno
        VerbsException negative = assertThrows(VerbsException.class, () -> CqEx.startPoll(cqx, attr.address()));
        assertEquals(Errno.EIO, negative.errno());
    }

    @Test
    void readersReturnTheProvidersValuesUnsignedWhereCIsUnsigned() {
        assertEquals(VerbsConstants.IBV_WC_RDMA_WRITE, CqEx.readOpcode(cqx));
        assertEquals("read_opcode", fake.lastOp());
        assertEquals(0x11, CqEx.readVendorErr(cqx));
        assertEquals(0xFFFFFFF0L, Integer.toUnsignedLong(CqEx.readByteLen(cqx)));
        assertEquals(0x01020304, CqEx.readImmData(cqx));
        assertEquals(0x123456, CqEx.readQpNum(cqx));
        assertEquals(0x654321, CqEx.readSrcQp(cqx));
        assertEquals(VerbsConstants.IBV_WC_WITH_IMM, CqEx.readWcFlags(cqx));
        assertEquals(7, CqEx.readSlid(cqx));
        assertEquals(0xF3, CqEx.readSl(cqx));
        assertEquals(5, CqEx.readDlidPathBits(cqx));
        assertEquals(0x8000000000000001L, CqEx.readCompletionTs(cqx));
        assertEquals(123456789L, CqEx.readCompletionWallclockNs(cqx));
        assertEquals(cqx, fake.arg(0));
    }

    @Test
    void unrequestedReadersAreUnsupported() {
        long calls = fake.calls();
        // The fake never sets read_cvlan or read_flow_tag, like a CQ created without those wc_flags.
        VerbsUnsupportedException thrown = assertThrows(VerbsUnsupportedException.class, () -> CqEx.readCvlan(cqx));
        assertEquals("ibv_wc_read_cvlan", thrown.verb());
        assertThrows(VerbsUnsupportedException.class, () -> CqEx.readFlowTag(cqx));
        long bare = fake.cqEx(fake.context(), false);
        assertThrows(VerbsUnsupportedException.class, () -> CqEx.startPoll(bare, attr.address()));
        assertThrows(VerbsUnsupportedException.class, () -> CqEx.endPoll(bare));
        assertThrows(IllegalArgumentException.class, () -> CqEx.startPoll(cqx, 0));
        assertThrows(IllegalArgumentException.class, () -> CqEx.readOpcode(0));
        assertEquals(calls, fake.calls());
    }

    @Test
    void resolvedFunctionsDeliverTheSameCallsAndValues() {
        CqEx.Functions fns = CqEx.resolve(cqx);
        assertTrue(CqEx.startPoll(fns, cqx, attr.address()));
        assertEquals("start_poll", fake.lastOp());
        assertEquals(cqx, fake.arg(0));
        assertEquals(attr.address(), fake.arg(1));
        fake.nextReturn(Errno.ENOENT);
        assertFalse(CqEx.nextPoll(fns, cqx));
        assertEquals("next_poll", fake.lastOp());
        CqEx.endPoll(fns, cqx);
        assertEquals("end_poll", fake.lastOp());
        fake.nextReturn(Errno.EIO);
        assertEquals(Errno.EIO, assertThrows(VerbsException.class, () -> CqEx.startPoll(fns, cqx, attr.address())).errno());
        fake.reset();

        assertEquals(VerbsConstants.IBV_WC_RDMA_WRITE, CqEx.readOpcode(fns, cqx));
        assertEquals(0x11, CqEx.readVendorErr(fns, cqx));
        assertEquals(0xFFFFFFF0L, Integer.toUnsignedLong(CqEx.readByteLen(fns, cqx)));
        assertEquals(0x01020304, CqEx.readImmData(fns, cqx));
        assertEquals(0x123456, CqEx.readQpNum(fns, cqx));
        assertEquals(0x654321, CqEx.readSrcQp(fns, cqx));
        assertEquals(VerbsConstants.IBV_WC_WITH_IMM, CqEx.readWcFlags(fns, cqx));
        assertEquals(7, CqEx.readSlid(fns, cqx));
        assertEquals(0xF3, CqEx.readSl(fns, cqx));
        assertEquals(5, CqEx.readDlidPathBits(fns, cqx));
        assertEquals(0x8000000000000001L, CqEx.readCompletionTs(fns, cqx));
        assertEquals(123456789L, CqEx.readCompletionWallclockNs(fns, cqx));
        assertEquals("read_completion_wallclock_ns", fake.lastOp());
        assertEquals(cqx, fake.arg(0));
    }

    @Test
    void resolvingRejectsABareCqAndUnrequestedReadersFailWithoutCalling() {
        long bare = fake.cqEx(fake.context(), false);
        assertEquals("ibv_start_poll", assertThrows(VerbsUnsupportedException.class, () -> CqEx.resolve(bare)).verb());
        assertThrows(IllegalArgumentException.class, () -> CqEx.resolve(0));

        CqEx.Functions fns = CqEx.resolve(cqx);
        assertEquals(MemorySegment.NULL, fns.readCvlan());
        long calls = fake.calls();
        assertEquals("ibv_wc_read_cvlan", assertThrows(VerbsUnsupportedException.class, () -> CqEx.readCvlan(fns, cqx)).verb());
        assertEquals("ibv_wc_read_flow_tag", assertThrows(VerbsUnsupportedException.class, () -> CqEx.readFlowTag(fns, cqx)).verb());
        assertThrows(IllegalArgumentException.class, () -> CqEx.startPoll(fns, cqx, 0));
        assertThrows(IllegalArgumentException.class, () -> CqEx.readOpcode(fns, 0));
        assertEquals(calls, fake.calls());
    }
}
