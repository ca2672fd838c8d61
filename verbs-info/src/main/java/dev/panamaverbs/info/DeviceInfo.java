package dev.panamaverbs.info;

import dev.panamaverbs.Device;
import dev.panamaverbs.values.DeviceAttributes;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.PortAttributes;
import dev.panamaverbs.values.PortCounters;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What verbs-info reports about one device: the values {@code ibv_devinfo -v} prints, read once
 * through the public API ({@link InfoCollector}) so that the formats work on plain values.
 *
 * @param device     the device as listed
 * @param boardId    sysfs {@code board_id}, when the device has one
 * @param attributes {@code ibv_query_device_ex}
 * @param completionVectors {@code ibv_context.num_comp_vectors}
 * @param ports      every port, in order
 */
record DeviceInfo(Device device, Optional<String> boardId, DeviceAttributes attributes, int completionVectors,
                  List<PortInfo> ports) {
    DeviceInfo {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(boardId, "boardId");
        Objects.requireNonNull(attributes, "attributes");
        ports = List.copyOf(ports);
    }

    /**
     * One port: {@code ibv_query_port}, its valid GID entries and, when asked for, its counters.
     *
     * @param attributes the port's attributes
     * @param gids       the GID table's valid entries, by index
     * @param counters   {@code Context.portCounters}, when {@code --counters} asked for them
     */
    record PortInfo(PortAttributes attributes, List<GidEntry> gids, Optional<PortCounters> counters) {
        PortInfo {
            Objects.requireNonNull(attributes, "attributes");
            Objects.requireNonNull(counters, "counters");
            gids = List.copyOf(gids);
        }

        /** A port without counters. */
        PortInfo(PortAttributes attributes, List<GidEntry> gids) {
            this(attributes, gids, Optional.empty());
        }
    }
}
