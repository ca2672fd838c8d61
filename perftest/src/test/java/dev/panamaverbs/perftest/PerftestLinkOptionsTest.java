package dev.panamaverbs.perftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.perftest.PerftestOptions.Connection;
import dev.panamaverbs.values.AtomicCapability;
import dev.panamaverbs.values.DeviceAttributes;
import dev.panamaverbs.values.ExtendedDeviceAttributes;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * perftest's link and path options ({@code -X --retry_count --wait_destroy --use_old_post_send}),
 * and the options refused with a reason: by perftest's own text ({@code -T} without {@code -R}, PP),
 * by what the device reports ({@code -O --odp -c XRC --rate_limit}), or as another provider's feature.
 * The texts are Debian's perftest 4.5's (its tools on the host refuse these before opening a device).
 */
class PerftestLinkOptionsTest {
    @Test
    void completionVectorWithEvents() {
        assertEquals(0, PerftestOptions.parse("send_bw", "-e").link().completionVector());
        assertEquals(3, PerftestOptions.parse("send_lat", "-e", "-X", "3").link().completionVector());
        assertEquals(1, PerftestOptions.parse("read_bw", "--vector=1", "-e").link().completionVector());
        assertEquals("Events must be enabled to select a completion vector", refusal("send_lat", "-X", "1"));
        assertEquals("EQN should be between 0 and 2048", refusal("send_lat", "-e", "-X", "2049"));
        assertEquals("Events feature not available on WRITE verb", refusal("write_lat", "-X", "0"));
    }

    @Test
    void retryCountWaitDestroyAndOldPostSend() {
        LinkOptions defaults = PerftestOptions.parse("write_bw").link();
        assertEquals(LinkOptions.DEFAULT, defaults);
        assertEquals(5, PerftestOptions.parse("write_bw", "-R", "--retry_count=5").link().retryCount());
        assertEquals(9, PerftestOptions.parse("write_bw", "--retry_count", "9").link().retryCount(),
                "taken as given; with -R the kernel's rdma_cm (and the twin) makes it 7");
        assertEquals("Retry Count must be non-negative", refusal("send_bw", "--retry_count=-1"));
        assertEquals(2, PerftestOptions.parse("send_lat", "--wait_destroy=2").link().waitDestroySeconds());
        assertEquals(LinkOptions.DEFAULT, PerftestOptions.parse("send_bw", "--use_old_post_send").link(),
                "the twin posts with ibv_post_send anyway");
        assertTrue(PerftestOptions.parse("read_bw", "--perform_warm_up").link().warmUp());
        assertTrue(PerftestOptions.parse("send_lat", "--perform_warm_up").link().warmUp(), "taken on every test, as perftest");
    }

    @Test
    void pkeyIndexAndTrafficClass() {
        LinkOptions link = PerftestOptions.parse("write_lat", "--pkey_index=3", "--tclass", "32").link();
        assertEquals(3, link.pkeyIndex());
        assertEquals(32, link.trafficClass());
        assertEquals(3, link.pkeyIndexOn(64), "within the device's table");
        assertEquals(0, link.pkeyIndexOn(3), "above max_pkeys - 1: 0, as perftest's ctx_chk_pkey_index");
        assertEquals(3, link.pkeyIndexOn(4));
        assertEquals("tclass should be between 0 and 255", refusal("write_lat", "--tclass=256"));
    }

    @Test
    void tosAsPerftestAndForWantOfRdmaSetOption() {
        assertEquals("TOS should be between 0 and 255", refusal("write_lat", "-T", "300"));
        assertEquals("TOS only valid for rdma_cm based QP and RawEth QP", refusal("write_lat", "-T", "5"));
        assertTrue(refusal("write_lat", "-T", "5", "-R").contains("rdma_set_option"));
    }

    @Test
    void connectionTypesAsPerftestNamesThem() {
        assertEquals("Invalid Connection type. Please choose from {RC,UC,UD,XRC,DC,SRD}", refusal("send_bw", "-c", "FOO"));
        assertEquals("Invalid Connection type. Please choose from {RC,UC,UD,XRC,DC,SRD}", refusal("send_bw", "-c", "rc"),
                "perftest compares the names as given");
        assertEquals("SRD connection only possible in SEND/READ verbs", refusal("write_bw", "-c", "SRD"));
        assertTrue(refusal("send_bw", "-c", "SRD").contains("efa's transport"));
        assertTrue(refusal("read_bw", "-c", "DC").contains("mlx5's transport"));
        PerftestOptions xrc = PerftestOptions.parse("read_bw", "-c", "XRC");
        assertEquals(Connection.RC, xrc.connection());
        assertEquals(List.of(DeviceFeature.XRC), xrc.link().deviceFeatures());
    }

