package dev.panamaverbs;

import dev.panamaverbs.internal.SizeLimits;
import dev.panamaverbs.values.CompletionFlag;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.values.CompletionStatus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.ffm.ibv_wc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** Reading a batch of {@code ibv_wc} by index: offsets, unsigned widening, bounds, failure messages. */
class CompletionsTest {

    /** Fills entry {@code index} as a provider's poll_cq would. */
    private static void fill(Completions batch, int index, long wrId, CompletionStatus status, CompletionOpcode opcode) {
        MemorySegment wc = batch.entry(index);
        ibv_wc.wr_id(wc, wrId);
        ibv_wc.status(wc, status.value());
        ibv_wc.opcode(wc, opcode.value());
        ibv_wc.vendor_err(wc, 0x1234);
        ibv_wc.byte_len(wc, 4096);
        ibv_wc.imm_data(wc, 0x0A0B0C0D);
        ibv_wc.qp_num(wc, 0x00ABCDEF);
        ibv_wc.src_qp(wc, 17);
        ibv_wc.wc_flags(wc, CompletionFlag.WITH_IMM.bit() | CompletionFlag.GRH.bit());
        ibv_wc.pkey_index(wc, (short) 0xFFFF);
        ibv_wc.slid(wc, (short) 0x8001);
        ibv_wc.sl(wc, (byte) 0xF0);
        ibv_wc.dlid_path_bits(wc, (byte) 0x81);
    }

    @Test
    void readsEveryFieldOfEveryEntryAtItsOwnOffset() {
        try (Arena arena = Arena.ofConfined()) {
            Completions batch = Completions.allocate(arena, 4);
            assertEquals(4, batch.capacity());
            assertEquals(4 * ibv_wc.LAYOUT.byteSize(), batch.segment().byteSize());
            fill(batch, 0, 100, CompletionStatus.SUCCESS, CompletionOpcode.RECV);
            fill(batch, 3, -1L, CompletionStatus.SUCCESS, CompletionOpcode.RDMA_WRITE);

            assertEquals(100, batch.wrId(0));
            assertEquals(-1L, batch.wrId(3));
            assertEquals(0, batch.wrId(1), "entries are zeroed at allocation");
            assertEquals(CompletionStatus.SUCCESS, batch.status(0));
            assertTrue(batch.isSuccess(0));
            assertEquals(CompletionOpcode.RECV, batch.opcode(0));
            assertEquals(CompletionOpcode.RDMA_WRITE, batch.opcode(3));
            assertEquals(0x1234, batch.vendorError(0));
            assertEquals(4096, batch.byteLength(0));
            assertEquals(0x0A0B0C0D, batch.immediateData(0));
            assertEquals(0x0A0B0C0D, batch.invalidatedRkey(0), "imm_data and invalidated_rkey share the union");
            assertEquals(0x00ABCDEF, batch.qpNumber(0));
            assertEquals(17, batch.sourceQp(0));
            assertTrue(batch.hasFlag(0, CompletionFlag.WITH_IMM));
            assertTrue(batch.hasFlag(0, CompletionFlag.GRH));
            assertFalse(batch.hasFlag(0, CompletionFlag.WITH_INV));
            assertEquals(CompletionFlag.WITH_IMM.bit() | CompletionFlag.GRH.bit(), batch.flags(0));
            assertEquals(65535, batch.pkeyIndex(0), "uint16 widened without sign");
            assertEquals(0x8001, batch.slid(0));
            assertEquals(0xF0, batch.sl(0), "uint8 widened without sign");
            assertEquals(0x81, batch.dlidPathBits(0));
            assertEquals(0, batch.completionTimestamp(0));
        }
    }

    @Test
    void indexOutsideTheBatchIsRejectedNotReadFromNeighbouringMemory() {
        Completions batch = Completions.allocate(2);
        assertThrows(IndexOutOfBoundsException.class, () -> batch.wrId(2));
        assertThrows(IndexOutOfBoundsException.class, () -> batch.status(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> batch.dlidPathBits(2));
        assertThrows(IndexOutOfBoundsException.class, () -> batch.completionTimestamp(2));
        assertEquals(0, batch.wrId(1));
    }

    @Test
    void capacityMustBePositive() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Completions.allocate(0));
        assertTrue(e.getMessage().startsWith("ibv_poll_cq:"), e.getMessage());
        assertThrows(NullPointerException.class, () -> Completions.allocate(null, 1));
    }

    @Test
    void failedCompletionThrowsNamingStatusAndWrId() {
        Completions batch = Completions.allocate(2);
        fill(batch, 0, 7, CompletionStatus.SUCCESS, CompletionOpcode.SEND);
        fill(batch, 1, 0xBEEF, CompletionStatus.REM_ACCESS_ERR, CompletionOpcode.SEND);
        batch.throwIfFailed(0);
        assertFalse(batch.isSuccess(1));
        CompletionFailedException e = assertThrows(CompletionFailedException.class, () -> batch.throwIfFailed(1));
        assertTrue(e.getMessage().contains("REM_ACCESS_ERR"), e.getMessage());
        assertTrue(e.getMessage().contains("wr_id=48879"), e.getMessage());
        assertEquals(CompletionStatus.REM_ACCESS_ERR, e.status());
        assertEquals(0xBEEF, e.wrId());
        assertEquals(0x1234, e.vendorError());
        assertEquals("ibv_poll_cq", e.verb());
    }

    @Test
    void unknownOpcodeOfAFailedCompletionReadsAsNull() {
        Completions batch = Completions.allocate(1);
        ibv_wc.status(batch.entry(0), CompletionStatus.WR_FLUSH_ERR.value());
        ibv_wc.opcode(batch.entry(0), 0x7777);
        assertNull(batch.opcode(0));
        assertEquals(0x7777, batch.opcodeValue(0));
        assertEquals(CompletionStatus.WR_FLUSH_ERR, batch.status(0));
    }

    @Test
    void immediateDataInHostOrderIsNtohlOfTheField() {
        try (Arena arena = Arena.ofConfined()) {
            Completions batch = Completions.allocate(arena, 2);
            MemorySegment wc = batch.entry(1);
            byte[] wire = {0x12, 0x34, 0x56, 0x78}; // what a C sender's htonl(0x12345678) put on the wire
            for (int i = 0; i < 4; i++) {
                wc.set(java.lang.foreign.ValueLayout.JAVA_BYTE, ibv_wc.imm_data$OFFSET + i, wire[i]);
            }
            assertEquals(0x12345678, batch.immediateDataHostOrder(1));
            assertEquals(java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN ? 0x78563412 : 0x12345678,
                    batch.immediateData(1), "the raw accessor returns the field as the host stores it");
        }
    }

    @Test
    void absurdCapacitiesAreRefusedBeforeAllocating() {
        for (int capacity : new int[] {0, -1, SizeLimits.MAX_COMPLETIONS + 1, Integer.MAX_VALUE}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Completions.allocate(capacity));
            assertEquals("ibv_poll_cq: a completion batch needs 1.." + SizeLimits.MAX_COMPLETIONS + " entries, got "
                    + capacity, e.getMessage());
            try (Arena arena = Arena.ofConfined()) {
                assertThrows(IllegalArgumentException.class, () -> Completions.allocate(arena, capacity));
            }
        }
    }
}
