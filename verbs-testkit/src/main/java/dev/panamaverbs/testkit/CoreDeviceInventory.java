package dev.panamaverbs.testkit;

import dev.panamaverbs.Context;
import dev.panamaverbs.Device;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.Verbs;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** The machine's devices as core lists them (ibv_get_device_list, names read eagerly). */
final class CoreDeviceInventory implements DeviceInventory {
    @Override
    public Optional<String> unavailabilityCause() {
        return Verbs.unavailabilityCause();
    }

    @Override
    public List<String> deviceNames() {
        return Verbs.devices().stream().map(Device::name).toList();
    }

    @Override
    public OptionalInt roceV2Ipv4GidIndex(String deviceName, int port) {
        Device device = Verbs.device(deviceName).orElseThrow(
                () -> new IllegalStateException("RDMA device " + deviceName + " vanished"));
        try (Context context = device.open()) {
            return context.roceV2Ipv4Gid(port).map(GidEntry::index)
                    .map(OptionalInt::of).orElse(OptionalInt.empty());
        }
    }
}
