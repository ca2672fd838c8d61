package dev.panamaverbs.values;

import dev.panamaverbs.ffm.ibv_cq_moderation_caps;
import dev.panamaverbs.ffm.ibv_device_attr_ex;
import dev.panamaverbs.ffm.ibv_odp_caps;
import dev.panamaverbs.ffm.ibv_packet_pacing_caps;
import dev.panamaverbs.ffm.ibv_pci_atomic_caps;
import dev.panamaverbs.ffm.ibv_rss_caps;
import dev.panamaverbs.ffm.ibv_tm_caps;
import dev.panamaverbs.ffm.ibv_tso_caps;
import java.lang.foreign.MemorySegment;

/**
 * What {@code ibv_query_device_ex} adds to {@code ibv_device_attr} (C
 * {@code struct ibv_device_attr_ex} after {@code orig_attr}). Unsigned C values are widened so
 * that they read as non-negative numbers; bit masks keep their C encoding.
 *
 * @param compMask                {@code comp_mask}
 * @param onDemandPaging          {@code odp_caps}
 * @param completionTimestampMask {@code completion_timestamp_mask}: valid bits of a completion timestamp, 0 if none
 * @param hcaCoreClockKhz         {@code hca_core_clock}: the clock completion timestamps count, in kHz
 * @param deviceCapFlagsEx        {@code device_cap_flags_ex}: all 64 capability bits, see {@link DeviceCapability}
 * @param tcpSegmentationOffload  {@code tso_caps}
 * @param receiveSideScaling      {@code rss_caps}
 * @param maxWqTypeRq             {@code max_wq_type_rq}
 * @param packetPacing            {@code packet_pacing_caps}
 * @param rawPacketCaps           {@code raw_packet_caps} ({@code enum ibv_raw_packet_caps} bits)
 * @param tagMatching             {@code tm_caps}
 * @param cqModeration            {@code cq_mod_caps}
 * @param maxDeviceMemorySize     {@code max_dm_size}: on-device memory for {@code ibv_alloc_dm}, 0 if none
 * @param pciAtomic               {@code pci_atomic_caps}
 * @param xrcOdpCaps              {@code xrc_odp_caps} ({@code enum ibv_odp_transport_cap_bits} bits)
 * @param physicalPortCountEx     {@code phys_port_cnt_ex}: the port count when above 255, else 0
 */
