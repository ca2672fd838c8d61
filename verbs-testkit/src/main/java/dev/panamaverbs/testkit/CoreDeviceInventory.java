package dev.panamaverbs.testkit;

import dev.panamaverbs.Device;
import dev.panamaverbs.Verbs;

import java.util.List;
import java.util.Optional;

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
}
