package dev.panamaverbs;

import static dev.panamaverbs.ffm.VerbsConstants.*;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The fields an extended CQ reports per completion (C {@code enum ibv_create_cq_wc_flags},
 * {@code ibv_cq_init_attr_ex.wc_flags}). Requesting fewer lets the provider skip work.
 */
public enum CompletionField implements BitFlag {
    /** {@code IBV_WC_EX_WITH_BYTE_LEN}. */
    BYTE_LEN(IBV_WC_EX_WITH_BYTE_LEN),
    /** {@code IBV_WC_EX_WITH_IMM}. */
    IMM(IBV_WC_EX_WITH_IMM),
    /** {@code IBV_WC_EX_WITH_QP_NUM}. */
    QP_NUM(IBV_WC_EX_WITH_QP_NUM),
    /** {@code IBV_WC_EX_WITH_SRC_QP}. */
    SRC_QP(IBV_WC_EX_WITH_SRC_QP),
    /** {@code IBV_WC_EX_WITH_SLID}. */
    SLID(IBV_WC_EX_WITH_SLID),
    /** {@code IBV_WC_EX_WITH_SL}. */
    SL(IBV_WC_EX_WITH_SL),
    /** {@code IBV_WC_EX_WITH_DLID_PATH_BITS}. */
    DLID_PATH_BITS(IBV_WC_EX_WITH_DLID_PATH_BITS),
    /** {@code IBV_WC_EX_WITH_COMPLETION_TIMESTAMP}: device clock ticks. */
    COMPLETION_TIMESTAMP(IBV_WC_EX_WITH_COMPLETION_TIMESTAMP),
    /** {@code IBV_WC_EX_WITH_CVLAN}. */
    CVLAN(IBV_WC_EX_WITH_CVLAN),
    /** {@code IBV_WC_EX_WITH_FLOW_TAG}. */
    FLOW_TAG(IBV_WC_EX_WITH_FLOW_TAG),
    /** {@code IBV_WC_EX_WITH_TM_INFO}. */
    TM_INFO(IBV_WC_EX_WITH_TM_INFO),
    /** {@code IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK}: nanoseconds. */
    COMPLETION_TIMESTAMP_WALLCLOCK(IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK);

    /** {@code IBV_WC_STANDARD_FLAGS}: the fields a plain {@code struct ibv_wc} carries. */
    public static final Set<CompletionField> STANDARD = Collections.unmodifiableSet(
            EnumSet.of(BYTE_LEN, IMM, QP_NUM, SRC_QP, SLID, SL, DLID_PATH_BITS));

    private final int bit;

    CompletionField(int bit) {
        this.bit = bit;
    }

    @Override
    public int bit() {
        return bit;
    }
}
