package dev.panamaverbs;

import dev.panamaverbs.values.QueuePairCapabilities;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.WorkRequestOpcode;
import static dev.panamaverbs.ffm.VerbsConstants.*;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Create-time option checks and the transport/opcode table; no device needed. */
class QueuePairOptionsTest {

    private static void assertRejected(String text, Executable call) {
        Rejections.assertRejectedWith(text, call);
    }

    @Test
    void onlyRcUcUdAndRawPacketCanBeCreated() {
        for (QueuePairType type : EnumSet.complementOf(EnumSet.of(QueuePairType.RC, QueuePairType.UC, QueuePairType.UD, QueuePairType.RAW_PACKET))) {
            assertRejected("ibv_create_qp: qp_type must be RC, UC, UD or RAW_PACKET, got " + type,
                    () -> QueuePairOptions.builder(type));
        }
        assertDoesNotThrow(() -> QueuePairOptions.builder(QueuePairType.RAW_PACKET));
        assertThrows(NullPointerException.class, () -> QueuePairOptions.builder(null));
    }

    @Test
    void sizesAreCheckedInTheSetters() {
        QueuePairOptions.Builder builder = QueuePairOptions.builder(QueuePairType.RC);
        assertRejected("ibv_create_qp: max_send_wr must be at least 1, got 0", () -> builder.maxSendWorkRequests(0));
        assertRejected("ibv_create_qp: max_recv_wr must be at least 1, got -5", () -> builder.maxReceiveWorkRequests(-5));
        assertRejected("ibv_create_qp: max_send_sge must be at least 1", () -> builder.maxSendSge(0));
        assertRejected("ibv_create_qp: max_recv_sge must be at least 1", () -> builder.maxReceiveSge(0));
        assertRejected("ibv_create_qp: max_inline_data must be at least 0", () -> builder.maxInlineData(-1));
        builder.maxInlineData(0).maxSendSge(4).maxReceiveWorkRequests(1);
    }

