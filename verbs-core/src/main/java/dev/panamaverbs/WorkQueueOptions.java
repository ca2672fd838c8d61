package dev.panamaverbs;

import java.util.Objects;

/**
 * What {@link ProtectionDomain#createWorkQueue(WorkQueueOptions)} asks for ({@code struct
 * ibv_wq_init_attr} of a receive work queue, {@code IBV_WQT_RQ}).
 *
 * @param completionQueue where its receives complete ({@code cq})
 * @param maxWorkRequests receives it can hold ({@code max_wr}), at least 1
 * @param maxSge          scatter/gather entries per receive ({@code max_sge}), at least 1
 */
public record WorkQueueOptions(CompletionQueue completionQueue, int maxWorkRequests, int maxSge) {
    /**
     * Checks the components.
     *
     * @throws IllegalArgumentException for sizes below 1
     */
    public WorkQueueOptions {
        Objects.requireNonNull(completionQueue, "ibv_create_wq: cq is null");
        if (maxWorkRequests < 1 || maxSge < 1) {
            throw new IllegalArgumentException("ibv_create_wq: max_wr and max_sge must be >= 1, got "
                    + maxWorkRequests + " and " + maxSge);
        }
    }
}
