package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/**
 * Work completion status (C {@code enum ibv_wc_status}). {@link #describe()} gives libibverbs' own text for a value
 * ({@code ibv_wc_status_str}), e.g. "local length error" for {@link #LOC_LEN_ERR}.
 */
public enum CompletionStatus implements DescribedEnum {
    /** {@code IBV_WC_SUCCESS}. */
    SUCCESS(IBV_WC_SUCCESS),
    /** {@code IBV_WC_LOC_LEN_ERR}. */
    LOC_LEN_ERR(IBV_WC_LOC_LEN_ERR),
    /** {@code IBV_WC_LOC_QP_OP_ERR}. */
    LOC_QP_OP_ERR(IBV_WC_LOC_QP_OP_ERR),
    /** {@code IBV_WC_LOC_EEC_OP_ERR}. */
    LOC_EEC_OP_ERR(IBV_WC_LOC_EEC_OP_ERR),
    /** {@code IBV_WC_LOC_PROT_ERR}. */
    LOC_PROT_ERR(IBV_WC_LOC_PROT_ERR),
    /** {@code IBV_WC_WR_FLUSH_ERR}. */
    WR_FLUSH_ERR(IBV_WC_WR_FLUSH_ERR),
    /** {@code IBV_WC_MW_BIND_ERR}. */
    MW_BIND_ERR(IBV_WC_MW_BIND_ERR),
    /** {@code IBV_WC_BAD_RESP_ERR}. */
    BAD_RESP_ERR(IBV_WC_BAD_RESP_ERR),
    /** {@code IBV_WC_LOC_ACCESS_ERR}. */
    LOC_ACCESS_ERR(IBV_WC_LOC_ACCESS_ERR),
    /** {@code IBV_WC_REM_INV_REQ_ERR}. */
    REM_INV_REQ_ERR(IBV_WC_REM_INV_REQ_ERR),
    /** {@code IBV_WC_REM_ACCESS_ERR}. */
    REM_ACCESS_ERR(IBV_WC_REM_ACCESS_ERR),
    /** {@code IBV_WC_REM_OP_ERR}. */
    REM_OP_ERR(IBV_WC_REM_OP_ERR),
    /** {@code IBV_WC_RETRY_EXC_ERR}. */
    RETRY_EXC_ERR(IBV_WC_RETRY_EXC_ERR),
    /** {@code IBV_WC_RNR_RETRY_EXC_ERR}. */
    RNR_RETRY_EXC_ERR(IBV_WC_RNR_RETRY_EXC_ERR),
    /** {@code IBV_WC_LOC_RDD_VIOL_ERR}. */
    LOC_RDD_VIOL_ERR(IBV_WC_LOC_RDD_VIOL_ERR),
    /** {@code IBV_WC_REM_INV_RD_REQ_ERR}. */
    REM_INV_RD_REQ_ERR(IBV_WC_REM_INV_RD_REQ_ERR),
    /** {@code IBV_WC_REM_ABORT_ERR}. */
    REM_ABORT_ERR(IBV_WC_REM_ABORT_ERR),
    /** {@code IBV_WC_INV_EECN_ERR}. */
    INV_EECN_ERR(IBV_WC_INV_EECN_ERR),
    /** {@code IBV_WC_INV_EEC_STATE_ERR}. */
    INV_EEC_STATE_ERR(IBV_WC_INV_EEC_STATE_ERR),
    /** {@code IBV_WC_FATAL_ERR}. */
    FATAL_ERR(IBV_WC_FATAL_ERR),
    /** {@code IBV_WC_RESP_TIMEOUT_ERR}. */
    RESP_TIMEOUT_ERR(IBV_WC_RESP_TIMEOUT_ERR),
    /** {@code IBV_WC_GENERAL_ERR}. */
    GENERAL_ERR(IBV_WC_GENERAL_ERR),
    /** {@code IBV_WC_TM_ERR}. */
    TM_ERR(IBV_WC_TM_ERR),
    /** {@code IBV_WC_TM_RNDV_INCOMPLETE}. */
    TM_RNDV_INCOMPLETE(IBV_WC_TM_RNDV_INCOMPLETE);

    private static final Table<CompletionStatus> TABLE = new Table<>(CompletionStatus.class, "ibv_wc_status");
    private final int value;

    CompletionStatus(int value) {
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
    public static CompletionStatus of(int value) {
        return TABLE.of(value);
    }

    /**
     * The constant for a C value, or {@code null} when this version does not know it.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value, or {@code null} when this version does not know it
     */
    public static CompletionStatus orNull(int value) {
        return TABLE.orNull(value);
    }
}
