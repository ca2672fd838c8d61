package dev.panamaverbs.values;

import dev.panamaverbs.ffm.ibv_device_attr;
import dev.panamaverbs.ffm.ibv_device_attr_ex;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A device's attributes and limits (C {@code struct ibv_device_attr} from {@code ibv_query_device}),
 * plus the extended part from {@code ibv_query_device_ex} where the provider has it. The limits
 * are what creating objects is checked against ({@link dev.panamaverbs.Context#maxAttributes()}).
 *
 * <p>GUIDs are in host order (the C fields are big-endian); unsigned C values are widened to
 * non-negative Java numbers; bit masks keep their C encoding.
 *
 * @param firmwareVersion       {@code fw_ver}
 * @param nodeGuid              {@code node_guid}, host order; {@link Guids#format(long)} prints it
 * @param systemImageGuid       {@code sys_image_guid}, host order
 * @param maxMrSize             {@code max_mr_size}: largest registrable region, bytes (unsigned)
 * @param pageSizeCap           {@code page_size_cap}: supported page sizes, one bit per size
 * @param vendorId              {@code vendor_id} (IEEE OUI)
 * @param vendorPartId          {@code vendor_part_id}
 * @param hardwareVersion       {@code hw_ver}
 * @param maxQp                 {@code max_qp}
 * @param maxQpWr               {@code max_qp_wr}: outstanding work requests per queue
 * @param deviceCapFlags        {@code device_cap_flags}, widened by {@code device_cap_flags_ex} when the
 *                              extended query ran; see {@link #capabilities()}
 * @param maxSge                {@code max_sge}: scatter/gather entries per send or receive request
 * @param maxSgeRd              {@code max_sge_rd}: scatter/gather entries per RDMA read
 * @param maxCq                 {@code max_cq}
 * @param maxCqe                {@code max_cqe}: entries per CQ
 * @param maxMr                 {@code max_mr}
 * @param maxPd                 {@code max_pd}
 * @param maxQpRdAtom           {@code max_qp_rd_atom}: outstanding RDMA reads/atomics a QP can be the target of
 * @param maxEeRdAtom           {@code max_ee_rd_atom}
 * @param maxResRdAtom          {@code max_res_rd_atom}
 * @param maxQpInitRdAtom       {@code max_qp_init_rd_atom}: outstanding RDMA reads/atomics a QP can initiate
 * @param maxEeInitRdAtom       {@code max_ee_init_rd_atom}
 * @param atomicCapability      {@code atomic_cap}
 * @param maxEe                 {@code max_ee}
 * @param maxRdd                {@code max_rdd}
 * @param maxMw                 {@code max_mw}
 * @param maxRawIpv6Qp          {@code max_raw_ipv6_qp}
 * @param maxRawEthyQp          {@code max_raw_ethy_qp}
 * @param maxMcastGroups        {@code max_mcast_grp}
 * @param maxMcastQpAttach      {@code max_mcast_qp_attach}
 * @param maxTotalMcastQpAttach {@code max_total_mcast_qp_attach}
 * @param maxAh                 {@code max_ah}
 * @param maxFmr                {@code max_fmr}
 * @param maxMapPerFmr          {@code max_map_per_fmr}
 * @param maxSrq                {@code max_srq}
 * @param maxSrqWr              {@code max_srq_wr}
 * @param maxSrqSge             {@code max_srq_sge}
 * @param maxPkeys              {@code max_pkeys}
 * @param localCaAckDelay       {@code local_ca_ack_delay}
 * @param physicalPortCount     {@code phys_port_cnt}
 * @param extended              the {@code ibv_query_device_ex} part, empty when the provider lacks that
 *                              query or declines it (EOPNOTSUPP/ENOSYS)
 */
public record DeviceAttributes(
        String firmwareVersion,
        long nodeGuid,
        long systemImageGuid,
        long maxMrSize,
        long pageSizeCap,
        long vendorId,
        long vendorPartId,
        long hardwareVersion,
        int maxQp,
        int maxQpWr,
        long deviceCapFlags,
        int maxSge,
        int maxSgeRd,
        int maxCq,
        int maxCqe,
        int maxMr,
        int maxPd,
        int maxQpRdAtom,
        int maxEeRdAtom,
        int maxResRdAtom,
        int maxQpInitRdAtom,
        int maxEeInitRdAtom,
        AtomicCapability atomicCapability,
        int maxEe,
        int maxRdd,
        int maxMw,
        int maxRawIpv6Qp,
        int maxRawEthyQp,
        int maxMcastGroups,
        int maxMcastQpAttach,
        int maxTotalMcastQpAttach,
        int maxAh,
        int maxFmr,
        int maxMapPerFmr,
        int maxSrq,
        int maxSrqWr,
        int maxSrqSge,
        int maxPkeys,
        int localCaAckDelay,
        int physicalPortCount,
        Optional<ExtendedDeviceAttributes> extended) {

    /** Checks the components. */
    public DeviceAttributes {
        Objects.requireNonNull(firmwareVersion, "firmwareVersion");
        Objects.requireNonNull(atomicCapability, "atomicCapability");
        Objects.requireNonNull(extended, "extended");
    }

    /**
     * The capability flags as a set ({@link #deviceCapFlags()} decoded).
     *
     * @return the capability flags as a set ({@link #deviceCapFlags()} decoded)
     */
    public Set<DeviceCapability> capabilities() {
        return DeviceCapability.fromBits(deviceCapFlags);
    }

    /**
     * Whether the device reports {@code capability}.
     *
     * @param capability the capability asked about
     * @return whether the device reports {@code capability}
     */
    public boolean has(DeviceCapability capability) {
        return (deviceCapFlags & capability.bit()) != 0;
    }

    /**
     * The number of ports: {@code phys_port_cnt}, or {@code phys_port_cnt_ex} when the device has more than 255.
     *
     * @return the number of ports: {@code phys_port_cnt}, or {@code phys_port_cnt_ex} when the device has more than 255
     */
    public int portCount() {
        long ex = extended.map(ExtendedDeviceAttributes::physicalPortCountEx).orElse(0L);
        return ex > physicalPortCount ? (int) ex : physicalPortCount;
    }

    /**
     * The node GUID as {@code ibv_devinfo} prints it ({@code xxxx:xxxx:xxxx:xxxx}).
     *
     * @return the node GUID as {@code ibv_devinfo} prints it ({@code xxxx:xxxx:xxxx:xxxx})
     */
    public String nodeGuidString() {
        return Guids.format(nodeGuid);
    }

    /**
     * Decodes the {@code struct ibv_device_attr_ex} that {@code ibv_query_device_ex} filled: the
     * extended part only when {@code extendedQueryRan} (the provider answered it), never the zeros
     * left where the legacy {@code ibv_query_device} stood in and filled only {@code orig_attr}.
     *
     * @param attrEx           the filled {@code struct ibv_device_attr_ex}
     * @param extendedQueryRan whether {@code ibv_query_device_ex} itself answered
     * @return the attributes
     */
    public static DeviceAttributes readEx(MemorySegment attrEx, boolean extendedQueryRan) {
        ExtendedDeviceAttributes extended = extendedQueryRan ? ExtendedDeviceAttributes.read(attrEx) : null;
        return read(ibv_device_attr_ex.orig_attr(attrEx), extended);
    }

    /**
     * Decodes a filled {@code struct ibv_device_attr} ({@code basic}; also the {@code orig_attr}
     * head of an {@code ibv_device_attr_ex}) and the extended part when there is one.
     *
     * @param basic    the filled {@code struct ibv_device_attr}
     * @param extended the extended attributes, or {@code null} when there are none
     * @return the attributes
     */
    public static DeviceAttributes read(MemorySegment basic, ExtendedDeviceAttributes extended) {
        int flags = ibv_device_attr.device_cap_flags(basic);
        long capFlags = extended != null && extended.deviceCapFlagsEx() != 0
                ? extended.deviceCapFlagsEx() | Integer.toUnsignedLong(flags)
                : Integer.toUnsignedLong(flags);
        int atomicCap = ibv_device_attr.atomic_cap(basic);
        AtomicCapability atomic = AtomicCapability.orNull(atomicCap);
        return new DeviceAttributes(
                ibv_device_attr.fw_ver(basic).getString(0),
                Guids.fromNetworkOrder(ibv_device_attr.node_guid(basic)),
                Guids.fromNetworkOrder(ibv_device_attr.sys_image_guid(basic)),
                ibv_device_attr.max_mr_size(basic),
                ibv_device_attr.page_size_cap(basic),
                Integer.toUnsignedLong(ibv_device_attr.vendor_id(basic)),
                Integer.toUnsignedLong(ibv_device_attr.vendor_part_id(basic)),
                Integer.toUnsignedLong(ibv_device_attr.hw_ver(basic)),
                ibv_device_attr.max_qp(basic),
                ibv_device_attr.max_qp_wr(basic),
                capFlags,
                ibv_device_attr.max_sge(basic),
                ibv_device_attr.max_sge_rd(basic),
                ibv_device_attr.max_cq(basic),
                ibv_device_attr.max_cqe(basic),
                ibv_device_attr.max_mr(basic),
                ibv_device_attr.max_pd(basic),
                ibv_device_attr.max_qp_rd_atom(basic),
                ibv_device_attr.max_ee_rd_atom(basic),
                ibv_device_attr.max_res_rd_atom(basic),
                ibv_device_attr.max_qp_init_rd_atom(basic),
                ibv_device_attr.max_ee_init_rd_atom(basic),
                // An unknown future value is reported as NONE rather than failing the whole query.
                atomic == null ? AtomicCapability.NONE : atomic,
                ibv_device_attr.max_ee(basic),
                ibv_device_attr.max_rdd(basic),
                ibv_device_attr.max_mw(basic),
                ibv_device_attr.max_raw_ipv6_qp(basic),
                ibv_device_attr.max_raw_ethy_qp(basic),
                ibv_device_attr.max_mcast_grp(basic),
                ibv_device_attr.max_mcast_qp_attach(basic),
                ibv_device_attr.max_total_mcast_qp_attach(basic),
                ibv_device_attr.max_ah(basic),
                ibv_device_attr.max_fmr(basic),
                ibv_device_attr.max_map_per_fmr(basic),
                ibv_device_attr.max_srq(basic),
                ibv_device_attr.max_srq_wr(basic),
                ibv_device_attr.max_srq_sge(basic),
                Short.toUnsignedInt(ibv_device_attr.max_pkeys(basic)),
                Byte.toUnsignedInt(ibv_device_attr.local_ca_ack_delay(basic)),
                Byte.toUnsignedInt(ibv_device_attr.phys_port_cnt(basic)),
                Optional.ofNullable(extended));
    }
}
