package dev.panamaverbs.gateway;

import dev.panamaverbs.loader.internal.*;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_poll_cq_attr;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The extended completion calls through a fake ibv_cq_ex: C's return values, the arguments as passed. */
class CqExTest extends ProcessFakeProviderTest {
    private static long cqx;
    private static MemorySegment attr;
    private static CqEx.Functions fns;

    @BeforeAll
    static void extendedCq() {
        cqx = fake.cqEx(context, true);
        attr = arena.allocate(ibv_poll_cq_attr.LAYOUT);
        fns = CqEx.resolve(cqx);
    }

    @Test
    void pollingReportsFoundEmptyAndErrorsAsC() {
        assertEquals(0, CqEx.startPoll(fns, cqx, attr.address()));
        assertLastCall("start_poll", cqx, attr.address());
        assertEquals(4242, CqEx.wrId(cqx));
        assertEquals(VerbsConstants.IBV_WC_SUCCESS, CqEx.status(cqx));
        CqEx.endPoll(fns, cqx);
        assertLastCall("end_poll", cqx);

        fake.nextReturn(TestErrno.ENOENT);
        assertEquals(TestErrno.ENOENT, CqEx.startPoll(fns, cqx, attr.address()), "empty");
        fake.nextReturn(-TestErrno.EIO); // some providers answer -errno: passed on as is
        assertEquals(-TestErrno.EIO, CqEx.startPoll(fns, cqx, attr.address()));
    }

    @Test
    void readersReturnTheProvidersValuesUnsignedWhereCIsUnsigned() {
        assertEquals(VerbsConstants.IBV_WC_RDMA_WRITE, CqExReaders.readOpcode(fns, cqx));
        assertEquals("read_opcode", fake.lastOp());
        assertEquals(0x11, CqExReaders.readVendorErr(fns, cqx));
        assertEquals(0xFFFFFFF0L, Integer.toUnsignedLong(CqExReaders.readByteLen(fns, cqx)));
        assertEquals(0x01020304, CqExReaders.readImmData(fns, cqx));
        assertEquals(0x123456, CqExReaders.readQpNum(fns, cqx));
        assertEquals(0x654321, CqExReaders.readSrcQp(fns, cqx));
        assertEquals(VerbsConstants.IBV_WC_WITH_IMM, CqExReaders.readWcFlags(fns, cqx));
        assertEquals(7, CqExReaders.readSlid(fns, cqx));
        assertEquals(0xF3, CqExReaders.readSl(fns, cqx));
        assertEquals(5, CqExReaders.readDlidPathBits(fns, cqx));
        assertEquals(0x8000000000000001L, CqExReaders.readCompletionTs(fns, cqx));
        assertEquals("read_completion_ts", fake.lastOp());
        assertEquals(123456789L, CqExReaders.readCompletionWallclockNs(fns, cqx));
        assertEquals("read_completion_wallclock_ns", fake.lastOp());
        assertEquals(0xFFFFFFFE, CqExReaders.readFlowTag(fns, cqx), "a uint32_t");
        assertLastCall("read_flow_tag", cqx);
    }

    @Test
    void aBareCqResolvesToNullFunctionsThatAreNeverCalled() {
        long bare = fake.cqEx(fake.context(), false);
        CqEx.Functions bareFns = CqEx.resolve(bare);
        assertFalse(CqEx.Functions.has(bareFns.startPoll()));
        assertFalse(CqEx.Functions.has(bareFns.readOpcode()));
        assertTrue(CqEx.Functions.has(fns.readOpcode()));
        long calls = fake.calls();
        // The linker refuses a NULL target: an exception, never a call through NULL.
        assertThrows(IllegalArgumentException.class, () -> CqExReaders.readOpcode(bareFns, bare));
        assertThrows(IllegalArgumentException.class, () -> CqEx.startPoll(bareFns, bare, attr.address()));
        assertEquals(calls, fake.calls());
    }

    @Test
    void nullArgumentsAreRejectedBeforeAnyCall() {
        long calls = fake.calls();
        assertThrows(IllegalArgumentException.class, () -> CqEx.resolve(0));
        assertThrows(IllegalArgumentException.class, () -> CqEx.startPoll(fns, cqx, 0));
        assertThrows(IllegalArgumentException.class, () -> CqEx.startPoll(fns, 0, attr.address()));
        assertThrows(IllegalArgumentException.class, () -> CqExReaders.readOpcode(fns, 0));
        assertThrows(IllegalArgumentException.class, () -> CqEx.wrId(0));
        assertEquals(calls, fake.calls());
    }
}
