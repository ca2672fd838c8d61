package dev.panamaverbs.testkit;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * The device inventory of the tests that need no device: a fixed unavailability cause, a device
 * listing (which may throw, as a failing {@code ibv_get_device_list} does), and the RoCE v2 IPv4
 * GID index every port reports.
 */
record FakeInventory(Optional<String> cause, Supplier<List<String>> names, OptionalInt roceGid)
        implements DeviceInventory {

    @Override
    public Optional<String> unavailabilityCause() {
        return cause;
    }

    @Override
    public List<String> deviceNames() {
        return names.get();
    }

    @Override
    public OptionalInt roceV2Ipv4GidIndex(String deviceName, int port) {
        return roceGid;
    }
}
