package dev.panamaverbs.testkit;

import dev.panamaverbs.Context;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.GidType;
import dev.panamaverbs.values.LinkLayer;
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

    @DeviceTest
    void theSoftRoceVmHasRxe0OnPort1WithTheIpv4GidAndRxe1OnTheTwoHostLink(TestDevice device) {
        Assumptions.assumeTrue("1".equals(System.getenv("VERBS_IN_VM")), "only inside ./verbs vm");
        // A two-host run (vm.sh --peer) also has rxe1, on the link between the two VMs.
        boolean twoHosts = System.getenv("VERBS_TWO_HOST_DIR") != null;
        assertEquals(twoHosts ? List.of("rxe0", "rxe1") : List.of("rxe0"), DeviceInventory.system().deviceNames());
        assertEquals(new TestDevice("rxe0", 1, 1), device);
    }

    @DeviceTest
    void theInjectedContextIsTheChosenDeviceAndItsGidWasChosenByType(TestDevice device, Context context) {
        assertEquals(device.name(), context.device().name());
        assertFalse(context.isClosed());
        Assumptions.assumeTrue(System.getenv("VERBS_TEST_GID_INDEX") == null
                && System.getProperty("panamaverbs.test.gidIndex") == null, "a GID index was configured");
        Assumptions.assumeTrue(context.queryPort(device.port()).linkLayer() == LinkLayer.ETHERNET,
                "InfiniBand port: addressed by LID, GID 0 is the port GID");
        GidEntry chosen = context.queryGid(device.port(), device.gidIndex()).orElseThrow();
        assertEquals(GidType.ROCE_V2, chosen.type());
        assertTrue(chosen.isRoceV2Ipv4(), () -> "not an IPv4-mapped GID: " + chosen);
    }
}