    @Test
    void completionQueuesAreRequired() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> QueuePairOptions.builder(QueuePairType.UD).build());
        assertTrue(e.getMessage().contains("send_cq"), e.getMessage());
        assertThrows(NullPointerException.class, () -> QueuePairOptions.builder(QueuePairType.RC).completionQueue(null));
        assertThrows(NullPointerException.class, () -> QueuePairOptions.builder(QueuePairType.RC, null));
    }

    @Test
    void capabilitiesRejectNegativeSizes() {
        assertRejected("ibv_create_qp: max_inline_data must not be negative", () -> new QueuePairCapabilities(1, 1, 1, 1, -1));
        assertRejected("ibv_create_qp: max_send_wr must not be negative", () -> new QueuePairCapabilities(-1, 1, 1, 1, 0));
    }

    @Test
    void extendedSendOperationsMustSuitTheTransport() {
        assertRejected("ibv_create_qp_ex: RDMA_READ is not a UD operation",
                () -> QueuePairOptions.builder(QueuePairType.UD).extendedSendOperations(EnumSet.of(WorkRequestOpcode.RDMA_READ)));
        assertRejected("ibv_create_qp_ex: ATOMIC_FETCH_AND_ADD is not a UC operation",
                () -> QueuePairOptions.builder(QueuePairType.UC).extendedSendOperations(EnumSet.of(WorkRequestOpcode.ATOMIC_FETCH_AND_ADD)));
        assertRejected("ibv_create_qp_ex: DRIVER1",
                () -> QueuePairOptions.builder(QueuePairType.RC).extendedSendOperations(EnumSet.of(WorkRequestOpcode.DRIVER1)));
        QueuePairOptions.builder(QueuePairType.RC).extendedSendOperations(EnumSet.of(WorkRequestOpcode.RDMA_WRITE, WorkRequestOpcode.ATOMIC_CMP_AND_SWP));
    }

    @Test
    void everyOpcodeButDriver1HasItsOwnSendOpsFlag() {
        Map<WorkRequestOpcode, Integer> expected = Map.ofEntries(
                Map.entry(WorkRequestOpcode.RDMA_WRITE, IBV_QP_EX_WITH_RDMA_WRITE),
                Map.entry(WorkRequestOpcode.RDMA_WRITE_WITH_IMM, IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM),
                Map.entry(WorkRequestOpcode.SEND, IBV_QP_EX_WITH_SEND),
                Map.entry(WorkRequestOpcode.SEND_WITH_IMM, IBV_QP_EX_WITH_SEND_WITH_IMM),
                Map.entry(WorkRequestOpcode.RDMA_READ, IBV_QP_EX_WITH_RDMA_READ),
                Map.entry(WorkRequestOpcode.ATOMIC_CMP_AND_SWP, IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP),
                Map.entry(WorkRequestOpcode.ATOMIC_FETCH_AND_ADD, IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD),
                Map.entry(WorkRequestOpcode.LOCAL_INV, IBV_QP_EX_WITH_LOCAL_INV),
                Map.entry(WorkRequestOpcode.BIND_MW, IBV_QP_EX_WITH_BIND_MW),
                Map.entry(WorkRequestOpcode.SEND_WITH_INV, IBV_QP_EX_WITH_SEND_WITH_INV),
                Map.entry(WorkRequestOpcode.TSO, IBV_QP_EX_WITH_TSO),
                Map.entry(WorkRequestOpcode.ATOMIC_WRITE, IBV_QP_EX_WITH_ATOMIC_WRITE));
        Set<Long> seen = new HashSet<>();
        for (WorkRequestOpcode opcode : WorkRequestOpcode.values()) {
            if (opcode == WorkRequestOpcode.DRIVER1) {
                assertThrows(IllegalArgumentException.class, () -> QueuePairOptions.sendOpsFlag(opcode));
                continue;
            }
            long flag = QueuePairOptions.sendOpsFlag(opcode);
            assertEquals((long) expected.get(opcode), flag, opcode.name());
            assertTrue(seen.add(flag), opcode + " shares a bit");
        }
    }

    @Test
    void transportOpcodeTableMatchesTheManPage() {
        Set<WorkRequestOpcode> ud = EnumSet.of(WorkRequestOpcode.SEND, WorkRequestOpcode.SEND_WITH_IMM);
        Set<WorkRequestOpcode> uc = EnumSet.of(WorkRequestOpcode.SEND, WorkRequestOpcode.SEND_WITH_IMM,
                WorkRequestOpcode.RDMA_WRITE, WorkRequestOpcode.RDMA_WRITE_WITH_IMM, WorkRequestOpcode.LOCAL_INV,
                WorkRequestOpcode.BIND_MW, WorkRequestOpcode.SEND_WITH_INV);
        Set<WorkRequestOpcode> rc = EnumSet.copyOf(uc);
        rc.addAll(EnumSet.of(WorkRequestOpcode.RDMA_READ, WorkRequestOpcode.ATOMIC_CMP_AND_SWP,
                WorkRequestOpcode.ATOMIC_FETCH_AND_ADD, WorkRequestOpcode.ATOMIC_WRITE));
        for (WorkRequestOpcode opcode : WorkRequestOpcode.values()) {
            assertEquals(ud.contains(opcode), SendOperations.isAllowed(QueuePairType.UD, opcode), "UD " + opcode);
            assertEquals(uc.contains(opcode), SendOperations.isAllowed(QueuePairType.UC, opcode), "UC " + opcode);
            assertEquals(rc.contains(opcode), SendOperations.isAllowed(QueuePairType.RC, opcode), "RC " + opcode);
            assertEquals(opcode == WorkRequestOpcode.SEND, SendOperations.isAllowed(QueuePairType.RAW_PACKET, opcode), "RAW_PACKET " + opcode);
        }
        assertEquals(0, SendOperations.bit(-1));
        assertEquals(0, SendOperations.bit(32));
    }
}
