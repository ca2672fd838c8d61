package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/** Queue pair state (C {@code enum ibv_qp_state}). */
public enum QueuePairState implements NativeEnum {
    /** {@code IBV_QPS_RESET}. */
    RESET(IBV_QPS_RESET),
    /** {@code IBV_QPS_INIT}. */
    INIT(IBV_QPS_INIT),
    /** {@code IBV_QPS_RTR}. */
    RTR(IBV_QPS_RTR),
    /** {@code IBV_QPS_RTS}. */
    RTS(IBV_QPS_RTS),
    /** {@code IBV_QPS_SQD}. */
    SQD(IBV_QPS_SQD),
    /** {@code IBV_QPS_SQE}. */
    SQE(IBV_QPS_SQE),
    /** {@code IBV_QPS_ERR}. */
    ERROR(IBV_QPS_ERR),
    /** {@code IBV_QPS_UNKNOWN}. */
    UNKNOWN(IBV_QPS_UNKNOWN);

    private static final Table<QueuePairState> TABLE = new Table<>(QueuePairState.class, "ibv_qp_state");
    private final int value;

    QueuePairState(int value) {
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
    public static QueuePairState of(int value) {
        return TABLE.of(value);
    }

    /**
     * The constant for a C value, or {@code null} when this version does not know it.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value, or {@code null} when this version does not know it
     */
    public static QueuePairState orNull(int value) {
        return TABLE.orNull(value);
    }
}
