package dev.panamaverbs.internal;

import dev.panamaverbs.VerbsException;
import dev.panamaverbs.values.Errno;
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

/**
 * The native device list ({@code ibv_get_device_list} / {@code ibv_free_device_list}): every use
 * reads what it needs and frees the list before returning, so no {@code ibv_device*} outlives it.
 * It hands out native devices only; {@code dev.panamaverbs.Device} reads them into records and opens them.
 */
public final class DeviceList {
    private DeviceList() {}

    /**
     * Lists the devices again, applies {@code body} to the one named {@code name} and frees the list.
     *
     * @throws VerbsException for {@code verb} with errno {@code ENODEV} when no listed device has the name
     */
    public static <T> T withDevice(String verb, String name, DeviceBody<T> body) {
        return withList((devices, arena) -> {
            for (MemorySegment device : devices) {
                if (ibv_device.name(device).getString(0).equals(name)) {
                    return body.apply(device, arena);
                }
            }
            throw new VerbsException(verb, Errno.ENODEV, "device " + name + " is no longer listed by ibv_get_device_list");
        });
    }

    /** {@code ibv_open_device} of a listed device: the new {@code ibv_context*}, sized. */
    public static MemorySegment openDevice(MemorySegment device, Arena arena, String name) {
        MemorySegment state = CallState.allocate(arena);
        MemorySegment context = IbverbsCalls.ibv_open_device(state, device);
        if (context.equals(MemorySegment.NULL)) {
            int errno = CallState.errno(state);
            throw new VerbsException("ibv_open_device", errno != 0 ? errno : Errno.ENODEV, "device " + name);
        }
        return Pointers.sized(context, ibv_context.SIZE);
    }

    /** Lists the devices, applies {@code body} to them (each sized to {@code ibv_device}), frees the list. */
    public static <T> T withList(ListBody<T> body) {
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

    /** What to do with the listed devices while the list is held. */
    @FunctionalInterface
    public interface ListBody<T> {
        T apply(List<MemorySegment> devices, Arena arena);
    }

    /** What to do with one listed device while the list is held. */
    @FunctionalInterface
    public interface DeviceBody<T> {
        T apply(MemorySegment device, Arena arena);
    }
}
