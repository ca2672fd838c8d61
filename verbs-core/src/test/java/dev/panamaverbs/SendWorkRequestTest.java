package dev.panamaverbs;

import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.SendFlag;
import dev.panamaverbs.values.WorkRequestOpcode;
import static dev.panamaverbs.Rejections.RC;
import static dev.panamaverbs.Rejections.UC;
import static dev.panamaverbs.Rejections.UD;
import static dev.panamaverbs.Rejections.assertPostSendRejected;
import dev.panamaverbs.gateway.Pointers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.ffm.ibv_send_wr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The native layout a send request writes and every check made before ibv_post_send; no device needed. */
class SendWorkRequestTest {
    @Test
    void settersWriteTheCStruct() {
        SendWorkRequest wr = SendWorkRequest.allocate(2)
                .wrId(0x1122334455L).opcode(WorkRequestOpcode.RDMA_WRITE_WITH_IMM)
                .flags(EnumSet.of(SendFlag.SIGNALED, SendFlag.FENCE)).immediateData(0xCAFEBABE)
                .rdma(0x7000_0000_1000L, 0x42);
        MemorySegment s = wr.segment();
        assertEquals(0x1122334455L, ibv_send_wr.wr_id(s));
        assertEquals(WorkRequestOpcode.RDMA_WRITE_WITH_IMM.value(), ibv_send_wr.opcode(s));
        assertEquals(SendFlag.SIGNALED.bit() | SendFlag.FENCE.bit(), ibv_send_wr.send_flags(s));
        assertEquals(0xCAFEBABE, ibv_send_wr.imm_data(s));
        MemorySegment rdma = ibv_send_wr.wr.rdma(ibv_send_wr.wr(s));
        assertEquals(0x7000_0000_1000L, ibv_send_wr.wr.rdma.remote_addr(rdma));
        assertEquals(0x42, ibv_send_wr.wr.rdma.rkey(rdma));
        assertEquals(0, ibv_send_wr.num_sge(s));
        assertTrue(ibv_send_wr.sg_list(s).address() != 0);
        assertEquals(EnumSet.of(SendFlag.SIGNALED, SendFlag.FENCE), wr.flags());
        wr.signaled(false);
        assertEquals(EnumSet.of(SendFlag.FENCE), wr.flags());
        wr.signaled(true).inline(true).inline(false);
        assertEquals(SendFlag.SIGNALED.bit() | SendFlag.FENCE.bit(), ibv_send_wr.send_flags(s));
        wr.invalidateRkey(0x99);
        assertEquals(0x99, ibv_send_wr.invalidate_rkey(s));
    }

    @Test
    void atomicsWriteTheirUnionMemberAndNeedAlignedRemoteAddresses() {
        SendWorkRequest wr = SendWorkRequest.allocate(1).atomicCompareAndSwap(0x1000, 7, 11, 22);
        assertEquals(WorkRequestOpcode.ATOMIC_CMP_AND_SWP, wr.opcode());
        MemorySegment atomic = ibv_send_wr.wr.atomic(ibv_send_wr.wr(wr.segment()));
        assertEquals(0x1000, ibv_send_wr.wr.atomic.remote_addr(atomic));
        assertEquals(11, ibv_send_wr.wr.atomic.compare_add(atomic));
        assertEquals(22, ibv_send_wr.wr.atomic.swap(atomic));
        assertEquals(7, ibv_send_wr.wr.atomic.rkey(atomic));
        wr.atomicFetchAndAdd(0x2008, 8, 5);
        assertEquals(WorkRequestOpcode.ATOMIC_FETCH_AND_ADD, wr.opcode());
        assertEquals(5, ibv_send_wr.wr.atomic.compare_add(atomic));
        assertEquals(0, ibv_send_wr.wr.atomic.swap(atomic));
        assertPostSendRejected("8-byte aligned", () -> wr.atomicFetchAndAdd(0x2004, 8, 1));
        assertPostSendRejected("8-byte aligned", () -> wr.atomicCompareAndSwap(0x2001, 8, 1, 2));
    }

    @Test
    void entryIndexAndCountStayInsideTheArray() {
        assertPostSendRejected("maxSge must be in 0..65536", () -> SendWorkRequest.allocate(-1));
        assertPostSendRejected("maxSge must be in 0..65536", () -> SendWorkRequest.allocate(Integer.MAX_VALUE));
        SendWorkRequest wr = SendWorkRequest.allocate(2);
        assertPostSendRejected("sge index must be in 0..1", () -> wr.sge(2, null, 0, 8));
        assertPostSendRejected("sge index must be in 0..1", () -> wr.sge(-1, null, 0, 8));
        assertPostSendRejected("sge count must be in 0..2", () -> wr.sgeCount(3));
        assertPostSendRejected("sge count must be in 0..2", () -> wr.sgeCount(-1));
        assertPostSendRejected("needs a memory region", () -> wr.sge(0, null, 0, 8));
        assertPostSendRejected("sge index must be in 0..-1", () -> SendWorkRequest.allocate(0).inlineData(MemorySegment.NULL));
    }

