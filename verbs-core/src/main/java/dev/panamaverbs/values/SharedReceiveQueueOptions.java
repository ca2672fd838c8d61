package dev.panamaverbs.values;


/**
 * What a shared receive queue is created with ({@code struct ibv_srq_init_attr.attr} for
 * {@code ibv_create_srq}); {@code ProtectionDomain.createSharedReceiveQueue} takes it.
 *
 * @param maxWorkRequests {@code max_wr}: outstanding receive requests, 1..{@code max_srq_wr}
 * @param maxSge          {@code max_sge}: scatter/gather entries per request, 1..{@code max_srq_sge}
 * @param limit           {@code srq_limit}: when above 0, the queue is armed right after creation
 *                        ({@code ibv_modify_srq} with {@code IBV_SRQ_LIMIT}) to raise
 *                        {@code IBV_EVENT_SRQ_LIMIT_REACHED} once fewer requests than this remain;
 *                        0 leaves it unarmed ({@code ibv_create_srq} itself ignores the value)
 */
public record SharedReceiveQueueOptions(int maxWorkRequests, int maxSge, int limit) {

    /** Checks the components. */
    public SharedReceiveQueueOptions {
        if (maxWorkRequests < 1) {
            throw new IllegalArgumentException("ibv_create_srq: max_wr must be >= 1, got " + maxWorkRequests);
        }
        if (maxSge < 1) {
            throw new IllegalArgumentException("ibv_create_srq: max_sge must be >= 1, got " + maxSge);
        }
        if (limit < 0 || limit > maxWorkRequests) {
            throw new IllegalArgumentException("ibv_create_srq: srq_limit must be in 0.." + maxWorkRequests
                    + " (max_wr), got " + limit);
        }
    }

    /**
     * {@code maxWorkRequests} requests of {@code maxSge} entries, no limit armed.
     *
     * @param maxWorkRequests the maximum number of outstanding work requests
     * @param maxSge the maximum number of scatter/gather entries per work request
     * @return {@code maxWorkRequests} requests of {@code maxSge} entries, no limit armed
     */
    public static SharedReceiveQueueOptions of(int maxWorkRequests, int maxSge) {
        return new SharedReceiveQueueOptions(maxWorkRequests, maxSge, 0);
    }

    /**
     * These options with the limit {@code newLimit} armed after creation.
     *
     * @param newLimit the new limit
     * @return this shared receive queue options
     */
    public SharedReceiveQueueOptions withLimit(int newLimit) {
        return new SharedReceiveQueueOptions(maxWorkRequests, maxSge, newLimit);
    }
}
