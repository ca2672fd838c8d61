package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/** Send work request opcode (C {@code enum ibv_wr_opcode}). */
public enum WorkRequestOpcode implements NativeEnum {
    /** {@code IBV_WR_RDMA_WRITE}. */
    RDMA_WRITE(IBV_WR_RDMA_WRITE),
    /** {@code IBV_WR_RDMA_WRITE_WITH_IMM}. */
    RDMA_WRITE_WITH_IMM(IBV_WR_RDMA_WRITE_WITH_IMM),
    /** {@code IBV_WR_SEND}. */
    SEND(IBV_WR_SEND),
    /** {@code IBV_WR_SEND_WITH_IMM}. */
    SEND_WITH_IMM(IBV_WR_SEND_WITH_IMM),
    /** {@code IBV_WR_RDMA_READ}. */
    RDMA_READ(IBV_WR_RDMA_READ),
    /** {@code IBV_WR_ATOMIC_CMP_AND_SWP}. */
    ATOMIC_CMP_AND_SWP(IBV_WR_ATOMIC_CMP_AND_SWP),
    /** {@code IBV_WR_ATOMIC_FETCH_AND_ADD}. */
    ATOMIC_FETCH_AND_ADD(IBV_WR_ATOMIC_FETCH_AND_ADD),
    /** {@code IBV_WR_LOCAL_INV}. */
    LOCAL_INV(IBV_WR_LOCAL_INV),
    /** {@code IBV_WR_BIND_MW}. */
    BIND_MW(IBV_WR_BIND_MW),
    /** {@code IBV_WR_SEND_WITH_INV}. */
    SEND_WITH_INV(IBV_WR_SEND_WITH_INV),
    /** {@code IBV_WR_TSO}. */
    TSO(IBV_WR_TSO),
    /** {@code IBV_WR_DRIVER1}. */
    DRIVER1(IBV_WR_DRIVER1),
    /** {@code IBV_WR_ATOMIC_WRITE}. */
    ATOMIC_WRITE(IBV_WR_ATOMIC_WRITE);

    private static final Table<WorkRequestOpcode> TABLE = new Table<>(WorkRequestOpcode.class, "ibv_wr_opcode");
    private final int value;

    WorkRequestOpcode(int value) {
        this.value = value;
    }

    @Override
    public int value() {
        return value;
    }

    /**
     * The constant for a C value; an unknown value is an {@link IllegalArgumentException}.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value
     */
    public static WorkRequestOpcode of(int value) {
        return TABLE.of(value);
    }

    /**
     * The constant for a C value, or {@code null} when this version does not know it.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value, or {@code null} when this version does not know it
     */
    public static WorkRequestOpcode orNull(int value) {
        return TABLE.orNull(value);
    }
}
