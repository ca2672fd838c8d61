package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/**
 * The attributes an {@code ibv_modify_qp} / {@code ibv_query_qp} call reads or writes (C
 * {@code enum ibv_qp_attr_mask}). The typed transitions of {@link dev.panamaverbs.QueuePair} choose these for
 * you; combine them in an {@link java.util.EnumSet} only for
 * {@link dev.panamaverbs.QueuePair#modify(java.lang.foreign.MemorySegment, java.util.Set)}.
 */
public enum QueuePairAttributeMask implements BitFlag {
    /** {@code IBV_QP_STATE}. */
    STATE(IBV_QP_STATE),
    /** {@code IBV_QP_CUR_STATE}. */
    CURRENT_STATE(IBV_QP_CUR_STATE),
    /** {@code IBV_QP_EN_SQD_ASYNC_NOTIFY}. */
    SQD_ASYNC_NOTIFY(IBV_QP_EN_SQD_ASYNC_NOTIFY),
    /** {@code IBV_QP_ACCESS_FLAGS}. */
    ACCESS_FLAGS(IBV_QP_ACCESS_FLAGS),
    /** {@code IBV_QP_PKEY_INDEX}. */
    PKEY_INDEX(IBV_QP_PKEY_INDEX),
    /** {@code IBV_QP_PORT}. */
    PORT(IBV_QP_PORT),
    /** {@code IBV_QP_QKEY}. */
    QKEY(IBV_QP_QKEY),
    /** {@code IBV_QP_AV}. */
    ADDRESS_VECTOR(IBV_QP_AV),
    /** {@code IBV_QP_PATH_MTU}. */
    PATH_MTU(IBV_QP_PATH_MTU),
    /** {@code IBV_QP_TIMEOUT}. */
    TIMEOUT(IBV_QP_TIMEOUT),
    /** {@code IBV_QP_RETRY_CNT}. */
    RETRY_COUNT(IBV_QP_RETRY_CNT),
    /** {@code IBV_QP_RNR_RETRY}. */
    RNR_RETRY(IBV_QP_RNR_RETRY),
    /** {@code IBV_QP_RQ_PSN}. */
    RQ_PSN(IBV_QP_RQ_PSN),
    /** {@code IBV_QP_MAX_QP_RD_ATOMIC}. */
    MAX_READ_ATOMIC(IBV_QP_MAX_QP_RD_ATOMIC),
    /** {@code IBV_QP_ALT_PATH}. */
    ALTERNATE_PATH(IBV_QP_ALT_PATH),
    /** {@code IBV_QP_MIN_RNR_TIMER}. */
    MIN_RNR_TIMER(IBV_QP_MIN_RNR_TIMER),
    /** {@code IBV_QP_SQ_PSN}. */
    SQ_PSN(IBV_QP_SQ_PSN),
    /** {@code IBV_QP_MAX_DEST_RD_ATOMIC}. */
    MAX_DEST_READ_ATOMIC(IBV_QP_MAX_DEST_RD_ATOMIC),
    /** {@code IBV_QP_PATH_MIG_STATE}. */
    PATH_MIGRATION_STATE(IBV_QP_PATH_MIG_STATE),
    /** {@code IBV_QP_CAP}. */
    CAPABILITIES(IBV_QP_CAP),
    /** {@code IBV_QP_DEST_QPN}. */
    DEST_QPN(IBV_QP_DEST_QPN),
    /** {@code IBV_QP_RATE_LIMIT}. */
    RATE_LIMIT(IBV_QP_RATE_LIMIT);

    private final int bit;

    QueuePairAttributeMask(int bit) {
        this.bit = bit;
    }

    @Override
    public int bit() {
        return bit;
    }
}
