package dev.panamaverbs.testkit;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the device-test extension asks the machine: is libibverbs usable, and which devices does
 * it list. An interface so the skip decisions can be tested without a device.
 */
public interface DeviceInventory {
    /**
     * Why libibverbs cannot be used here; empty when it can.
     *
     * @return why libibverbs cannot be used here; empty when it can
     */
    Optional<String> unavailabilityCause();

    /**
     * The names of the devices libibverbs lists, in its order. Only called when
     * {@link #unavailabilityCause()} is empty.
     *
     * @throws dev.panamaverbs.VerbsException when listing fails (e.g. ENOSYS: no kernel support)
     * @return the names of the devices libibverbs lists, in its order
     */
    List<String> deviceNames();

    /**
     * The index of the port's RoCE v2 GID that maps an IPv4 address (what RoCE traffic between
     * two endpoints over IPv4 wants), chosen by GID type, never by a fixed index; empty when the
     * port has none (InfiniBand, or RoCE without IPv4).
     *
     * @param deviceName the device name
     * @param port the port number (1-based)
     * @return the index of the port's RoCE v2 GID that maps an IPv4 address (what RoCE traffic between two endpoints over IPv4 wants), chosen by GID type, never by a fixed index
     */
    default OptionalInt roceV2Ipv4GidIndex(String deviceName, int port) {
        return OptionalInt.empty();
    }

    /**
     * The inventory of this machine, through libibverbs.
     *
     * @return the inventory of this machine, through libibverbs
     */
    static DeviceInventory system() {
        return new CoreDeviceInventory();
    }
}
