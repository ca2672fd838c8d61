package dev.panamaverbs.info;

import dev.panamaverbs.Context;
import dev.panamaverbs.Device;
import dev.panamaverbs.values.DeviceAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads a {@link DeviceInfo} through the public API: what {@code ibv_devinfo -v} queries. */
final class InfoCollector {
    private InfoCollector() {}

    /**
     * Opens the device, queries it ({@code ibv_query_device_ex}), each port from 1 to
     * {@code phys_port_cnt} ({@code ibv_query_port}) and each port's GID table and, with
     * {@code counters}, its counters ({@code Context.portCounters}), and closes it.
     */
    static DeviceInfo collect(Device device, boolean counters) {
        try (Context context = device.open()) {
            DeviceAttributes attributes = context.queryDevice();
            List<DeviceInfo.PortInfo> ports = new ArrayList<>();
            for (int port = 1; port <= attributes.physicalPortCount(); port++) {
                ports.add(new DeviceInfo.PortInfo(context.queryPort(port), context.gidTable(port),
                        counters ? Optional.of(context.portCounters(port)) : Optional.empty()));
            }
            return new DeviceInfo(device, device.boardId(), attributes, context.completionVectorCount(), ports);
        }
    }
}
