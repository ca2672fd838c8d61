package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/** Memory access rights of a region, window or queue pair (C {@code enum ibv_access_flags}); combine them in an {@link java.util.EnumSet}. */
public enum AccessFlag implements BitFlag {
    /** {@code IBV_ACCESS_LOCAL_WRITE}. */
    LOCAL_WRITE(IBV_ACCESS_LOCAL_WRITE),
    /** {@code IBV_ACCESS_REMOTE_WRITE}. */
    REMOTE_WRITE(IBV_ACCESS_REMOTE_WRITE),
    /** {@code IBV_ACCESS_REMOTE_READ}. */
    REMOTE_READ(IBV_ACCESS_REMOTE_READ),
    /** {@code IBV_ACCESS_REMOTE_ATOMIC}. */
    REMOTE_ATOMIC(IBV_ACCESS_REMOTE_ATOMIC),
    /** {@code IBV_ACCESS_MW_BIND}. */
    MW_BIND(IBV_ACCESS_MW_BIND),
    /** {@code IBV_ACCESS_ZERO_BASED}. */
    ZERO_BASED(IBV_ACCESS_ZERO_BASED),
    /** {@code IBV_ACCESS_ON_DEMAND}. */
    ON_DEMAND(IBV_ACCESS_ON_DEMAND),
    /** {@code IBV_ACCESS_HUGETLB}. */
    HUGETLB(IBV_ACCESS_HUGETLB),
    /** {@code IBV_ACCESS_RELAXED_ORDERING}. */
    RELAXED_ORDERING(IBV_ACCESS_RELAXED_ORDERING);

    private final int bit;

    AccessFlag(int bit) {
        this.bit = bit;
    }

    @Override
    public int bit() {
        return bit;
    }
}
