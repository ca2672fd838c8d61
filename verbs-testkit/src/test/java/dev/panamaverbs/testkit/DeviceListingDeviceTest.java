package dev.panamaverbs.testkit;

import dev.panamaverbs.Context;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.GidType;
import org.junit.jupiter.api.Assumptions;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The testkit against a real device: listing through libibverbs finds the configured device. */
class DeviceListingDeviceTest {

    @DeviceTest
    void theInjectedDeviceIsListed(TestDevice device) {
        List<String> names = DeviceInventory.system().deviceNames();
        assertTrue(names.contains(device.name()), () -> device.name() + " not in " + names);
    }

    /**
     * The VM lists the devices scripts/vm.sh brought up and named ({@code rxe0}, or {@code siw0} in
     * a siw VM), and injects the first on port 1, at the RoCE v2 IPv4 GID (index 1 on RoCE) or
     * else index 0.
     */
    @DeviceTest
    void theVmListsTheDevicesItBroughtUpAndInjectsTheFirstOnPort1(TestDevice device, Context context) {
        Assumptions.assumeTrue("1".equals(System.getenv("VERBS_IN_VM")), "only inside ./verbs vm");
        String first = System.getenv(DeviceSettings.DEVICE_ENV);
        // A two-host run (vm.sh --peer) also has the device on the link between the two VMs.
        boolean twoHosts = System.getenv("VERBS_TWO_HOST_DIR") != null;
        List<String> expected = twoHosts ? List.of(first, System.getenv("VERBS_TWO_HOST_DEVICE")) : List.of(first);
        assertEquals(expected, DeviceInventory.system().deviceNames());
        assertEquals(new TestDevice(first, 1, DeviceCapability.ROCE.isSupportedBy(context) ? 1 : 0), device);
    }

    @DeviceTest
    void theInjectedContextIsTheChosenDeviceAndItsGidWasChosenByType(TestDevice device, Context context) {
        assertEquals(device.name(), context.device().name());
        assertFalse(context.isClosed());
        Assumptions.assumeTrue(System.getenv("VERBS_TEST_GID_INDEX") == null
                && System.getProperty("panamaverbs.test.gidIndex") == null, "a GID index was configured");
        if (!DeviceCapability.ROCE.isSupportedBy(context)) {
            // An InfiniBand port (addressed by LID, GID 0 the port GID) or iWARP (its MAC): nothing to choose.
            assertEquals(0, device.gidIndex(), "no RoCE v2 IPv4 GID: index 0");
            DeviceCapability.ROCE.require(context);
        }
        GidEntry chosen = context.queryGid(device.port(), device.gidIndex()).orElseThrow();
        assertEquals(GidType.ROCE_V2, chosen.type());
        assertTrue(chosen.isRoceV2Ipv4(), () -> "not an IPv4-mapped GID: " + chosen);
    }
}
