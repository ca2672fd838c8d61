package dev.panamaverbs;

import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.WorkRequestOpcode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.gateway.QpEx;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The checks {@link SendBatch#complete()} makes before any native call, without a device: the
 * extended send operations, {@code max_send_wr}, the post-time checks of {@code postSend} under
 * the batch's verb, ATOMIC_WRITE's entry, and the provider's function pointers. (The calls each
 * request becomes: QpExTest in the loader, against the fake provider; posting: SendBatchDeviceTest.)
 */
class SendBatchTest {
    private static final Set<WorkRequestOpcode> SEND_AND_WRITE = EnumSet.of(WorkRequestOpcode.SEND,
            WorkRequestOpcode.SEND_WITH_IMM, WorkRequestOpcode.RDMA_WRITE);

    /** Every function set (a non-NULL dummy: check() never calls them), except {@code nullField}. */
    private static QpEx.Functions functions(String nullField) throws ReflectiveOperationException {
        RecordComponent[] components = QpEx.Functions.class.getRecordComponents();
        Object[] values = Arrays.stream(components)
                .map(c -> c.getName().equals(nullField) ? MemorySegment.NULL : MemorySegment.ofAddress(0x1000))
                .toArray();
        Class<?>[] types = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
        return QpEx.Functions.class.getDeclaredConstructor(types).newInstance(values);
    }

    /** A queue pair's send path and its extended send operations, as a batch checks against them. */
    private record Limits(SendPath path, int opcodeBits) {}

    private static Limits limits(QueuePairType type, Set<WorkRequestOpcode> operations, int maxSendWr) {
        int bits = 0;
        for (WorkRequestOpcode opcode : operations) {
            bits |= SendOperations.bit(opcode.value());
        }
        return new Limits(SendPath.limits(type, 2, 32, maxSendWr, null), bits);
    }

    private static void check(Limits limits, SendWorkRequest... requests) throws ReflectiveOperationException {
        SendBatch.check(requests, requests.length, limits.path(), limits.opcodeBits(), functions(""));
    }