public record ExtendedDeviceAttributes(
        int compMask,
        OnDemandPaging onDemandPaging,
        long completionTimestampMask,
        long hcaCoreClockKhz,
        long deviceCapFlagsEx,
        TcpSegmentationOffload tcpSegmentationOffload,
        ReceiveSideScaling receiveSideScaling,
        long maxWqTypeRq,
        PacketPacing packetPacing,
        int rawPacketCaps,
        TagMatching tagMatching,
        CqModeration cqModeration,
        long maxDeviceMemorySize,
        PciAtomic pciAtomic,
        int xrcOdpCaps,
        long physicalPortCountEx) {

    /**
     * On-demand paging ({@code struct ibv_odp_caps}).
     *
     * @param generalCaps {@code general_caps}: {@code IBV_ODP_SUPPORT} (1), {@code IBV_ODP_SUPPORT_IMPLICIT} (2)
     * @param rcCaps      {@code per_transport_caps.rc_odp_caps} ({@code IBV_ODP_SUPPORT_SEND}... bits)
     * @param ucCaps      {@code per_transport_caps.uc_odp_caps}
     * @param udCaps      {@code per_transport_caps.ud_odp_caps}
     */
    public record OnDemandPaging(long generalCaps, int rcCaps, int ucCaps, int udCaps) {
        /**
         * Whether the device supports on-demand paging at all ({@code IBV_ODP_SUPPORT}).
         *
         * @return whether the device supports on-demand paging at all ({@code IBV_ODP_SUPPORT})
         */
        public boolean supported() {
            return (generalCaps & 1L) != 0;
        }

        /**
         * Whether implicit ODP (registering the whole address space) is supported.
         *
         * @return whether implicit ODP (registering the whole address space) is supported
         */
        public boolean implicitSupported() {
            return (generalCaps & 2L) != 0;
        }
    }

    /**
     * TCP segmentation offload ({@code struct ibv_tso_caps}): {@code max_tso}, {@code supported_qpts} (bit per QP type).
     *
     * @param maxTso the maximum TSO size
     * @param supportedQpTypes the QP types the device supports
     */
    public record TcpSegmentationOffload(long maxTso, int supportedQpTypes) {}

    /**
     * Receive side scaling ({@code struct ibv_rss_caps}).
     *
     * @param supportedQpTypes           {@code supported_qpts} (bit per QP type)
     * @param maxIndirectionTables       {@code max_rwq_indirection_tables}
     * @param maxIndirectionTableSize    {@code max_rwq_indirection_table_size}
     * @param rxHashFieldsMask           {@code rx_hash_fields_mask} ({@code enum ibv_rx_hash_fields} bits)
     * @param rxHashFunction             {@code rx_hash_function} ({@code enum ibv_rx_hash_function_flags} bits)
     */
    public record ReceiveSideScaling(int supportedQpTypes, long maxIndirectionTables, long maxIndirectionTableSize,
                                     long rxHashFieldsMask, int rxHashFunction) {}

    /**
     * Packet pacing ({@code struct ibv_packet_pacing_caps}): rate limits in kbit/s and the QP types (bits).
     *
     * @param qpRateLimitMinKbps the minimum rate limit in kbps
     * @param qpRateLimitMaxKbps the maximum rate limit in kbps
     * @param supportedQpTypes the QP types the device supports
     */
    public record PacketPacing(long qpRateLimitMinKbps, long qpRateLimitMaxKbps, int supportedQpTypes) {
        /**
         * {@code ibv_is_qpt_supported(supported_qpts, type)}: whether the device paces queue pairs
         * of {@code type} ({@link dev.panamaverbs.QueuePair#limitRate}); {@link QueuePairType#isSupportedIn} on this mask.
         *
         * @param type the queue pair type
         * @return true if bit {@code type} of {@code supported_qpts} is set
         */
        public boolean paces(QueuePairType type) {
            return type.isSupportedIn(supportedQpTypes);
        }
    }

    /**
     * Tag matching offload ({@code struct ibv_tm_caps}).
     *
     * @param maxRendezvousHeaderSize {@code max_rndv_hdr_size}
     * @param maxTags                 {@code max_num_tags}
     * @param flags                   {@code flags} ({@code IBV_TM_CAP_RC} = 1)
     * @param maxOperations           {@code max_ops}
     * @param maxSge                  {@code max_sge}
     */
    public record TagMatching(long maxRendezvousHeaderSize, long maxTags, int flags, long maxOperations, long maxSge) {}

    /**
     * CQ moderation ({@code struct ibv_cq_moderation_caps}): {@code max_cq_count}, {@code max_cq_period} in microseconds.
     *
     * @param maxCount the maximum count
     * @param maxPeriodMicros the maximum period in microseconds
     */
    public record CqModeration(int maxCount, int maxPeriodMicros) {}

    /**
     * Atomic operations from PCI peers ({@code struct ibv_pci_atomic_caps}), each a mask of
     * supported operand sizes ({@code IBV_PCI_ATOMIC_OPERATION_4/8/16_BYTE_SIZE_SUP}).
     *
     * @param fetchAdd true for fetch-and-add
     * @param swap the value to swap in
     * @param compareSwap true for compare-and-swap
     */
    public record PciAtomic(int fetchAdd, int swap, int compareSwap) {}

    /** Decodes the part of a filled {@code struct ibv_device_attr_ex} after {@code orig_attr}. */
    static ExtendedDeviceAttributes read(MemorySegment attr) {
        MemorySegment odp = ibv_device_attr_ex.odp_caps(attr);
        MemorySegment perTransport = ibv_odp_caps.per_transport_caps(odp);
        MemorySegment tso = ibv_device_attr_ex.tso_caps(attr);
        MemorySegment rss = ibv_device_attr_ex.rss_caps(attr);
        MemorySegment pacing = ibv_device_attr_ex.packet_pacing_caps(attr);
        MemorySegment tm = ibv_device_attr_ex.tm_caps(attr);
        MemorySegment cqMod = ibv_device_attr_ex.cq_mod_caps(attr);
        MemorySegment pciAtomic = ibv_device_attr_ex.pci_atomic_caps(attr);
        return new ExtendedDeviceAttributes(
                ibv_device_attr_ex.comp_mask(attr),
                new OnDemandPaging(
                        ibv_odp_caps.general_caps(odp),
                        ibv_odp_caps.per_transport_caps.rc_odp_caps(perTransport),
                        ibv_odp_caps.per_transport_caps.uc_odp_caps(perTransport),
                        ibv_odp_caps.per_transport_caps.ud_odp_caps(perTransport)),
                ibv_device_attr_ex.completion_timestamp_mask(attr),
                ibv_device_attr_ex.hca_core_clock(attr),
                ibv_device_attr_ex.device_cap_flags_ex(attr),
                new TcpSegmentationOffload(
                        Integer.toUnsignedLong(ibv_tso_caps.max_tso(tso)),
                        ibv_tso_caps.supported_qpts(tso)),
                new ReceiveSideScaling(
                        ibv_rss_caps.supported_qpts(rss),
                        Integer.toUnsignedLong(ibv_rss_caps.max_rwq_indirection_tables(rss)),
                        Integer.toUnsignedLong(ibv_rss_caps.max_rwq_indirection_table_size(rss)),
                        ibv_rss_caps.rx_hash_fields_mask(rss),
                        Byte.toUnsignedInt(ibv_rss_caps.rx_hash_function(rss))),
                Integer.toUnsignedLong(ibv_device_attr_ex.max_wq_type_rq(attr)),
                new PacketPacing(
                        Integer.toUnsignedLong(ibv_packet_pacing_caps.qp_rate_limit_min(pacing)),
                        Integer.toUnsignedLong(ibv_packet_pacing_caps.qp_rate_limit_max(pacing)),
                        ibv_packet_pacing_caps.supported_qpts(pacing)),
                ibv_device_attr_ex.raw_packet_caps(attr),
                new TagMatching(
                        Integer.toUnsignedLong(ibv_tm_caps.max_rndv_hdr_size(tm)),
                        Integer.toUnsignedLong(ibv_tm_caps.max_num_tags(tm)),
                        ibv_tm_caps.flags(tm),
                        Integer.toUnsignedLong(ibv_tm_caps.max_ops(tm)),
                        Integer.toUnsignedLong(ibv_tm_caps.max_sge(tm))),
                new CqModeration(
                        Short.toUnsignedInt(ibv_cq_moderation_caps.max_cq_count(cqMod)),
                        Short.toUnsignedInt(ibv_cq_moderation_caps.max_cq_period(cqMod))),
                ibv_device_attr_ex.max_dm_size(attr),
                new PciAtomic(
                        Short.toUnsignedInt(ibv_pci_atomic_caps.fetch_add(pciAtomic)),
                        Short.toUnsignedInt(ibv_pci_atomic_caps.swap(pciAtomic)),
                        Short.toUnsignedInt(ibv_pci_atomic_caps.compare_swap(pciAtomic))),
                ibv_device_attr_ex.xrc_odp_caps(attr),
                Integer.toUnsignedLong(ibv_device_attr_ex.phys_port_cnt_ex(attr)));
    }
}
