package dev.panamaverbs;

import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.WorkRequestOpcode;
import static dev.panamaverbs.Rejections.RC;
import static dev.panamaverbs.Rejections.UC;
import static dev.panamaverbs.Rejections.UD;
import static dev.panamaverbs.Rejections.assertPostSendRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.ffm.ibv_recv_wr;
import dev.panamaverbs.ffm.ibv_send_wr;
import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;

/**
 * The post-time checks that keep misuse from reaching the provider as a crash: opcodes whose
 * {@code wr} union SendWorkRequest cannot fill, read-only raw structs, closed arenas anywhere in a
 * receive chain, closed completion batches. No device needed (region checks: WorkRequestSafetyDeviceTest).
 */
class WorkRequestChecksTest {
    @Test
    void tsoAndDriver1AreRefusedOnEveryTransport() {
        for (WorkRequestOpcode opcode : new WorkRequestOpcode[] {WorkRequestOpcode.TSO, WorkRequestOpcode.DRIVER1}) {
            SendWorkRequest wr = SendWorkRequest.allocate(1).wrId(7).opcode(opcode);
            assertPostSendRejected("wr_id=7: " + opcode + " is not posted through SendWorkRequest",
                    () -> SendPath.limits(QueuePairType.RC, 1, 0, 1, null).check(wr));
            assertPostSendRejected("wr_id=7: " + opcode, () -> SendPath.limits(QueuePairType.UC, 1, 0, 1, null).check(wr));
            assertPostSendRejected("wr_id=7: " + opcode, () -> SendPath.limits(QueuePairType.UD, 1, 0, 1, null).check(wr));
        }
    }

    @Test
    void aBareBindMwIsRefusedOnEveryTransport() {
        // rxe dereferences wr->bind_mw.mw: only a request filled by bindMemoryWindow(...) may go out.
        SendWorkRequest wr = SendWorkRequest.allocate(1).wrId(7).opcode(WorkRequestOpcode.BIND_MW);
        assertPostSendRejected("wr_id=7: BIND_MW needs bindMemoryWindow(", () -> SendPath.limits(QueuePairType.RC, 1, 0, 1, null).check(wr));
        assertPostSendRejected("wr_id=7: BIND_MW needs bindMemoryWindow(", () -> SendPath.limits(QueuePairType.UC, 1, 0, 1, null).check(wr));
        assertPostSendRejected("wr_id=7: BIND_MW is not a UD operation", () -> SendPath.limits(QueuePairType.UD, 1, 0, 1, null).check(wr));
        wr.rdma(0x1000, 5); // another union member does not make it a bind
        assertPostSendRejected("wr_id=7: BIND_MW needs bindMemoryWindow(", () -> SendPath.limits(QueuePairType.RC, 1, 0, 1, null).check(wr));
    }

    @Test
    void bindMemoryWindowNeedsAWindowAndARegion() {
        SendWorkRequest wr = SendWorkRequest.allocate(1).wrId(8);
        assertThrows(NullPointerException.class, () -> wr.bindMemoryWindow(null, 0, null, 0, 64, java.util.Set.of()));
        assertEquals(WorkRequestOpcode.SEND, wr.opcode(), "a refused bind leaves the request as it was");
    }

    @Test
    void incrementRkeyMirrorsIbvIncRkey() {
        assertEquals(0x1234_5601, MemoryWindow.incrementRkey(0x1234_5600));
        assertEquals(0x1234_5600, MemoryWindow.incrementRkey(0x1234_56FF), "the key wraps, the index stays");
        assertEquals(0xFFFF_FF00, MemoryWindow.incrementRkey(0xFFFF_FFFF));
    }

    @Test
    void bindMwIsRefusedAnywhereInAChain() {
        SendWorkRequest first = SendWorkRequest.allocate(1).wrId(1);
        SendWorkRequest bind = SendWorkRequest.allocate(1).wrId(2).opcode(WorkRequestOpcode.BIND_MW);
        first.next(bind);
        assertPostSendRejected("wr_id=2: BIND_MW needs bindMemoryWindow(", () -> SendPath.limits(QueuePairType.RC, 1, 0, 1, null).check(first));
    }

