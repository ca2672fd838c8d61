package dev.panamaverbs.gateway;

import dev.panamaverbs.loader.internal.*;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_gid_entry;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The macro verbs choosing between exported functions, with the fake as the process-wide library. */
class InlineVerbsTest extends ProcessFakeProviderTest {
    /** A PD of the fake's context (the fake is the process-wide library, for the whole class). */
    private final long pd = fake.pd(context);

    @Test
    void regMrWithoutOptionalFlagsIsPlainRegMr() {
        int access = VerbsConstants.IBV_ACCESS_LOCAL_WRITE | VerbsConstants.IBV_ACCESS_REMOTE_WRITE;
        assertTrue(InlineVerbs.regMr(state, pd, 0x10000, 4096, access) != 0);
        assertLastCall("ibv_reg_mr", pd, 0x10000, 4096, access);
    }

    @Test
    void regMrWithAnOptionalFlagRoutesToIova2WithTheAddressAsIova() {
        int access = VerbsConstants.IBV_ACCESS_LOCAL_WRITE | VerbsConstants.IBV_ACCESS_RELAXED_ORDERING;
        assertTrue((access & InlineVerbs.ACCESS_OPTIONAL_RANGE) != 0);
        assertTrue(InlineVerbs.regMr(state, pd, 0x20000, 8192, access) != 0);
        // pd, addr, length, iova = (uintptr_t)addr, access
        assertLastCall("ibv_reg_mr_iova2", pd, 0x20000, 8192, 0x20000, access);
    }

    @Test
    void regMrIovaPicksIovaOrIova2() {
        InlineVerbs.regMrIova(state, pd, 0x30000, 64, 0, VerbsConstants.IBV_ACCESS_LOCAL_WRITE);
        assertEquals("ibv_reg_mr_iova", fake.lastOp());
        assertEquals(0, fake.arg(3));
        InlineVerbs.regMrIova(state, pd, 0x30000, 64, 7, VerbsConstants.IBV_ACCESS_RELAXED_ORDERING);
        assertEquals("ibv_reg_mr_iova2", fake.lastOp());
        assertEquals(7, fake.arg(3));
    }

    @Test
    void aFailedRegistrationCarriesErrno() {
        fake.nextReturn(TestErrno.EFAULT);
        assertEquals(0, InlineVerbs.regMr(state, pd, 0x1000, 1, 0));
        assertEquals(TestErrno.EFAULT, CallState.errno(state));
        assertThrows(IllegalArgumentException.class, () -> InlineVerbs.regMr(state, 0, 0x1000, 1, 0));
    }

    @Test
    void queryGidExPassesTheEntrySize() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment entry = arena.allocate(ibv_gid_entry.LAYOUT);
            assertEquals(0, InlineVerbs.queryGidEx(context, 1, 3, entry.address(), 0));
            assertLastCall("_ibv_query_gid_ex", context, 1, 3, entry.address());
            assertEquals(ibv_gid_entry.SIZE, fake.arg(5));
            assertEquals(3, ibv_gid_entry.gid_index(entry));

            fake.nextReturn(TestErrno.ENODATA);
            assertEquals(TestErrno.ENODATA, InlineVerbs.queryGidEx(context, 1, 99, entry.address(), 0));
        }
    }

    @Test
    void queryGidTableReturnsTheCountOrMinusErrno() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment entries = arena.allocate(ibv_gid_entry.LAYOUT, 8);
            fake.nextReturn(2);
            assertEquals(2, InlineVerbs.queryGidTable(context, entries.address(), 8, 0));
            assertEquals(entries.address(), fake.arg(1));
            assertEquals(8, fake.arg(2));
            assertEquals(ibv_gid_entry.SIZE, fake.arg(4));

            fake.nextReturn(-TestErrno.EINVAL);
            assertEquals(-TestErrno.EINVAL, InlineVerbs.queryGidTable(context, entries.address(), 8, 0));
        }
    }
}
