package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/** Flags of a work completion (C {@code enum ibv_wc_flags}); combine them in an {@link java.util.EnumSet}. */
public enum CompletionFlag implements BitFlag {
    /** {@code IBV_WC_GRH}. */
    GRH(IBV_WC_GRH),
    /** {@code IBV_WC_WITH_IMM}. */
    WITH_IMM(IBV_WC_WITH_IMM),
    /** {@code IBV_WC_IP_CSUM_OK}. */
    IP_CSUM_OK(IBV_WC_IP_CSUM_OK),
    /** {@code IBV_WC_WITH_INV}. */
    WITH_INV(IBV_WC_WITH_INV),
    /** {@code IBV_WC_TM_SYNC_REQ}. */
    TM_SYNC_REQ(IBV_WC_TM_SYNC_REQ),
    /** {@code IBV_WC_TM_MATCH}. */
    TM_MATCH(IBV_WC_TM_MATCH),
    /** {@code IBV_WC_TM_DATA_VALID}. */
    TM_DATA_VALID(IBV_WC_TM_DATA_VALID);

    private final int bit;

    CompletionFlag(int bit) {
        this.bit = bit;
    }

    @Override
    public int bit() {
        return bit;
    }
}
