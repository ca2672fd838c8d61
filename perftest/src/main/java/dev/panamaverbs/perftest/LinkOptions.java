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
 * @param deviceFeatures    options refused by what the device reports ({@link DeviceFeature})
 */
public record LinkOptions(int completionVector, int retryCount, int waitDestroySeconds, List<DeviceFeature> deviceFeatures) {
    /** An option not given. */
    public static final int NOT_GIVEN = -1;

    /** perftest's defaults. */
    public static final LinkOptions DEFAULT = new LinkOptions(0, NOT_GIVEN, 0, List.of());

    /** A defensive copy of the list. */
    public LinkOptions {
        deviceFeatures = List.copyOf(deviceFeatures);
    }
}
