package dev.panamaverbs;

import dev.panamaverbs.ffm.ibv_device;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.gateway.Pointers;
import dev.panamaverbs.internal.Availability;
import dev.panamaverbs.internal.DeviceList;
import dev.panamaverbs.internal.SysfsDeviceAttributes;
import dev.panamaverbs.values.Guids;
import dev.panamaverbs.values.NodeType;
import dev.panamaverbs.values.TransportType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * An RDMA device as {@link Verbs#devices()} listed it (C {@code struct ibv_device}), read eagerly:
 * holding a {@code Device} holds no native memory. {@link #open()} finds the device again by
 * name, so a {@code Device} stays usable after the list it came from is freed.
 *
 * @param name          the kernel device name ({@code ibv_get_device_name}), e.g. {@code rxe0}
 * @param nodeGuid      the node GUID ({@code ibv_get_device_guid}) in host order
 * @param nodeType      {@code ibv_device.node_type}
 * @param transportType {@code ibv_device.transport_type}
 */
public record Device(String name, long nodeGuid, NodeType nodeType, TransportType transportType) {
    /** Checks the components. */
    public Device {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(nodeType, "nodeType");
        Objects.requireNonNull(transportType, "transportType");
    }

    /**
     * The node GUID as {@code ibv_devices} prints it: {@code xxxx:xxxx:xxxx:xxxx}.
     *
     * @return the node GUID as {@code ibv_devices} prints it: {@code xxxx:xxxx:xxxx:xxxx}
     */
    public String nodeGuidString() {
        return Guids.format(nodeGuid);
    }

    /**
     * The board identifier the driver publishes in sysfs: {@code board_id} under the device's
     * {@code ibdev_path} ({@code /sys/class/infiniband/<name>/board_id}), what {@code ibv_devinfo}
     * prints as {@code board_id} (e.g. {@code MT_0000000010} on ConnectX). Read from sysfs on each
     * call, without the trailing newline; no native call.
     *
     * @return the board identifier, empty when the driver publishes none (rxe) or it is unreadable
     */
    public Optional<String> boardId() {
        return SysfsDeviceAttributes.boardId(SysfsDeviceAttributes.ROOT, name);
    }

    /**
     * Opens the device ({@code ibv_open_device}): lists the devices again, finds this one by name,
     * opens it and frees the list.
     *
     * @throws dev.panamaverbs.VerbsException with errno {@code ENODEV} when the device is no
     *         longer listed, or the errno of a failed {@code ibv_open_device}
     * @throws dev.panamaverbs.VerbsUnavailableException when libibverbs is unavailable
     * @return the new context
     */
    public Context open() {
        return DeviceList.withDevice("ibv_open_device", name,
                (device, arena) -> Context.ofOpened(this, DeviceList.openDevice(device, arena, name)));
    }

    /**
     * The kernel's index of this device ({@code ibv_get_device_index}), the number netlink and
     * {@code rdma dev} use: lists the devices again, finds this one by name and frees the list.
     *
     * @return the index, empty when the kernel does not report one (no netlink device query)
     * @throws dev.panamaverbs.VerbsException with errno {@code ENODEV} when the device is no
     *         longer listed
     * @throws dev.panamaverbs.VerbsUnsupportedException when libibverbs is older than 1.9
     *         ({@link Capability#GET_DEVICE_INDEX})
     * @throws dev.panamaverbs.VerbsUnavailableException when libibverbs is unavailable
     */
    public OptionalInt kernelIndex() {
        Availability.ensureVerbs();
        Capability.GET_DEVICE_INDEX.require("ibv_get_device_index");
        return DeviceList.withDevice("ibv_get_device_index", name, (device, arena) -> {
            int index = IbverbsCalls.ibv_get_device_index(CallState.allocate(arena), device);
            return index < 0 ? OptionalInt.empty() : OptionalInt.of(index);
        });
    }

    /** Every listed device, read eagerly ({@link Verbs#devices()}). */
    static List<Device> listed() {
        return DeviceList.withList((devices, arena) -> {
            List<Device> result = new ArrayList<>(devices.size());
            for (MemorySegment device : devices) {
                result.add(read(device, arena));
            }
            return List.copyOf(result);
        });
    }

    /** The record of a {@code struct ibv_device*} (sized) someone else handed out (librdmacm, an imported context). */
    static Device describe(MemorySegment device) {
        try (Arena arena = Arena.ofConfined()) {
            return read(device, arena);
        }
    }

    private static Device read(MemorySegment device, Arena arena) {
        long rawGuid = IbverbsCalls.ibv_get_device_guid(CallState.allocate(arena), device);
        NodeType nodeType = NodeType.orNull(ibv_device.node_type(device));
        TransportType transportType = TransportType.orNull(ibv_device.transport_type(device));
        MemorySegment name = IbverbsCalls.ibv_get_device_name(CallState.allocate(arena), device);
        return new Device(
                name.equals(MemorySegment.NULL) ? ibv_device.name(device).getString(0) : Pointers.cString(name),
                Guids.fromNetworkOrder(rawGuid),
                nodeType == null ? NodeType.UNKNOWN : nodeType,
                transportType == null ? TransportType.UNKNOWN : transportType);
    }

    /** e.g. {@code Device[rxe0, guid=5054:00ff:fe12:3456, RNIC/IB]}... */
    @Override
    public String toString() {
        return "Device[" + name + ", guid=" + nodeGuidString() + ", " + nodeType + "/" + transportType + "]";
    }
}
