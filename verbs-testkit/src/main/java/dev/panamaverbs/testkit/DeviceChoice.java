package dev.panamaverbs.testkit;

import dev.panamaverbs.VerbsException;

import java.util.List;
import java.util.Optional;

/**
 * The device-test extension's decision for a run: the device to use, or why device tests skip.
 * Pure logic over a {@link DeviceInventory}, so every reason can be checked without a device.
 */
public sealed interface DeviceChoice {
    /**
     * Run the tests against {@code device}.
     *
     * @param device the device and port the tests use
     */
    record Use(TestDevice device) implements DeviceChoice {}

    /**
     * Skip the tests; {@code reason} says exactly why and what to do.
     *
     * @param reason why
     */
    record Skip(String reason) implements DeviceChoice {}

    /** The hint every "no device" reason ends with. */
    String HOW_TO_GET_ONE = " (a SoftRoCE device works: on a kernel with rdma_rxe, as root,"
            + " rdma link add rxe0 type rxe netdev <iface>)";

    /**
     * Decides from what {@code inventory} reports and what {@code settings} ask for.
     *
     * @param inventory where devices come from
     * @param settings the device, port and GID index the run asks for, if any
     * @return this device choice
     */
    static DeviceChoice decide(DeviceInventory inventory, DeviceSettings settings) {
        Optional<String> cause = inventory.unavailabilityCause();
        if (cause.isPresent()) {
            return new Skip("libibverbs is unavailable: " + cause.get());
        }
        List<String> names;
        try {
            names = inventory.deviceNames();
        } catch (VerbsException e) {
            return new Skip("no RDMA device: listing devices failed: " + e.getMessage() + HOW_TO_GET_ONE);
        }
        if (names.isEmpty()) {
            return new Skip("no RDMA device: libibverbs lists none" + HOW_TO_GET_ONE);
        }
        String name = settings.device().orElse(names.getFirst());
        if (!names.contains(name)) {
            return new Skip("RDMA device '" + name + "' (from " + settings.deviceFrom()
                    + ") is absent; libibverbs lists: " + String.join(", ", names));
        }
        // A GID index asked for wins; otherwise the RoCE v2 IPv4 entry, found by type; otherwise 0
        // (InfiniBand ports address by LID, and their GID 0 is the port GID).
        int gidIndex = settings.gidIndex().orElseGet(
                () -> inventory.roceV2Ipv4GidIndex(name, settings.port()).orElse(0));
        return new Use(new TestDevice(name, settings.port(), gidIndex));
    }
}