    @Test
    void inlineDataIsCheckedAndWrittenWithoutAKey() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment data = arena.allocate(24);
            SendWorkRequest wr = SendWorkRequest.allocate(arena, 2).inlineData(data);
            assertEquals(1, wr.sgeCount());
            assertEquals(data.address(), wr.sgeAddress(0));
            assertEquals(24, wr.sgeLength(0));
            assertEquals(0, wr.sgeLkey(0));
            assertEquals(24, wr.totalLength());
            assertTrue(wr.flags().contains(SendFlag.INLINE));
            assertEquals(1, ibv_send_wr.num_sge(wr.segment()));
            assertPostSendRejected("native memory", () -> wr.inlineData(0, MemorySegment.ofArray(new byte[4])));
        }
        Arena closed = Arena.ofConfined();
        MemorySegment gone = closed.allocate(8);
        closed.close();
        assertPostSendRejected("arena is closed", () -> SendWorkRequest.allocate(1).inlineData(gone));
    }

    @Test
    void inlineDataFromAFileMappingIsRefused() throws java.io.IOException {
        java.nio.file.Path file = java.nio.file.Files.createTempFile("inline", ".bin");
        try (Arena arena = Arena.ofConfined(); java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file,
                java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
            channel.write(java.nio.ByteBuffer.allocate(4096));
            MemorySegment mapped = channel.map(java.nio.channels.FileChannel.MapMode.READ_WRITE, 0, 4096, arena);
            SendWorkRequest wr = SendWorkRequest.allocate(1);
            assertPostSendRejected("file mapping", () -> wr.inlineData(mapped.asSlice(0, 32)));
            assertEquals(0, wr.sgeCount(), "nothing written");
            wr.inlineData(arena.allocate(32)); // plain native memory still goes
            assertEquals(1, wr.sgeCount());
        } finally {
            java.nio.file.Files.deleteIfExists(file);
        }
    }

    @Test
    void aRequestReusedWithFewerEntriesKeepsNoneOfTheOldOnes() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(10);
            MemorySegment b = arena.allocate(20);
            MemorySegment c = arena.allocate(30);
            SendWorkRequest wr = SendWorkRequest.allocate(arena, 3).inlineData(0, a).inlineData(1, b).inlineData(2, c);
            assertEquals(3, wr.sgeCount());
            assertEquals(60, wr.totalLength());
            wr.inlineData(0, c).inlineData(1, a); // reused with two entries: the third is gone
            assertEquals(2, wr.sgeCount());
            assertEquals(2, ibv_send_wr.num_sge(wr.segment()));
            assertEquals(40, wr.totalLength());
            wr.inlineData(2, b).inlineData(1, b); // a later entry changed in place keeps the rest
            assertEquals(3, wr.sgeCount());
            assertEquals(3, ibv_send_wr.num_sge(wr.segment()));
            wr.sgeCount(3).inlineData(0, a);      // entry 0 starts a new list
            assertEquals(1, wr.sgeCount());
        }
    }

    @Test
    void immediateDataInHostOrderIsLaidOutAsHtonlWouldLayItOut() {
        SendWorkRequest wr = SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.SEND_WITH_IMM)
                .immediateDataHostOrder(0x12345678);
        MemorySegment s = wr.segment();
        byte[] wire = new byte[4];
        for (int i = 0; i < 4; i++) {
            wire[i] = s.get(java.lang.foreign.ValueLayout.JAVA_BYTE, ibv_send_wr.imm_data$OFFSET + i);
        }
        // htonl(0x12345678) is stored most significant byte first, whatever the host's order.
        org.junit.jupiter.api.Assertions.assertArrayEquals(new byte[] {0x12, 0x34, 0x56, 0x78}, wire);
        wr.immediateData(0x12345678);
        assertEquals(0x12345678, ibv_send_wr.imm_data(s), "the raw setter writes the int as given");
    }

    @Test
    void chainsLinkNativelyAndNeverLoop() {
        ChainOfThree<SendWorkRequest> chain = ChainOfThree.of(id -> SendWorkRequest.allocate(1).wrId(id), SendWorkRequest::next);
        assertEquals(chain.second().segment().address(), ibv_send_wr.next(chain.first().segment()).address());
        assertSame(chain.third(), chain.second().next());
        assertPostSendRejected("loop", () -> chain.third().next(chain.first()));
        assertPostSendRejected("loop", () -> chain.first().next(chain.first()));
        chain.second().next(null);
        assertEquals(0, ibv_send_wr.next(chain.second().segment()).address());
        assertNull(chain.second().next());
    }

    @Test
    void opcodesAreCheckedAgainstTheTransportAtPostTime() {
        SendWorkRequest read = SendWorkRequest.allocate(1).wrId(5).opcode(WorkRequestOpcode.RDMA_READ).rdma(0x1000, 1);
        SendPath.limits(QueuePairType.RC, 1, 0, 1, null).check(read);
        assertPostSendRejected("wr_id=5: RDMA_READ is not a UC operation", () -> SendPath.limits(QueuePairType.UC, 1, 0, 1, null).check(read));
        SendWorkRequest atomic = SendWorkRequest.allocate(1).atomicFetchAndAdd(0x1000, 1, 1);
        assertPostSendRejected("not a UC operation", () -> SendPath.limits(QueuePairType.UC, 1, 0, 1, null).check(atomic));
        SendWorkRequest send = SendWorkRequest.allocate(1).wrId(6);
        SendPath.limits(QueuePairType.RC, 1, 0, 1, null).check(send);
        assertPostSendRejected("wr_id=6: a UD send needs ud(", () -> SendPath.limits(QueuePairType.UD, 1, 0, 1, null).check(send));
        SendWorkRequest write = SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.RDMA_WRITE);
        assertPostSendRejected("RDMA_WRITE needs rdma(remoteAddress, rkey)", () -> SendPath.limits(QueuePairType.RC, 1, 0, 1, null).check(write));
        // An atomic's remote part is not an RDMA one: switching the opcode back needs rdma() again.
        atomic.opcode(WorkRequestOpcode.RDMA_READ);
        assertPostSendRejected("RDMA_READ needs rdma(", () -> SendPath.limits(QueuePairType.RC, 1, 0, 1, null).check(atomic));
    }

    @Test
    void atomicsNeedOneEightByteEntry() {
        try (Arena arena = Arena.ofConfined()) {
            SendWorkRequest atomic = SendWorkRequest.allocate(arena, 2).atomicFetchAndAdd(0x1000, 1, 1);
            assertPostSendRejected("exactly one 8-byte local entry, got 0 entries", () -> SendPath.limits(QueuePairType.RC, 2, 0, 1, null).check(atomic));
            atomic.inlineData(arena.allocate(16)).inline(false);
            assertPostSendRejected("exactly one 8-byte local entry, got 1 entries of 16 bytes",
                    () -> SendPath.limits(QueuePairType.RC, 2, 0, 1, null).check(atomic));
        }
    }

    @Test
    void entryCountAndInlineSizeAreCheckedAgainstTheQueuePair() {
        try (Arena arena = Arena.ofConfined()) {
            SendWorkRequest wr = SendWorkRequest.allocate(arena, 3).wrId(9)
                    .inlineData(0, arena.allocate(40)).inlineData(1, arena.allocate(30));
            SendPath.limits(QueuePairType.RC, 2, 70, 1, null).check(wr);
            assertPostSendRejected("2 entries exceed the queue pair's max_send_sge 1", () -> SendPath.limits(QueuePairType.RC, 1, 70, 1, null).check(wr));
            assertPostSendRejected("70 inline bytes exceed the queue pair's max_inline_data 64", () -> SendPath.limits(QueuePairType.RC, 2, 64, 1, null).check(wr));
            wr.inline(false);
            assertPostSendRejected("entry 0 holds inline data but the INLINE flag is cleared", () -> SendPath.limits(QueuePairType.RC, 2, 70, 1, null).check(wr));
            wr.inline(true).opcode(WorkRequestOpcode.RDMA_READ).rdma(0x1000, 1);
            assertPostSendRejected("INLINE is only for SEND and RDMA WRITE", () -> SendPath.limits(QueuePairType.RC, 2, 70, 1, null).check(wr));
        }
    }

    @Test
    void everyRequestOfAChainIsChecked() {
        SendWorkRequest first = SendWorkRequest.allocate(1).wrId(1);
        SendWorkRequest second = SendWorkRequest.allocate(1).wrId(2).opcode(WorkRequestOpcode.RDMA_READ).rdma(0x1000, 1);
        first.next(second);
        SendPath.limits(QueuePairType.RC, 1, 0, 1, null).check(first);
        assertPostSendRejected("wr_id=2: RDMA_READ is not a UC operation", () -> SendPath.limits(QueuePairType.UC, 1, 0, 1, null).check(first));
    }

    @Test
    void closedMemoryIsRefusedBeforeThePost() {
        Arena arena = Arena.ofConfined();
        SendWorkRequest wr = SendWorkRequest.allocate(arena, 1).wrId(4);
        MemorySegment data = Arena.ofAuto().allocate(8);
        SendWorkRequest withInline = SendWorkRequest.allocate(1).inlineData(data);
        SendPath.limits(QueuePairType.RC, 1, 8, 1, null).check(withInline);
        arena.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> SendPath.limits(QueuePairType.RC, 1, 0, 1, null).check(wr));
        assertTrue(e.getMessage().contains("wr_id=4"), e.getMessage());
    }

    @Test
    void badRequestIsFoundInTheChain() {
        BadRequestCheck.assertFoundInTheChain(id -> SendWorkRequest.allocate(1).wrId(id), SendWorkRequest::next,
                SendWorkRequest::describeBadRequest, SendWorkRequest::segment);
    }

    @Test
    void flagsRoundTrip() {
        SendWorkRequest wr = SendWorkRequest.allocate(0).flags(Set.of(SendFlag.SOLICITED));
        assertEquals(EnumSet.of(SendFlag.SOLICITED), wr.flags());
        assertTrue(wr.toString().contains("SEND"));
    }
}
