package dev.panamaverbs.loader;

import dev.panamaverbs.error.Errno;
import dev.panamaverbs.error.VerbsException;
import dev.panamaverbs.error.VerbsUnsupportedException;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_cq_ex;
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
class CqExTest {
    private static FakeProvider fake;
    private static long cqx;
    private static MemorySegment attr;
    private static CqEx.Functions fns;

    @BeforeAll
    static void provider() {
        fake = FakeProvider.standard();
        cqx = fake.cqEx(fake.context(), true);
        attr = Arena.global().allocate(ibv_poll_cq_attr.LAYOUT);
        fns = CqEx.resolve(cqx);
    }

    @BeforeEach
    void reset() {
        fake.reset();
    }

    @Test
    void pollingReportsFoundEmptyAndErrors() {
        assertTrue(CqEx.startPoll(fns, cqx, attr.address()));
        assertEquals("start_poll", fake.lastOp());
        assertEquals(cqx, fake.arg(0));
        assertEquals(attr.address(), fake.arg(1));
        assertEquals(4242, CqEx.wrId(cqx));
        assertEquals(VerbsConstants.IBV_WC_SUCCESS, CqEx.status(cqx));

        fake.nextReturn(Errno.ENOENT);
        assertFalse(CqEx.nextPoll(fns, cqx));
        assertEquals("next_poll", fake.lastOp());
        CqEx.endPoll(fns, cqx);
        assertEquals("end_poll", fake.lastOp());

        fake.nextReturn(Errno.EIO);
        VerbsException failed = assertThrows(VerbsException.class, () -> CqEx.startPoll(fns, cqx, attr.address()));
        assertEquals("ibv_start_poll", failed.verb());
        assertEquals(Errno.EIO, failed.errno());

        fake.nextReturn(-Errno.EIO); // some providers answer -errno
        VerbsException negative = assertThrows(VerbsException.class, () -> CqEx.startPoll(fns, cqx, attr.address()));
        assertEquals(Errno.EIO, negative.errno());
    }

    @Test
    void readersReturnTheProvidersValuesUnsignedWhereCIsUnsigned() {
        assertEquals(VerbsConstants.IBV_WC_RDMA_WRITE, CqEx.readOpcode(fns, cqx));
        assertEquals("read_opcode", fake.lastOp());
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
        assertEquals(cqx, fake.arg(0));
    }

    @Test
    void unrequestedReadersAreUnsupported() {
        long calls = fake.calls();
        // The fake never sets read_cvlan or read_flow_tag, like a CQ created without those wc_flags.
        VerbsUnsupportedException thrown = assertThrows(VerbsUnsupportedException.class, () -> CqEx.readCvlan(fns, cqx));
        assertEquals("ibv_wc_read_cvlan", thrown.verb());
        assertThrows(VerbsUnsupportedException.class, () -> CqEx.readFlowTag(fns, cqx));
        assertThrows(IllegalArgumentException.class, () -> CqEx.startPoll(fns, cqx, 0));
        assertThrows(IllegalArgumentException.class, () -> CqEx.readOpcode(fns, 0));
        assertEquals(calls, fake.calls());
    }

    @Test
    void resolvingNamesEachMissingPollPointerInTurn() {
        long bare = fake.cqEx(fake.context(), false);
        long calls = fake.calls();
        assertEquals("ibv_start_poll", assertThrows(VerbsUnsupportedException.class, () -> CqEx.resolve(bare)).verb());
        copyPointer(bare, ibv_cq_ex.start_poll$OFFSET);
        assertEquals("ibv_next_poll", assertThrows(VerbsUnsupportedException.class, () -> CqEx.resolve(bare)).verb());
        copyPointer(bare, ibv_cq_ex.next_poll$OFFSET);
        assertEquals("ibv_end_poll", assertThrows(VerbsUnsupportedException.class, () -> CqEx.resolve(bare)).verb());
        copyPointer(bare, ibv_cq_ex.end_poll$OFFSET);
        CqEx.Functions bareFns = CqEx.resolve(bare);
        // No reader was set: each fails before calling anything.
        assertEquals("ibv_wc_read_opcode",
                assertThrows(VerbsUnsupportedException.class, () -> CqEx.readOpcode(bareFns, bare)).verb());
        assertEquals("ibv_wc_read_byte_len",
                assertThrows(VerbsUnsupportedException.class, () -> CqEx.readByteLen(bareFns, bare)).verb());
        assertEquals("ibv_wc_read_sl",
                assertThrows(VerbsUnsupportedException.class, () -> CqEx.readSl(bareFns, bare)).verb());
        assertEquals("ibv_wc_read_completion_ts",
                assertThrows(VerbsUnsupportedException.class, () -> CqEx.readCompletionTs(bareFns, bare)).verb());
        assertEquals(calls, fake.calls());
    }

    /** Copies the working CQ's pointer at {@code offset} into {@code target}. */
    private static void copyPointer(long target, long offset) {
        Memory.writeLong(target + offset, Memory.readLong(cqx + offset));
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
