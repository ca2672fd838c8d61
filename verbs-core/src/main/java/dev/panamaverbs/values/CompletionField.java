package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The fields an extended CQ reports per completion (C {@code enum ibv_create_cq_wc_flags},
 * {@code ibv_cq_init_attr_ex.wc_flags}). Requesting fewer lets the provider skip work. Each field
 * {@link dev.panamaverbs.CompletionQueueOptions} accepts has a reader on {@link dev.panamaverbs.Completions}; {@link #CVLAN} and
 * {@link #TM_INFO} have none in this version and are refused there
 * ({@code docs/verb-coverage.md} lists each field with its reader).
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
    /** {@code IBV_WC_EX_WITH_CVLAN}: refused, no reader ({@code ibv_wc_read_cvlan} is not offered). */
    CVLAN(IBV_WC_EX_WITH_CVLAN, "ibv_wc_read_cvlan is not offered"),
    /** {@code IBV_WC_EX_WITH_FLOW_TAG}: the flow rule's tag, {@link dev.panamaverbs.FlowRule.Builder#tag(int)}. */
    FLOW_TAG(IBV_WC_EX_WITH_FLOW_TAG),
    /** {@code IBV_WC_EX_WITH_TM_INFO}: refused, tag matching is not offered. */
    TM_INFO(IBV_WC_EX_WITH_TM_INFO, "tag matching (ibv_post_srq_ops, ibv_wc_read_tm_info) is not offered"),
    /** {@code IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK}: nanoseconds. */
    COMPLETION_TIMESTAMP_WALLCLOCK(IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK);

    /** {@code IBV_WC_STANDARD_FLAGS}: the fields a plain {@code struct ibv_wc} carries. */
    public static final Set<CompletionField> STANDARD = Collections.unmodifiableSet(
            EnumSet.of(BYTE_LEN, IMM, QP_NUM, SRC_QP, SLID, SL, DLID_PATH_BITS));

    private final int bit;
    /** Why the field is refused, or null when {@link dev.panamaverbs.Completions} reads it. */
    private final String refusal;

    CompletionField(int bit) {
        this(bit, null);
    }

    CompletionField(int bit, String refusal) {
        this.bit = bit;
        this.refusal = refusal;
    }

    /**
     * Whether {@link dev.panamaverbs.Completions} has a reader for this field, so that a queue may request it.
     *
     * @return false for {@link #CVLAN} and {@link #TM_INFO}
     */
    public boolean isReadable() {
        return refusal == null;
    }

    /**
     * Throws for the first field of {@code fields} that has no reader, naming why.
     *
     * @param verb   the verb the message names
     * @param fields the fields a completion queue is asked to read
     * @throws IllegalArgumentException for a field this library has no reader for
     */
    public static void requireReadable(String verb, Set<CompletionField> fields) {
        for (CompletionField field : fields) {
            if (field.refusal != null) {
                throw new IllegalArgumentException(verb + ": CompletionField." + field + " cannot be read back: "
                        + field.refusal);
            }
        }
    }

    @Override
    public int bit() {
        return bit;
    }
}
