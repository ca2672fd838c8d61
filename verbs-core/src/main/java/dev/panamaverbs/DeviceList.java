package dev.panamaverbs;

import dev.panamaverbs.internal.Availability;
import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.values.Guids;
import dev.panamaverbs.values.NodeType;
import dev.panamaverbs.values.TransportType;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.gateway.Pointers;
import dev.panamaverbs.ffm.ibv_context;
import dev.panamaverbs.ffm.ibv_device;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * The native device list ({@code ibv_get_device_list} / {@code ibv_free_device_list}): every use
 * reads what it needs and frees the list before returning, so no {@code ibv_device*} outlives it.
 */
final class DeviceList {
    private DeviceList() {}


    /** Every listed device, read eagerly. */
    static List<Device> list() {
        return withList((devices, arena) -> {
            List<Device> result = new ArrayList<>(devices.size());
            for (MemorySegment device : devices) {
                result.add(read(device, arena));
            }
            return List.copyOf(result);
        });
    }

    /** Opens the listed device named {@code wanted.name()} ({@code ibv_open_device}). */
    static Context open(Device wanted) {
        return withList((devices, arena) -> {
            for (MemorySegment device : devices) {
                if (ibv_device.name(device).getString(0).equals(wanted.name())) {
                    MemorySegment context = openDevice(device, arena, wanted.name());
                    try {
                        return new Context(wanted, context);
                    } catch (RuntimeException | Error e) {
                        Context.closeDeviceQuietly(context, e);
                        throw e;
                    }
                }
            }
            throw new VerbsException("ibv_open_device", Errno.ENODEV,
                    "device " + wanted.name() + " is no longer listed by ibv_get_device_list");
        });
    }

    /** {@code ibv_get_device_index} of the listed device named {@code wanted.name()}; empty for its -1. */
    static OptionalInt kernelIndex(Device wanted) {
        return withList((devices, arena) -> {
            Capability.GET_DEVICE_INDEX.require("ibv_get_device_index");
            for (MemorySegment device : devices) {
                if (ibv_device.name(device).getString(0).equals(wanted.name())) {
                    int index = IbverbsCalls.ibv_get_device_index(CallState.allocate(arena), device);
                    return index < 0 ? OptionalInt.empty() : OptionalInt.of(index);
                }
            }
            throw new VerbsException("ibv_get_device_index", Errno.ENODEV,
                    "device " + wanted.name() + " is no longer listed by ibv_get_device_list");
        });
    }

    private static MemorySegment openDevice(MemorySegment device, Arena arena, String name) {
        MemorySegment state = CallState.allocate(arena);
        MemorySegment context = IbverbsCalls.ibv_open_device(state, device);
        if (context.equals(MemorySegment.NULL)) {
            int errno = CallState.errno(state);
            throw new VerbsException("ibv_open_device", errno != 0 ? errno : Errno.ENODEV, "device " + name);
        }
        return Pointers.sized(context, ibv_context.SIZE);
    }

    /** The {@link Device} record of a {@code struct ibv_device*} (sized) someone else handed out (librdmacm). */
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

    /** Lists the devices, applies {@code body} to them (each sized to {@code ibv_device}), frees the list. */
    private static <T> T withList(ListBody<T> body) {
        Availability.ensureVerbs();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            MemorySegment count = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment list = IbverbsCalls.ibv_get_device_list(state, count);
            if (list.equals(MemorySegment.NULL)) {
                int errno = CallState.errno(state);
                // ENOSYS: the kernel has no RDMA support at all, which is "no devices", not a failure.
                if (errno == Errno.ENOSYS) {
                    return body.apply(List.of(), arena);
                }
                throw NativeCalls.failure("ibv_get_device_list", errno != 0 ? errno : Errno.ENOMEM);
            }
            try {
                int n = count.get(ValueLayout.JAVA_INT, 0);
                MemorySegment pointers = Pointers.array(list, n, ValueLayout.ADDRESS);
                List<MemorySegment> devices = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    devices.add(Pointers.sized(pointers.getAtIndex(ValueLayout.ADDRESS, i), ibv_device.SIZE));
                }
                return body.apply(devices, arena);
            } finally {
                IbverbsCalls.ibv_free_device_list(state, list);
            }
        }
    }

    @FunctionalInterface
    private interface ListBody<T> {
        T apply(List<MemorySegment> devices, Arena arena);
    }
}
