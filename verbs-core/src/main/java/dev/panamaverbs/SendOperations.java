package dev.panamaverbs;

import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.WorkRequestOpcode;

/**
 * Which send opcodes each transport accepts (the table in {@code man ibv_post_send}), as an int
 * bit set indexed by the C opcode value so that {@link QueuePair#postSend} checks a request with
 * one AND (each request computes its opcode's bit when the opcode is set). The post reads these
 * sets as static fields and calls no method here.
 */
final class SendOperations {
    private SendOperations() {}

    private static final int RC = bits(
            WorkRequestOpcode.SEND, WorkRequestOpcode.SEND_WITH_IMM,
            WorkRequestOpcode.RDMA_WRITE, WorkRequestOpcode.RDMA_WRITE_WITH_IMM, WorkRequestOpcode.RDMA_READ,
            WorkRequestOpcode.ATOMIC_CMP_AND_SWP, WorkRequestOpcode.ATOMIC_FETCH_AND_ADD, WorkRequestOpcode.ATOMIC_WRITE,
            WorkRequestOpcode.LOCAL_INV, WorkRequestOpcode.BIND_MW, WorkRequestOpcode.SEND_WITH_INV);
    private static final int UC = bits(
            WorkRequestOpcode.SEND, WorkRequestOpcode.SEND_WITH_IMM,
            WorkRequestOpcode.RDMA_WRITE, WorkRequestOpcode.RDMA_WRITE_WITH_IMM,
            WorkRequestOpcode.LOCAL_INV, WorkRequestOpcode.BIND_MW, WorkRequestOpcode.SEND_WITH_INV);
    // TSO on UD needs the tso header fields, which SendWorkRequest does not expose.
    private static final int UD = bits(WorkRequestOpcode.SEND, WorkRequestOpcode.SEND_WITH_IMM);
    // A raw packet queue pair sends whole Ethernet frames (the SGEs hold the headers too): SEND only.
    private static final int RAW_PACKET = bits(WorkRequestOpcode.SEND);

    static final int INLINE_OPCODES = bit(WorkRequestOpcode.SEND.value())
            | bit(WorkRequestOpcode.SEND_WITH_IMM.value())
            | bit(WorkRequestOpcode.RDMA_WRITE.value())
            | bit(WorkRequestOpcode.RDMA_WRITE_WITH_IMM.value());
    static final int RDMA_OPCODES = bit(WorkRequestOpcode.RDMA_WRITE.value())
            | bit(WorkRequestOpcode.RDMA_WRITE_WITH_IMM.value())
            | bit(WorkRequestOpcode.RDMA_READ.value())
            | bit(WorkRequestOpcode.ATOMIC_WRITE.value());
    /** Opcodes whose {@code invalidate_rkey} must come from {@link SendWorkRequest#invalidateRkey(int)}. */
    static final int INVALIDATE_OPCODES = bit(WorkRequestOpcode.LOCAL_INV.value())
            | bit(WorkRequestOpcode.SEND_WITH_INV.value());
    /**
     * Opcodes that need {@code wr} union members SendWorkRequest never fills ({@code tso}) or
     * provider-private semantics: refused at post, the provider would follow garbage pointers.
     * BIND_MW is posted only as filled by {@link SendWorkRequest#bindMemoryWindow} (checked at post).
     */
    static final int UNFILLED_OPCODES = bit(WorkRequestOpcode.TSO.value())
            | bit(WorkRequestOpcode.DRIVER1.value());
    static final int ATOMIC_OPCODES = bit(WorkRequestOpcode.ATOMIC_CMP_AND_SWP.value())
            | bit(WorkRequestOpcode.ATOMIC_FETCH_AND_ADD.value());
    /** The two opcodes a post books after the call ({@link ChainHolds#afterPost}). */
    static final int BIND_MW = bit(WorkRequestOpcode.BIND_MW.value());
    static final int LOCAL_INV = bit(WorkRequestOpcode.LOCAL_INV.value());

    /** The opcode bit set of a transport (0 for transports the typed API does not post on). */
    static int allowedBits(QueuePairType type) {
        return switch (type) {
            case RC -> RC;
            case UC -> UC;
            case UD -> UD;
            case RAW_PACKET -> RAW_PACKET;
            default -> 0;
        };
    }

    /** Whether {@code type} accepts {@code opcode}. */
    static boolean isAllowed(QueuePairType type, WorkRequestOpcode opcode) {
        return (allowedBits(type) & bit(opcode.value())) != 0;
    }

    /** The bit of a C opcode value in the sets above (0 for values outside 0..31). */
    static int bit(int opcodeValue) {
        return opcodeValue >= 0 && opcodeValue < 32 ? 1 << opcodeValue : 0;
    }

    /** True for the two 8-byte atomics, which need one 8-byte local SGE and an 8-byte aligned remote address. */
    static boolean isAtomic(WorkRequestOpcode opcode) {
        return opcode == WorkRequestOpcode.ATOMIC_CMP_AND_SWP || opcode == WorkRequestOpcode.ATOMIC_FETCH_AND_ADD;
    }

    /** The opcodes whose bits {@code bits} sets, in declaration order (for messages). */
    static java.util.Set<WorkRequestOpcode> opcodes(int bits) {
        java.util.Set<WorkRequestOpcode> set = java.util.EnumSet.noneOf(WorkRequestOpcode.class);
        for (WorkRequestOpcode opcode : WorkRequestOpcode.values()) {
            if ((bits & bit(opcode.value())) != 0) {
                set.add(opcode);
            }
        }
        return set;
    }

    private static int bits(WorkRequestOpcode... opcodes) {
        int bits = 0;
        for (WorkRequestOpcode opcode : opcodes) {
            bits |= bit(opcode.value());
        }
        return bits;
    }
}
