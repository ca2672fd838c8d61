package dev.panamaverbs.testkit;

import org.junit.jupiter.api.Assumptions;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The testkit against a real device: listing through libibverbs finds the configured device. */
class DeviceListingDeviceTest {

    @DeviceTest
    void theInjectedDeviceIsListed(TestDevice device) {
        List<String> names = DeviceInventory.system().deviceNames();
        assertTrue(names.contains(device.name()), () -> device.name() + " not in " + names);
    }

    @DeviceTest
    void theSoftRoceVmHasExactlyRxe0OnPort1WithTheIpv4Gid(TestDevice device) {
        Assumptions.assumeTrue("1".equals(System.getenv("VERBS_IN_VM")), "only inside ./verbs vm");
        assertEquals(List.of("rxe0"), DeviceInventory.system().deviceNames());
        assertEquals(new TestDevice("rxe0", 1, 1), device);
    }
}
