package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/** Work completion opcode (C {@code enum ibv_wc_opcode}). */
public enum CompletionOpcode implements NativeEnum {
    /** {@code IBV_WC_SEND}. */
    SEND(IBV_WC_SEND),
    /** {@code IBV_WC_RDMA_WRITE}. */
    RDMA_WRITE(IBV_WC_RDMA_WRITE),
    /** {@code IBV_WC_RDMA_READ}. */
    RDMA_READ(IBV_WC_RDMA_READ),
    /** {@code IBV_WC_COMP_SWAP}. */
    COMP_SWAP(IBV_WC_COMP_SWAP),
    /** {@code IBV_WC_FETCH_ADD}. */
    FETCH_ADD(IBV_WC_FETCH_ADD),
    /** {@code IBV_WC_BIND_MW}. */
    BIND_MW(IBV_WC_BIND_MW),
    /** {@code IBV_WC_LOCAL_INV}. */
    LOCAL_INV(IBV_WC_LOCAL_INV),
    /** {@code IBV_WC_TSO}. */
    TSO(IBV_WC_TSO),
    /** {@code IBV_WC_ATOMIC_WRITE}. */
    ATOMIC_WRITE(IBV_WC_ATOMIC_WRITE),
    /** {@code IBV_WC_RECV}. */
    RECV(IBV_WC_RECV),
    /** {@code IBV_WC_RECV_RDMA_WITH_IMM}. */
    RECV_RDMA_WITH_IMM(IBV_WC_RECV_RDMA_WITH_IMM),
    /** {@code IBV_WC_TM_ADD}. */
    TM_ADD(IBV_WC_TM_ADD),
    /** {@code IBV_WC_TM_DEL}. */
    TM_DEL(IBV_WC_TM_DEL),
    /** {@code IBV_WC_TM_SYNC}. */
    TM_SYNC(IBV_WC_TM_SYNC),
    /** {@code IBV_WC_TM_RECV}. */
    TM_RECV(IBV_WC_TM_RECV),
    /** {@code IBV_WC_TM_NO_TAG}. */
    TM_NO_TAG(IBV_WC_TM_NO_TAG),
    /** {@code IBV_WC_DRIVER1}. */
    DRIVER1(IBV_WC_DRIVER1),
    /** {@code IBV_WC_DRIVER2}. */
    DRIVER2(IBV_WC_DRIVER2),
    /** {@code IBV_WC_DRIVER3}. */
    DRIVER3(IBV_WC_DRIVER3);

    private static final Table<CompletionOpcode> TABLE = new Table<>(CompletionOpcode.class, "ibv_wc_opcode");
    private final int value;

    CompletionOpcode(int value) {
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
    public static CompletionOpcode of(int value) {
        return TABLE.of(value);
    }

    /**
     * The constant for a C value, or {@code null} when this version does not know it.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value, or {@code null} when this version does not know it
     */
    public static CompletionOpcode orNull(int value) {
        return TABLE.orNull(value);
    }
}
