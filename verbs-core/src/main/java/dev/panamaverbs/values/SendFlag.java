package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/** Flags of a send work request (C {@code enum ibv_send_flags}); combine them in an {@link java.util.EnumSet}. */
public enum SendFlag implements BitFlag {
    /** {@code IBV_SEND_FENCE}. */
    FENCE(IBV_SEND_FENCE),
    /** {@code IBV_SEND_SIGNALED}. */
    SIGNALED(IBV_SEND_SIGNALED),
    /** {@code IBV_SEND_SOLICITED}. */
    SOLICITED(IBV_SEND_SOLICITED),
    /** {@code IBV_SEND_INLINE}. */
    INLINE(IBV_SEND_INLINE),
    /** {@code IBV_SEND_IP_CSUM}. */
    IP_CSUM(IBV_SEND_IP_CSUM);

    private final int bit;

    SendFlag(int bit) {
        this.bit = bit;
    }

    @Override
    public int bit() {
        return bit;
    }
}