    private static void assertRefused(String message, Executable check) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, check);
        assertTrue(e.getMessage().startsWith("ibv_wr_complete: "), e.getMessage());
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void aBatchOfAllowedRequestsPassesEveryCheck() throws ReflectiveOperationException {
        try (Arena arena = Arena.ofConfined()) {
            SendWorkRequest send = SendWorkRequest.allocate(arena, 2).wrId(1).sgeCount(0);
            SendWorkRequest write = SendWorkRequest.allocate(arena, 2).wrId(2).opcode(WorkRequestOpcode.RDMA_WRITE)
                    .rdma(0x1000, 7).inlineData(arena.allocate(16));
            check(limits(QueuePairType.RC, SEND_AND_WRITE, 16), send, write, send);
        }
    }

    @Test
    void anOpcodeOutsideTheExtendedSendOperationsIsRefused() {
        SendWorkRequest read = SendWorkRequest.allocate(1).wrId(5).opcode(WorkRequestOpcode.RDMA_READ).rdma(0x1000, 7);
        assertRefused("wr_id=5: RDMA_READ is not one of the queue pair's extended send operations [RDMA_WRITE, SEND,"
                + " SEND_WITH_IMM] (send_ops_flags)", () -> check(limits(QueuePairType.RC, EnumSet.copyOf(SEND_AND_WRITE)), read));
    }

    @Test
    void aCapacityAboveMaxSendWrIsRefusedAtAllocate() {
        SendBatch.checkCapacity(1, 1);
        SendBatch.checkCapacity(64, 64);
        for (int[] bad : new int[][] {{0, 64}, {-1, 64}, {Integer.MIN_VALUE, 64}, {65, 64}, {Integer.MAX_VALUE, 64}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SendBatch.checkCapacity(bad[0], bad[1]), "capacity " + bad[0]);
            assertTrue(e.getMessage().startsWith("ibv_wr_start: "), e.getMessage());
            if (bad[0] > 0) {
                assertTrue(e.getMessage().contains("exceeds the queue pair's max_send_wr 64"), e.getMessage());
            }
        }
    }

    @Test
    void moreRequestsThanMaxSendWrAreRefused() {
        SendWorkRequest send = SendWorkRequest.allocate(1);
        assertRefused("3 requests exceed the queue pair's max_send_wr 2",
                () -> check(limits(QueuePairType.RC, SEND_AND_WRITE, 2), send, send, send));
    }

    @Test
    void thePostSendChecksNameTheBatchVerb() {
        SendWorkRequest read = SendWorkRequest.allocate(1).wrId(6).opcode(WorkRequestOpcode.RDMA_READ).rdma(0x1000, 7);
        assertRefused("wr_id=6: RDMA_READ is not a UD operation",
                () -> check(limits(QueuePairType.UD, EnumSet.of(WorkRequestOpcode.SEND)), read));
        SendWorkRequest udWithoutAddress = SendWorkRequest.allocate(1).wrId(7);
        assertRefused("wr_id=7: a UD send needs ud(addressHandle, remoteQpn, remoteQkey)",
                () -> check(limits(QueuePairType.UD, EnumSet.of(WorkRequestOpcode.SEND)), udWithoutAddress));
        try (Arena arena = Arena.ofConfined()) {
            SendWorkRequest tooMuchInline = SendWorkRequest.allocate(arena, 1).wrId(8).inlineData(arena.allocate(33));
            assertRefused("wr_id=8: 33 inline bytes exceed the queue pair's max_inline_data 32",
                    () -> check(limits(QueuePairType.RC, SEND_AND_WRITE), tooMuchInline));
        }
        SendWorkRequest threeEntries = SendWorkRequest.allocate(3).wrId(9).sgeCount(3);
        assertRefused("wr_id=9: 3 entries exceed the queue pair's max_send_sge 2",
                () -> check(limits(QueuePairType.RC, SEND_AND_WRITE), threeEntries));
    }

    @Test
    void atomicWriteNeedsOneEightByteRegionEntry() {
        SendWorkRequest atomicWrite = SendWorkRequest.allocate(1).wrId(10).opcode(WorkRequestOpcode.ATOMIC_WRITE)
                .rdma(0x1000, 7).sgeCount(0);
        assertRefused("wr_id=10: ATOMIC_WRITE needs exactly one 8-byte entry of a memory region, got 0 entries",
                () -> check(limits(QueuePairType.RC, EnumSet.of(WorkRequestOpcode.ATOMIC_WRITE)), atomicWrite));
    }

    @Test
    void aFunctionTheProviderLeftNullIsUnsupported() {
        SendWorkRequest sendImm = SendWorkRequest.allocate(1).wrId(11).opcode(WorkRequestOpcode.SEND_WITH_IMM);
        VerbsUnsupportedException e = assertThrows(VerbsUnsupportedException.class, () -> SendBatch.check(
                new SendWorkRequest[] {sendImm}, 1, limits(QueuePairType.RC, SEND_AND_WRITE).path(),
                limits(QueuePairType.RC, SEND_AND_WRITE).opcodeBits(), functions("sendImm")));
        assertEquals("ibv_wr_complete", e.verb());
        assertTrue(e.getMessage().contains("wr_id=11: the provider's ibv_qp_ex.wr_send_imm is NULL"), e.getMessage());
        SendWorkRequest inlineList;
        try (Arena arena = Arena.ofConfined()) {
            inlineList = SendWorkRequest.allocate(arena, 2).wrId(12).inlineData(0, arena.allocate(4))
                    .inlineData(1, arena.allocate(4));
            VerbsUnsupportedException list = assertThrows(VerbsUnsupportedException.class, () -> SendBatch.check(
                    new SendWorkRequest[] {inlineList}, 1, limits(QueuePairType.RC, SEND_AND_WRITE).path(),
                    limits(QueuePairType.RC, SEND_AND_WRITE).opcodeBits(), functions("setInlineData")));
            assertTrue(list.getMessage().contains("ibv_qp_ex.wr_set_inline_data is NULL"), list.getMessage());
        }
    }

    private static Limits limits(QueuePairType type, Set<WorkRequestOpcode> operations) {
        return limits(type, operations, 16);
    }
}
