package dev.panamaverbs.info;

import dev.panamaverbs.values.AtomicCapability;
import dev.panamaverbs.Capability;
import dev.panamaverbs.Device;
import dev.panamaverbs.values.DeviceAttributes;
import dev.panamaverbs.values.ExtendedDeviceAttributes;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.GidType;
import dev.panamaverbs.values.LinkLayer;
import dev.panamaverbs.values.Mtu;
import dev.panamaverbs.values.NodeType;
import dev.panamaverbs.values.PortAttributes;
import dev.panamaverbs.values.PortCounters;
import dev.panamaverbs.values.PortState;
import dev.panamaverbs.values.TransportType;
import java.util.List;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** Fake attribute values, shaped like an rxe device's, for the format tests (no native call). */
final class Fakes {
    static final long GUID = 0x505400fffe123456L;

    private Fakes() {}

    static DeviceAttributes attributes(String firmware, int maxFmr, int maxSrq, Optional<ExtendedDeviceAttributes> extended) {
        return new DeviceAttributes(firmware, GUID, GUID, -1L, 0xfffff000L, 0xffffffL, 0, 0,
                1048560, 1048576, 0x0122bc76L | (1L << 34), 27, 27, 1048576, 32767, 2097152, 1048576,
                128, 0, 258048, 128, 0, AtomicCapability.HCA, 0, 0, 2097152, 0, 0, 8192, 56, 458752,
                65535, maxFmr, 0, maxSrq, 1048576, 27, 64, 15, 1, extended);
    }

    static ExtendedDeviceAttributes extended() {
        return new ExtendedDeviceAttributes(0,
                new ExtendedDeviceAttributes.OnDemandPaging(1, 0x3f, 0, 0x41), 0, 0, 0x0122bc76L | (1L << 34) | (1L << 40),
                new ExtendedDeviceAttributes.TcpSegmentationOffload(0, 0),
                new ExtendedDeviceAttributes.ReceiveSideScaling(1 << 8, 0, 0, 0, 0), 0,
                new ExtendedDeviceAttributes.PacketPacing(0, 0, 0), 0,
                new ExtendedDeviceAttributes.TagMatching(0, 0, 0, 0, 0),
                new ExtendedDeviceAttributes.CqModeration(0, 0), 0,
                new ExtendedDeviceAttributes.PciAtomic(0, 0, 0), 0, 0);
    }

    static PortAttributes port(LinkLayer linkLayer) {
        return new PortAttributes(1, PortState.ACTIVE, Mtu.MTU_4096, Mtu.MTU_1024, 1024, 0x00010000,
                0x80000000L, 0, 0, 64, 0, 0, 0, 1, 0, 0, 0, 1, 1, 5, linkLayer, 0, 0);
    }

    static List<GidEntry> gids() {
        return List.of(
                new GidEntry(1, 0, Gid.parse("fe80::5054:ff:fe12:3456"), GidType.ROCE_V2, 2, Optional.of("eth0")),
                new GidEntry(1, 1, Gid.parse("::ffff:10.0.2.15"), GidType.ROCE_V2, 2, Optional.of("eth0")),
                new GidEntry(1, 2, Gid.parse("fe80::1"), GidType.ROCE_V1, 3, Optional.empty()),
                new GidEntry(1, 3, Gid.parse("fe80::"), GidType.ROCE_V2, 0, Optional.empty()));
    }

    static DeviceInfo rxe(Optional<ExtendedDeviceAttributes> extended) {
        return new DeviceInfo(new Device("rxe0", GUID, NodeType.CA, TransportType.IB), Optional.empty(),
                attributes("", 0, 917504, extended), 2,
                List.of(new DeviceInfo.PortInfo(port(LinkLayer.ETHERNET), gids())));
    }

    /** {@link #rxe} whose port has its counters read, as {@code --counters} does. */
    static DeviceInfo rxeWithCounters(OptionalLong rawClock) {
        PortCounters counters = new PortCounters("rxe0", 1, Instant.EPOCH, Map.of("port_xmit_packets", 99L),
                Map.of("sent_pkts", -1L, "rcvd_rnr_err", 1L), rawClock);
        return new DeviceInfo(new Device("rxe0", GUID, NodeType.CA, TransportType.IB), Optional.empty(),
                attributes("", 0, 917504, Optional.empty()), 2,
                List.of(new DeviceInfo.PortInfo(port(LinkLayer.ETHERNET), gids(), Optional.of(counters))));
    }

    static LibraryInfo library() {
        return new LibraryInfo("0.1.0-TEST", true, Optional.of("/usr/lib/libibverbs.so.1"), Optional.empty(),
                List.of(Capability.QP_EX, Capability.QUERY_GID_EX), List.of(Capability.QUERY_QP_DATA_IN_ORDER), false,
                Optional.of("librdmacm \"gone\""), "/dev/infiniband/rdma_cm",
                Optional.of("/dev/infiniband/rdma_cm is missing: load the rdma_ucm kernel module"));
    }
}
