package dev.panamaverbs;

import dev.panamaverbs.internal.SysfsGidAttributes;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.DeviceAttributes;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.GidType;
import dev.panamaverbs.values.PortAttributes;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.ibv_device_attr_ex;
import dev.panamaverbs.ffm.ibv_gid_entry;
import dev.panamaverbs.ffm.ibv_port_attr;
import dev.panamaverbs.ffm.ibv_values_ex;
import dev.panamaverbs.ffm.timespec;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.ExtendedOps;
import dev.panamaverbs.gateway.InlineVerbs;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.NetworkInterface;
import java.nio.ByteOrder;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.nio.file.Path;
import java.time.Instant;
import dev.panamaverbs.values.PortCounters;
import dev.panamaverbs.internal.SysfsDeviceAttributes;

import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The query verbs of a device context: device, port, GID and P_Key tables. Each method runs inside
 * the caller's {@code acquire()}/{@code release()} of the {@link Context} and takes its raw
 * {@code ibv_context*}; arguments are already validated.
 */
final class ContextQueries {
    private ContextQueries() {}


    /**
     * {@code ibv_query_device_ex} (the loader falls back to {@code ibv_query_device} when the
     * provider lacks or declines it); the extended part is reported only when the extended query ran.
     */
    static DeviceAttributes queryDevice(MemorySegment context) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_device_attr_ex.LAYOUT);
            int rc = ExtendedOps.queryDeviceEx(context.address(), 0L, attr.address());
            if (rc != ExtendedOps.LEGACY_ATTRIBUTES_ONLY) {
                NativeCalls.checkReturnedErrno("ibv_query_device_ex", rc);
            }
            return DeviceAttributes.readEx(attr, rc == 0);
        }
    }

    /** The full {@code ibv_query_port} (the verbs.h macro: {@code verbs_context.query_port} with the struct size). */
    static PortAttributes queryPort(MemorySegment context, int port) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_port_attr.LAYOUT);
            NativeCalls.checkReturnedErrno("ibv_query_port", ExtendedOps.queryPort(context.address(), port, attr.address()));
            return PortAttributes.read(port, attr);
        }
    }

    /**
     * The valid GIDs of {@code port}, by index: {@code ibv_query_gid_table} when libibverbs has it,
     * else {@code ibv_query_gid} per index with type and netdev from sysfs. All-zero entries are skipped.
     *
     * @param allPortsGidSlots the sum of every port's {@code gid_tbl_len}: the table call returns all ports at once
     */
    static List<GidEntry> gidTable(MemorySegment context, String device, PortAttributes port, long allPortsGidSlots) {
        if (Capability.QUERY_GID_TABLE.isPresent()) {
            try {
                return gidTableAtOnce(context, port.port(), allPortsGidSlots);
            } catch (VerbsUnsupportedException providerLacksIt) {
                // fall through to the per-index path
            }
        }
        List<GidEntry> entries = new ArrayList<>();
        for (int index = 0; index < port.gidTableLength(); index++) {
            queryGidLegacy(context, device, port, index).ifPresent(entries::add);
        }
        return List.copyOf(entries);
    }

    private static List<GidEntry> gidTableAtOnce(MemorySegment context, int port, long slots) {
        try (Arena arena = Arena.ofConfined()) {
            long capacity = Math.max(1, slots);
            MemorySegment entries = arena.allocate(ibv_gid_entry.LAYOUT, capacity);
            long count = InlineVerbs.queryGidTable(context.address(), entries.address(), capacity, 0);
            if (count < 0) {
                throw NativeCalls.failure("ibv_query_gid_table", (int) -count); // it returns -errno
            }
            List<GidEntry> result = new ArrayList<>();
            for (long i = 0; i < count; i++) {
                MemorySegment entry = entries.asSlice(i * ibv_gid_entry.SIZE, ibv_gid_entry.SIZE);
                if (ibv_gid_entry.port_num(entry) == port) {
                    readEntry(entry).ifPresent(result::add);
                }
            }
            result.sort(Comparator.comparingInt(GidEntry::index));
            return List.copyOf(result);
        }
    }

    /**
     * One GID entry: {@code ibv_query_gid_ex} when libibverbs has it, else {@code ibv_query_gid}
     * plus sysfs. Empty when the slot is unused (ENODATA, or an all-zero GID).
     */
    static Optional<GidEntry> queryGid(MemorySegment context, String device, PortAttributes port, int index) {
        if (Capability.QUERY_GID_EX.isPresent()) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment entry = arena.allocate(ibv_gid_entry.LAYOUT);
                NativeCalls.checkReturnedErrno("ibv_query_gid_ex",
                        InlineVerbs.queryGidEx(context.address(), port.port(), index, entry.address(), 0));
                return readEntry(entry);
            } catch (VerbsUnsupportedException providerLacksIt) {
                // fall through to the legacy path
            } catch (VerbsException e) {
                if (e.errno() == Errno.ENODATA) {
                    return Optional.empty();
                }
                throw e;
            }
        }
        return queryGidLegacy(context, device, port, index);
    }

    private static Optional<GidEntry> readEntry(MemorySegment entry) {
        Gid gid = Gid.read(ibv_gid_entry.gid(entry));
        if (gid.isZero()) {
            return Optional.empty();
        }
        int gidType = ibv_gid_entry.gid_type(entry);
        GidType type = GidType.orNull(gidType);
        if (type == null) {
            return Optional.empty(); // a type newer than this binding: not addressable through it
        }
        int ifindex = ibv_gid_entry.ndev_ifindex(entry);
        return Optional.of(new GidEntry(ibv_gid_entry.port_num(entry), ibv_gid_entry.gid_index(entry), gid, type,
                ifindex, interfaceName(ifindex)));
    }

    private static Optional<GidEntry> queryGidLegacy(MemorySegment context, String device, PortAttributes port, int index) {
        Gid gid;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            MemorySegment raw = arena.allocate(Gid.SIZE, 8);
            int rc = IbverbsCalls.ibv_query_gid(state, context, (byte) port.port(), index, raw);
            if (rc != 0) {
                int errno = CallState.errno(state);
                // Unused slots of a RoCE table answer EINVAL/ENODATA through sysfs: just empty.
                if (errno == Errno.EINVAL || errno == Errno.ENODATA) {
                    return Optional.empty();
                }
                throw NativeCalls.failure("ibv_query_gid", errno != 0 ? errno : Math.abs(rc));
            }
            gid = Gid.read(raw);
        }
        if (gid.isZero()) {
            return Optional.empty();
        }
        GidType type = SysfsGidAttributes.type(device, port.port(), index, port.linkLayer())
                .orElse(port.isEthernet() ? GidType.ROCE_V1 : GidType.IB);
        Optional<String> netdev = SysfsGidAttributes.netdev(device, port.port(), index);
        int ifindex = netdev.map(ContextQueries::interfaceIndex).orElse(0);
        return Optional.of(new GidEntry(port.port(), index, gid, type, ifindex, netdev));
    }

    /** {@code ibv_query_pkey}: the P_Key at {@code index}, host order (the C value is big-endian). */
    static int queryPkey(MemorySegment context, int port, int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            MemorySegment pkey = arena.allocate(JAVA_SHORT);
            int rc = IbverbsCalls.ibv_query_pkey(state, context, (byte) port, index, pkey);
            NativeCalls.checkErrno("ibv_query_pkey", rc, CallState.errno(state));
            return Short.toUnsignedInt(pkey.get(JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN), 0));
        }
    }

    /** {@code ibv_get_pkey_index} with {@code pkey} (host order) passed as the {@code __be16} C expects; -1 is empty. */
    static OptionalInt pkeyIndex(MemorySegment context, int port, int pkey) {
        try (Arena arena = Arena.ofConfined()) {
            short bigEndian = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN
                    ? Short.reverseBytes((short) pkey) : (short) pkey;
            int index = IbverbsCalls.ibv_get_pkey_index(CallState.allocate(arena), context, (byte) port, bigEndian);
            return index < 0 ? OptionalInt.empty() : OptionalInt.of(index);
        }
    }

    private static Optional<String> interfaceName(int ifindex) {
        if (ifindex <= 0) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(NetworkInterface.getByIndex(ifindex)).map(NetworkInterface::getName);
        } catch (SocketException e) {
            return Optional.empty();
        }
    }

    private static int interfaceIndex(String name) {
        try {
            NetworkInterface netif = NetworkInterface.getByName(name);
            return netif == null ? 0 : netif.getIndex();
        } catch (SocketException e) {
            return 0;
        }
    }

    /** {@code ibv_query_rt_values_ex} on the context at {@code context}, asking for the raw clock, in nanoseconds. */
    static long queryRawClockNanos(long context) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment values = arena.allocate(ibv_values_ex.LAYOUT);
            ibv_values_ex.comp_mask(values, VerbsConstants.IBV_VALUES_MASK_RAW_CLOCK);
            NativeCalls.checkReturnedErrno("ibv_query_rt_values_ex",
                    IbverbsCalls.ibv_query_rt_values_ex(context, values.address()));
            MemorySegment clock = ibv_values_ex.raw_clock(values);
            return timespec.tv_sec(clock) * 1_000_000_000L + timespec.tv_nsec(clock);
        }
    }

    /** Context.portCounters: sysfs under the real root, and the raw clock where offered. */
    static PortCounters portCounters(long context, String deviceName, int port) {
        OptionalLong rawClock;
        try {
            rawClock = OptionalLong.of(queryRawClockNanos(context));
        } catch (VerbsUnsupportedException notOffered) {
            rawClock = OptionalLong.empty(); // rxe and other providers without query_rt_values
        }
        return readPortCounters(SysfsDeviceAttributes.ROOT, deviceName, port, rawClock);
    }

    /** The sysfs part of {@link #portCounters}, under {@code root} (a fake tree in tests). */
    static PortCounters readPortCounters(Path root, String device, int port, OptionalLong rawClockNanos) {
        return new PortCounters(device, port, Instant.now(),
                SysfsDeviceAttributes.portCounters(root, device, port, "counters"),
                SysfsDeviceAttributes.portCounters(root, device, port, "hw_counters"), rawClockNanos);
    }
}
