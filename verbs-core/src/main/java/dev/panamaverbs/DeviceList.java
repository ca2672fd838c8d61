package dev.panamaverbs;

import dev.panamaverbs.error.Errno;
import dev.panamaverbs.error.VerbsException;
import dev.panamaverbs.ffm.ibv_context;
import dev.panamaverbs.ffm.ibv_device;
import dev.panamaverbs.loader.LibIbverbs;
import dev.panamaverbs.loader.Natives;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * The native device list ({@code ibv_get_device_list} / {@code ibv_free_device_list}): every use
 * reads what it needs and frees the list before returning, so no {@code ibv_device*} outlives it.
 */
final class DeviceList {
    private DeviceList() {}

    private static final class Native {
        static final MethodHandle IBV_GET_DEVICE_LIST = Natives.downcall("ibv_get_device_list");
        static final MethodHandle IBV_FREE_DEVICE_LIST = Natives.downcall("ibv_free_device_list");
        static final MethodHandle IBV_GET_DEVICE_GUID = Natives.downcall("ibv_get_device_guid");
        static final MethodHandle IBV_OPEN_DEVICE = Natives.downcall("ibv_open_device");
    }

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

    private static MemorySegment openDevice(MemorySegment device, Arena arena, String name) {
        MemorySegment state = Errno.capture(arena);
        MemorySegment context;
        try {
            context = (MemorySegment) Native.IBV_OPEN_DEVICE.invokeExact(state, device);
        } catch (Throwable t) {
            throw NativeCalls.propagate("ibv_open_device", t);
        }
        if (context.equals(MemorySegment.NULL)) {
            int errno = Errno.read(state);
            throw new VerbsException("ibv_open_device", errno != 0 ? errno : Errno.ENODEV, "device " + name);
        }
        return context.reinterpret(ibv_context.SIZE);
    }

    private static Device read(MemorySegment device, Arena arena) {
        long rawGuid;
        try {
            rawGuid = (long) Native.IBV_GET_DEVICE_GUID.invokeExact(Errno.capture(arena), device);
        } catch (Throwable t) {
            throw NativeCalls.propagate("ibv_get_device_guid", t);
        }
        NodeType nodeType = NodeType.orNull(ibv_device.node_type(device));
        TransportType transportType = TransportType.orNull(ibv_device.transport_type(device));
        return new Device(
                ibv_device.name(device).getString(0),
                Guids.fromNetworkOrder(rawGuid),
                nodeType == null ? NodeType.UNKNOWN : nodeType,
                transportType == null ? TransportType.UNKNOWN : transportType);
    }

    /** Lists the devices, applies {@code body} to them (each sized to {@code ibv_device}), frees the list. */
    private static <T> T withList(ListBody<T> body) {
        LibIbverbs.ensureAvailable();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Errno.capture(arena);
            MemorySegment count = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment list;
            try {
                list = (MemorySegment) Native.IBV_GET_DEVICE_LIST.invokeExact(state, count);
            } catch (Throwable t) {
                throw NativeCalls.propagate("ibv_get_device_list", t);
            }
            if (list.equals(MemorySegment.NULL)) {
                int errno = Errno.read(state);
                // ENOSYS: the kernel has no RDMA support at all, which is "no devices", not a failure.
                if (errno == Errno.ENOSYS) {
                    return body.apply(List.of(), arena);
                }
                throw NativeCalls.failure("ibv_get_device_list", errno != 0 ? errno : Errno.ENOMEM);
            }
            try {
                int n = count.get(ValueLayout.JAVA_INT, 0);
                MemorySegment pointers = list.reinterpret((long) n * ValueLayout.ADDRESS.byteSize());
                List<MemorySegment> devices = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    devices.add(pointers.getAtIndex(ValueLayout.ADDRESS, i).reinterpret(ibv_device.SIZE));
                }
                return body.apply(devices, arena);
            } finally {
                try {
                    Native.IBV_FREE_DEVICE_LIST.invokeExact(state, list);
                } catch (Throwable t) {
                    throw NativeCalls.propagate("ibv_free_device_list", t);
                }
            }
        }
    }

    @FunctionalInterface
    private interface ListBody<T> {
        T apply(List<MemorySegment> devices, Arena arena);
    }
}
