package dev.panamaverbs.perftest;

import java.util.List;

/**
 * perftest's link and path options the twin takes beyond its common subset, and the options a
 * device must support (checked against what it reports once it is open).
 *
 * @param completionVector  {@code -X}: the completion vector of the test's completion queue (with {@code -e}); 0 by default
 * @param retryCount        {@code --retry_count}: rdma_cm's {@code retry_count} with {@code -R};
 *                          {@value #NOT_GIVEN} for the twin's 6
 * @param waitDestroySeconds {@code --wait_destroy}: seconds to wait before the resources are destroyed; 0 by default
 * @param pkeyIndex         {@code --pkey_index}: the queue pairs' P_Key index (0 by default; above the device's
 *                          {@code max_pkeys - 1} it becomes 0, with perftest's notice)
 * @param trafficClass      {@code --tclass}: the GRH's traffic class, where the path has a GRH; 0 by default
 * @param warmUp            {@code --perform_warm_up}: before each size's run of the WRITE, READ and atomic
 *                          bandwidth tests, {@code -t} requests ({@code -l}'s with a post list) on each
 *                          queue pair, completed, as perftest's {@code perform_warm_up}
 * @param deviceFeatures    options refused by what the device reports ({@link DeviceFeature})
 */
public record LinkOptions(int completionVector, int retryCount, int waitDestroySeconds, int pkeyIndex, int trafficClass,
                          boolean warmUp, List<DeviceFeature> deviceFeatures) {
    /** An option not given. */
    public static final int NOT_GIVEN = -1;

    /** perftest's defaults. */
    public static final LinkOptions DEFAULT = new LinkOptions(0, NOT_GIVEN, 0, 0, 0, false, List.of());

    /**
     * The P_Key index on a device of {@code maxPkeys} entries: {@code --pkey_index}, or 0 above
     * {@code maxPkeys - 1} (perftest's {@code ctx_chk_pkey_index}).
     */
    public int pkeyIndexOn(int maxPkeys) {
        return pkeyIndex > maxPkeys - 1 ? 0 : pkeyIndex;
    }

    /** A defensive copy of the list. */
    public LinkOptions {
        deviceFeatures = List.copyOf(deviceFeatures);
    }
}
