package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.values.AsyncEventType;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.Context;
import dev.panamaverbs.Device;
import dev.panamaverbs.values.ExtendedDeviceAttributes;
import dev.panamaverbs.values.GlobalRoute;
import dev.panamaverbs.values.PortState;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.StaticRate;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;

/**
 * The pure verbs in the VM, on the device's own values: {@code ibv_get_device_name} (behind
 * {@link Device#name()}), the {@code ibv_*_str} texts ({@code describe()} of the enums), the
 * {@code enum ibv_rate} tables ({@link StaticRate}), {@code ibv_is_qpt_supported}
 * ({@link QueuePairType#isSupportedIn}) and {@code ibv_flow_label_to_udp_sport}
 * ({@link GlobalRoute#udpSourcePort(int)}).
 */
class NamesAndRatesDeviceTest {

    /** {@code ibv_get_device_name}: the listing names the test device by libibverbs' own name. */
    @DeviceTest
    void theListingNamesTheDevice(TestDevice device) {
        assertTrue(Verbs.devices().stream().map(Device::name).anyMatch(device.name()::equals), Verbs.devices().toString());
    }

    /** The {@code ibv_*_str} texts of the device's node type, its port's state, a status and an event type. */
    @DeviceTest
    void libibverbsDescribesTheDevicesValues(Context context, TestDevice device) {
        String node = context.device().nodeType().describe();
        PortState state = context.queryPort(device.port()).state();
        System.out.println("# NamesAndRatesDeviceTest: " + context.device().name() + " node type \"" + node
                + "\", port " + device.port() + " \"" + state.describe() + "\"");
        assertFalse(node.isEmpty());
        assertEquals("active", PortState.ACTIVE.describe());
        assertEquals("active", state.describe(), "the VM's rxe port is up");
        assertEquals("local length error", CompletionStatus.LOC_LEN_ERR.describe());
        assertEquals("port active", AsyncEventType.PORT_ACTIVE.describe());
    }

    /** {@code ibv_rate_to_mult}, {@code mult_to_ibv_rate}, {@code ibv_rate_to_mbps}, {@code mbps_to_ibv_rate}. */
    @DeviceTest
    void staticRatesConvertBothWays(Context context) {
        StaticRate tenGbps = StaticRate.ofMultiple(4);
        assertEquals(3, tenGbps.value(), "IBV_RATE_10_GBPS");
        assertEquals(4, tenGbps.multiple());
        assertEquals(10000, tenGbps.mbps());
        assertEquals(tenGbps, StaticRate.ofMbps(10000));
        assertEquals(StaticRate.PORT_RATE, StaticRate.ofMbps(12345));
    }

    /** {@code ibv_is_qpt_supported} on the device's TSO mask, {@code ibv_flow_label_to_udp_sport} on a label. */
    @DeviceTest
    void qpTypeMasksAndUdpSourcePorts(Context context) {
        int tsoTypes = context.maxAttributes().extended()
                .map(ExtendedDeviceAttributes::tcpSegmentationOffload)
                .map(ExtendedDeviceAttributes.TcpSegmentationOffload::supportedQpTypes)
                .orElse(0);
        for (QueuePairType type : new QueuePairType[] {QueuePairType.RC, QueuePairType.UD, QueuePairType.RAW_PACKET}) {
            assertEquals((tsoTypes >>> type.value() & 1) == 1, type.isSupportedIn(tsoTypes), type.toString());
        }
        System.out.println("# NamesAndRatesDeviceTest: TSO supported_qpts 0x" + Integer.toHexString(tsoTypes)
                + ", UD " + QueuePairType.UD.isSupportedIn(tsoTypes));
        assertEquals(0xe341, GlobalRoute.udpSourcePort(0x12345));
    }
}
