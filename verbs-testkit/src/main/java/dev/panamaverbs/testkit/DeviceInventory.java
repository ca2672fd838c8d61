package dev.panamaverbs.testkit;

import java.util.List;
import java.util.Optional;

/**
 * What the device-test extension asks the machine: is libibverbs usable, and which devices does
 * it list. An interface so the skip decisions can be tested without a device.
 */
public interface DeviceInventory {
    /** Why libibverbs cannot be used here; empty when it can. */
    Optional<String> unavailabilityCause();

    /**
     * The names of the devices libibverbs lists, in its order. Only called when
     * {@link #unavailabilityCause()} is empty.
     *
     * @throws dev.panamaverbs.error.VerbsException when listing fails (e.g. ENOSYS: no kernel support)
     */
    List<String> deviceNames();

    /** The inventory of this machine, through libibverbs. */
    static DeviceInventory system() {
        return new CoreDeviceInventory();
    }
}
