package dev.panamaverbs.internal;

import dev.panamaverbs.gateway.ProviderPosts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, once per {@code Context}, whether its queues post through critical downcalls
 * ({@code ibv_post_send}, {@code ibv_post_recv}, {@code ibv_post_srq_recv} without the
 * thread-state transition): {@link ProviderPosts}' table of providers whose posts never make a
 * system call or wait, or the system property {@value ProviderPosts#PROPERTY}.
 */
public final class CriticalPosts {
    private static final Logger LOG = LoggerFactory.getLogger(CriticalPosts.class);

    private CriticalPosts() {}

    /**
     * The decision for a device: its driver read from sysfs, its {@code vendor_id}, the property.
     *
     * @throws IllegalArgumentException for a value of the property that means nothing
     */
    public static boolean decide(String deviceName, long vendorId) {
        ProviderPosts.Mode mode = ProviderPosts.mode(System.getProperty(ProviderPosts.PROPERTY));
        String driver = ProviderPosts.driver(SysfsDeviceAttributes.ROOT, deviceName);
        boolean critical = ProviderPosts.critical(mode, driver, vendorId);
        if (mode == ProviderPosts.Mode.ON && ProviderPosts.provider(driver, vendorId) == null) {
            LOG.warn("{}=true: {} (driver {}, vendor_id 0x{}) is not among the providers whose posts never make a"
                    + " system call; its posts go through critical downcalls anyway, and safepoints wait for them",
                    ProviderPosts.PROPERTY, deviceName, driver, Long.toHexString(vendorId));
        } else {
            LOG.debug("{}: posts through {} downcalls (driver {}, vendor_id 0x{}, {}={})", deviceName,
                    critical ? "critical" : "plain", driver, Long.toHexString(vendorId), ProviderPosts.PROPERTY, mode);
        }
        return critical;
    }
}
