package dev.panamaverbs;

import dev.panamaverbs.values.Errno;
import dev.panamaverbs.values.NodeType;
import dev.panamaverbs.values.TransportType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What works without a device: availability answers, and listing (empty on a host without RDMA). */
class VerbsTest {
    @Test
    void availabilityAnswersAgree() {
        boolean available = Verbs.isAvailable();
        assertEquals(available, Verbs.unavailabilityCause().isEmpty());
        assertNotNull(Verbs.libraryPath());
        if (available) {
            Verbs.ensureAvailable();
        } else {
            assertThrows(VerbsUnavailableException.class, Verbs::ensureAvailable);
            assertTrue(Verbs.capabilities().isEmpty());
            assertTrue(Verbs.devices().isEmpty());
            assertThrows(VerbsUnavailableException.class, Verbs::firstDevice);
        }
    }

    @Test
    void theUnavailabilityIsOfferedAsAnExceptionWithTheCauseText() {
        assertEquals(Verbs.isAvailable(), Verbs.unavailabilityException().isEmpty());
        Verbs.unavailabilityException().ifPresent(offered -> {
            assertTrue(offered.getMessage().endsWith(Verbs.unavailabilityCause().orElseThrow()), offered.getMessage());
            VerbsUnavailableException thrown = assertThrows(VerbsUnavailableException.class, Verbs::ensureAvailable);
            assertEquals(offered.getMessage(), thrown.getMessage());
        });
    }

    @Test
    void listingDevicesFreesTheListAndReadsNamesEagerly() {
        assumeTrue(Verbs.isAvailable(), () -> "libibverbs unavailable: " + Verbs.unavailabilityCause().orElse(""));
        List<Device> devices = Verbs.devices();
        // Twice: the list is freed after each call, and devices are plain values.
        assertEquals(devices, Verbs.devices());
        for (Device device : devices) {
            assertFalse(device.name().isEmpty());
            assertEquals(19, device.nodeGuidString().length());
        }
        assertThrows(UnsupportedOperationException.class, () -> devices.add(null));
    }

    @Test
    void deviceLookupRejectsEmptyNames() {
        assertThrows(IllegalArgumentException.class, () -> Verbs.device(""));
        assertThrows(IllegalArgumentException.class, () -> Verbs.device(null));
    }

    @Test
    void unknownDeviceIsAbsent() {
        assumeTrue(Verbs.isAvailable());
        assertTrue(Verbs.device("no-such-device-42").isEmpty());
    }

    @Test
    void openingADeviceThatIsNotListedFailsClearly() {
        assumeTrue(Verbs.isAvailable());
        Device ghost = new Device("no-such-device-42", 0, NodeType.CA, TransportType.IB);
        dev.panamaverbs.VerbsException failure =
                assertThrows(dev.panamaverbs.VerbsException.class, ghost::open);
        assertEquals("ibv_open_device", failure.verb());
        assertEquals(dev.panamaverbs.values.Errno.ENODEV, failure.errno());
        assertTrue(failure.getMessage().contains("no-such-device-42"), failure.getMessage());
    }
}