    @Test
    void invalidatingOpcodesNeedInvalidateRkey() {
        for (WorkRequestOpcode opcode : new WorkRequestOpcode[] {
                WorkRequestOpcode.LOCAL_INV, WorkRequestOpcode.SEND_WITH_INV}) {
            SendWorkRequest wr = SendWorkRequest.allocate(1).wrId(3).opcode(opcode);
            assertPostSendRejected("wr_id=3: " + opcode + " needs invalidateRkey(rkey)",
                    () -> SendPath.limits(QueuePairType.RC, 1, 0, 1, null).check(wr));
            wr.invalidateRkey(0x1234);
            SendPath.limits(QueuePairType.RC, 1, 0, 1, null).check(wr);
            wr.immediateData(5); // shares the slot: the rkey is gone again
            assertPostSendRejected("needs invalidateRkey", () -> SendPath.limits(QueuePairType.RC, 1, 0, 1, null).check(wr));
        }
    }

    @Test
    void atomicWriteNeedsTheRemoteAddress() {
        SendWorkRequest wr = SendWorkRequest.allocate(1).wrId(9).opcode(WorkRequestOpcode.ATOMIC_WRITE);
        assertPostSendRejected("wr_id=9: ATOMIC_WRITE needs rdma(remoteAddress, rkey)",
                () -> SendPath.limits(QueuePairType.RC, 1, 0, 1, null).check(wr));
        wr.rdma(0x1000, 1);
        SendPath.limits(QueuePairType.RC, 1, 0, 1, null).check(wr);
    }

    @Test
    void rawStructsAreReadOnly() {
        SendWorkRequest send = SendWorkRequest.allocate(1).wrId(5);
        assertTrue(send.segment().isReadOnly());
        assertEquals(5, ibv_send_wr.wr_id(send.segment()));
        assertThrows(IllegalArgumentException.class, () -> ibv_send_wr.num_sge(send.segment(), 9));
        assertThrows(IllegalArgumentException.class, () -> ibv_send_wr.next(send.segment(), java.lang.foreign.MemorySegment.ofAddress(64)));
        assertTrue(send.segment() == send.segment(), "made once, not per call");

        ReceiveWorkRequest receive = ReceiveWorkRequest.allocate(1).wrId(6);
        assertTrue(receive.segment().isReadOnly());
        assertEquals(6, ibv_recv_wr.wr_id(receive.segment()));
        assertThrows(IllegalArgumentException.class, () -> ibv_recv_wr.num_sge(receive.segment(), 9));
        assertTrue(receive.segment() == receive.segment(), "made once, not per call");
    }

    @Test
    void aClosedArenaAnywhereInAReceiveChainIsRefused() {
        Arena arena = Arena.ofConfined();
        ReceiveWorkRequest first = ReceiveWorkRequest.allocate(1).wrId(1);
        ReceiveWorkRequest second = ReceiveWorkRequest.allocate(arena, 1).wrId(2);
        first.next(second);
        WorkRequestChecks.checkReceiveChain("ibv_post_srq_recv", first, 1, "the queue's max_sge", null);
        arena.close();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> WorkRequestChecks.checkReceiveChain("ibv_post_srq_recv", first, 1, "the queue's max_sge", null));
        assertEquals("ibv_post_srq_recv: the arena of the request with wr_id=2 is closed", e.getMessage());
    }

    @Test
    void tooManyReceiveEntriesAreRefused() {
        ReceiveWorkRequest wr = ReceiveWorkRequest.allocate(3).wrId(4).sgeCount(3);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WorkRequestChecks.checkReceiveChain("ibv_post_recv", wr, 2, "the queue pair's max_recv_sge", null));
        assertEquals("ibv_post_recv: wr_id=4: 3 entries exceed the queue pair's max_recv_sge 2", e.getMessage());
    }

    @Test
    void entriesNotFromARegionNeedNoRegionCheck() {
        WorkRequestChecks.checkRegion("ibv_post_recv", null, 0, 1, null);
        ReceiveWorkRequest wr = ReceiveWorkRequest.allocate(2).sgeCount(2);
        WorkRequestChecks.checkReceiveChain("ibv_post_recv", wr, 2, "the queue pair's max_recv_sge", null);
    }

    @Test
    void aCompletionBatchKnowsWhenItsArenaIsClosed() {
        Arena arena = Arena.ofConfined();
        Completions batch = Completions.allocate(arena, 2);
        assertTrue(batch.isAlive());
        arena.close();
        assertFalse(batch.isAlive());
    }
}