    @Test
    void rateLimiterAsPerftestReadsIt() {
        assertEquals(List.of(DeviceFeature.HARDWARE_RATE_LIMIT),
                PerftestOptions.parse("write_bw", "--rate_limit=5").link().deviceFeatures(), "HW, perftest's default");
        assertEquals("Packet Pacing is only supported for Raw Ethernet.",
                refusal("write_bw", "--rate_limit=5", "--rate_limit_type=PP"));
        assertEquals("Invalid rate limit type flag. Please use HW, SW or PP.", refusal("write_bw", "--rate_limit_type=XX"));
        assertEquals("Rate limit must be non-negative", refusal("write_bw", "--rate_limit=0"));
        assertTrue(refusal("write_bw", "--rate_limit_type=SW").endsWith("is not supported by the Java perftest yet"));
    }

    @Test
    void otherProvidersFeaturesRefusedWithTheReason() {
        assertTrue(refusal("write_bw", "--aes_xts").startsWith("--aes_xts: AES-XTS is mlx5's crypto"));
        assertTrue(refusal("send_lat", "--inline_recv=64").startsWith("--inline_recv: inline receive is a provider's"));
        assertTrue(refusal("send_bw", "--log_dci_streams=2").startsWith("--log_dci_streams: DC is mlx5's"));
        assertEquals(List.of(DeviceFeature.DUAL_PORT, DeviceFeature.ON_DEMAND_PAGING),
                PerftestOptions.parse("write_bw", "-O", "--odp").link().deviceFeatures());
    }

    @Test
    void deviceFeaturesByWhatTheDeviceReports() {
        DeviceAttributes rxe = device(1, 0, new ExtendedDeviceAttributes.OnDemandPaging(0, 0, 0, 0), 0);
        IllegalStateException dualPort = assertThrows(IllegalStateException.class,
                () -> DeviceFeature.refuse(List.of(DeviceFeature.DUAL_PORT), "rxe0", rxe));
        assertEquals("-O (--dualport) on rxe0: dual-port mode needs two ports; the device reports 1 (phys_port_cnt)",
                dualPort.getMessage());
        assertEquals("the device reports no on-demand paging for RC (odp_caps general 0, rc 0)",
                DeviceFeature.ON_DEMAND_PAGING.lacking(rxe));
        assertEquals("the device reports no XRC (IBV_DEVICE_XRC not in device_cap_flags)", DeviceFeature.XRC.lacking(rxe));
        assertEquals("the device reports no packet pacing (packet_pacing_caps.qp_rate_limit_max 0)",
                DeviceFeature.HARDWARE_RATE_LIMIT.lacking(rxe));
        // a device that reports them all: refused as not implemented
        DeviceAttributes capable = device(2, 1L << 20, new ExtendedDeviceAttributes.OnDemandPaging(1, 0x3f, 0, 0), 100_000);
        for (DeviceFeature feature : DeviceFeature.values()) {
            assertNull(feature.lacking(capable), feature.name());
        }
        IllegalStateException notYet = assertThrows(IllegalStateException.class,
                () -> DeviceFeature.refuse(List.of(DeviceFeature.ON_DEMAND_PAGING), "mlx5_0", capable));
        assertEquals("--odp is not supported by the Java perftest yet (mlx5_0 reports the feature)", notYet.getMessage());
        DeviceFeature.refuse(List.of(), "rxe0", rxe);   // nothing asked: nothing refused
    }

    /** Device attributes with the fields the features read; the rest zero. {@code capFlags} 1 << 20 is {@code IBV_DEVICE_XRC}. */
    private static DeviceAttributes device(int ports, long capFlags, ExtendedDeviceAttributes.OnDemandPaging odp, long pacingMaxKbps) {
        ExtendedDeviceAttributes extended = new ExtendedDeviceAttributes(0, odp, 0, 0, capFlags, null, null, 0,
                new ExtendedDeviceAttributes.PacketPacing(0, pacingMaxKbps, 0), 0, null, null, 0, null, 0, 0);
        return new DeviceAttributes("", 0, 0, 0, 0, 0, 0, 0, 0, 0, capFlags, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                AtomicCapability.NONE, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ports, Optional.of(extended));
    }

    private static String refusal(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse(args)).getMessage();
    }
}
