package dev.panamaverbs.perftest;

import dev.panamaverbs.values.DeviceAttributes;
import dev.panamaverbs.values.DeviceCapability;
import dev.panamaverbs.values.ExtendedDeviceAttributes;
import java.util.List;

/**
 * perftest options that need a device feature: refused once the device is open, with what the
 * device reports ({@code ibv_query_device_ex}), not by its name. The twin implements none of
 * them, so a device that reports the feature gets "not supported by the Java perftest yet".
 */
public enum DeviceFeature {
    /** {@code -O}: two ports ({@code phys_port_cnt}). */
    DUAL_PORT("-O (--dualport)") {
        @Override
        String lacking(DeviceAttributes attributes) {
            int ports = attributes.portCount();
            return ports < 2 ? "dual-port mode needs two ports; the device reports " + ports + " (phys_port_cnt)" : null;
        }
    },
    /** {@code --odp}: on-demand paging for RC ({@code odp_caps}). */
    ON_DEMAND_PAGING("--odp") {
        @Override
        String lacking(DeviceAttributes attributes) {
            ExtendedDeviceAttributes.OnDemandPaging odp = attributes.extended().map(ExtendedDeviceAttributes::onDemandPaging)
                    .orElse(null);
            return odp == null || !odp.supported() || odp.rcCaps() == 0
                    ? "the device reports no on-demand paging for RC (odp_caps general " + (odp == null ? 0 : odp.generalCaps())
                    + ", rc " + (odp == null ? 0 : odp.rcCaps()) + ")" : null;
        }
    },
    /** {@code -c XRC}: {@code IBV_DEVICE_XRC}. */
    XRC("-c XRC") {
        @Override
        String lacking(DeviceAttributes attributes) {
            return attributes.capabilities().contains(DeviceCapability.XRC) ? null
                    : "the device reports no XRC (IBV_DEVICE_XRC not in device_cap_flags)";
        }
    },
    /** {@code --rate_limit} with perftest's default HW limiter: packet pacing ({@code packet_pacing_caps}). */
    HARDWARE_RATE_LIMIT("--rate_limit (HW)") {
        @Override
        String lacking(DeviceAttributes attributes) {
            long max = attributes.extended().map(extended -> extended.packetPacing().qpRateLimitMaxKbps()).orElse(0L);
            return max == 0 ? "the device reports no packet pacing (packet_pacing_caps.qp_rate_limit_max 0)" : null;
        }
    };

    private final String option;

    DeviceFeature(String option) {
        this.option = option;
    }

    /** Why the device cannot honour the option, from what it reports; {@code null} when it reports the feature. */
    abstract String lacking(DeviceAttributes attributes);

    /**
     * Refuses the first of {@code features} (an {@link IllegalStateException}): with the device's
     * report when it lacks the feature, else as not implemented by the twin.
     */
    static void refuse(List<DeviceFeature> features, String deviceName, DeviceAttributes attributes) {
        if (features.isEmpty()) {
            return;
        }
        DeviceFeature feature = features.getFirst();
        String lacking = feature.lacking(attributes);
        throw new IllegalStateException(lacking != null ? feature.option + " on " + deviceName + ": " + lacking
                : feature.option + " is not supported by the Java perftest yet (" + deviceName + " reports the feature)");
    }
}
