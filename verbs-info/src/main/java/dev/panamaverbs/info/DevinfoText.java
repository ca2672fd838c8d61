package dev.panamaverbs.info;

import dev.panamaverbs.values.DeviceAttributes;
import dev.panamaverbs.values.ExtendedDeviceAttributes;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.GidType;
import dev.panamaverbs.values.Guids;
import dev.panamaverbs.values.PortAttributes;
import dev.panamaverbs.values.TransportType;
import java.util.List;
import java.util.Locale;

/**
 * One device in {@code ibv_devinfo}'s text format, line for line: the same field names, tabs and
 * value formats as rdma-core's {@code devinfo.c} ({@code print_hca_cap}), so that its lines and
 * verbs-info's compare equal. {@code verbose} is {@code ibv_devinfo -v}.
 */
final class DevinfoText {
    /** What {@code ibv_query_device_ex} leaves when the provider has no extended query: zeros. */
    static final ExtendedDeviceAttributes NO_EXTENDED = new ExtendedDeviceAttributes(0,
            new ExtendedDeviceAttributes.OnDemandPaging(0, 0, 0, 0), 0, 0, 0,
            new ExtendedDeviceAttributes.TcpSegmentationOffload(0, 0),
            new ExtendedDeviceAttributes.ReceiveSideScaling(0, 0, 0, 0, 0), 0,
            new ExtendedDeviceAttributes.PacketPacing(0, 0, 0), 0,
            new ExtendedDeviceAttributes.TagMatching(0, 0, 0, 0, 0),
            new ExtendedDeviceAttributes.CqModeration(0, 0), 0,
            new ExtendedDeviceAttributes.PciAtomic(0, 0, 0), 0, 0);

    private static final String FLAG = "\t\t\t\t\t";

    private final StringBuilder out = new StringBuilder();

    private DevinfoText() {}

    /** The device's block as {@code ibv_devinfo [-v] -d NAME} prints it. */
    static String format(DeviceInfo info, boolean verbose) {
        DevinfoText text = new DevinfoText();
        text.device(info, verbose);
        return text.out.toString();
    }

    private void line(String format, Object... args) {
        out.append(String.format(Locale.ROOT, format, args)).append('\n');
    }

    private void device(DeviceInfo info, boolean verbose) {
        DeviceAttributes a = info.attributes();
        int transport = info.device().transportType().value();
        line("hca_id:\t%s", info.device().name());
        line("\ttransport:\t\t\t%s (%d)", DevinfoNames.TRANSPORT.name(transport), transport);
        if (!a.firmwareVersion().isEmpty()) {
            line("\tfw_ver:\t\t\t\t%s", a.firmwareVersion());
        }
        line("\tnode_guid:\t\t\t%s", Guids.format(a.nodeGuid()));
        line("\tsys_image_guid:\t\t\t%s", Guids.format(a.systemImageGuid()));
        line("\tvendor_id:\t\t\t0x%04x", a.vendorId());
        line("\tvendor_part_id:\t\t\t%d", (int) a.vendorPartId());
        line("\thw_ver:\t\t\t\t0x%X", a.hardwareVersion());
        info.boardId().ifPresent(board -> line("\tboard_id:\t\t\t%s", board));
        line("\tphys_port_cnt:\t\t\t%d", a.physicalPortCount());
        if (verbose) {
            deviceDetails(a, a.extended().orElse(NO_EXTENDED));
            line("\tnum_comp_vectors:\t\t%d", info.completionVectors());
        }
        for (DeviceInfo.PortInfo port : info.ports()) {
            port(port, verbose, info.device().transportType() == TransportType.IB);
        }
    }

    private void deviceDetails(DeviceAttributes a, ExtendedDeviceAttributes ex) {
        line("\tmax_mr_size:\t\t\t0x%x", a.maxMrSize());
        line("\tpage_size_cap:\t\t\t0x%x", a.pageSizeCap());
        line("\tmax_qp:\t\t\t\t%d", a.maxQp());
        line("\tmax_qp_wr:\t\t\t%d", a.maxQpWr());
        int capFlags = (int) a.deviceCapFlags();
        line("\tdevice_cap_flags:\t\t0x%08x", capFlags);
        flags(Integer.toUnsignedLong(capFlags), DevinfoNames.DEVICE_CAP_FLAGS, 0xffffffffL);
        line("\tmax_sge:\t\t\t%d", a.maxSge());
        line("\tmax_sge_rd:\t\t\t%d", a.maxSgeRd());
        line("\tmax_cq:\t\t\t\t%d", a.maxCq());
        line("\tmax_cqe:\t\t\t%d", a.maxCqe());
        line("\tmax_mr:\t\t\t\t%d", a.maxMr());
        line("\tmax_pd:\t\t\t\t%d", a.maxPd());
        line("\tmax_qp_rd_atom:\t\t\t%d", a.maxQpRdAtom());
        line("\tmax_ee_rd_atom:\t\t\t%d", a.maxEeRdAtom());
        line("\tmax_res_rd_atom:\t\t%d", a.maxResRdAtom());
        line("\tmax_qp_init_rd_atom:\t\t%d", a.maxQpInitRdAtom());
        line("\tmax_ee_init_rd_atom:\t\t%d", a.maxEeInitRdAtom());
        int atomic = a.atomicCapability().value();
        line("\tatomic_cap:\t\t\t%s (%d)", DevinfoNames.ATOMIC_CAPABILITY.name(atomic), atomic);
        line("\tmax_ee:\t\t\t\t%d", a.maxEe());
        line("\tmax_rdd:\t\t\t%d", a.maxRdd());
        line("\tmax_mw:\t\t\t\t%d", a.maxMw());
        line("\tmax_raw_ipv6_qp:\t\t%d", a.maxRawIpv6Qp());
        line("\tmax_raw_ethy_qp:\t\t%d", a.maxRawEthyQp());
        line("\tmax_mcast_grp:\t\t\t%d", a.maxMcastGroups());
        line("\tmax_mcast_qp_attach:\t\t%d", a.maxMcastQpAttach());
        line("\tmax_total_mcast_qp_attach:\t%d", a.maxTotalMcastQpAttach());
        line("\tmax_ah:\t\t\t\t%d", a.maxAh());
        line("\tmax_fmr:\t\t\t%d", a.maxFmr());
        if (a.maxFmr() != 0) {
            line("\tmax_map_per_fmr:\t\t%d", a.maxMapPerFmr());
        }
        line("\tmax_srq:\t\t\t%d", a.maxSrq());
        if (a.maxSrq() != 0) {
            line("\tmax_srq_wr:\t\t\t%d", a.maxSrqWr());
            line("\tmax_srq_sge:\t\t\t%d", a.maxSrqSge());
        }
        line("\tmax_pkeys:\t\t\t%d", a.maxPkeys());
        line("\tlocal_ca_ack_delay:\t\t%d", a.localCaAckDelay());
        extended(ex);
    }

    private void extended(ExtendedDeviceAttributes ex) {
        ExtendedDeviceAttributes.OnDemandPaging odp = ex.onDemandPaging();
        line("\tgeneral_odp_caps:");
        flags(odp.generalCaps(), DevinfoNames.ODP_GENERAL, -1L);
        line("\trc_odp_caps:");
        odpTransport(odp.rcCaps());
        line("\tuc_odp_caps:");
        odpTransport(odp.ucCaps());
        line("\tud_odp_caps:");
        odpTransport(odp.udCaps());
        line("\txrc_odp_caps:");
        odpTransport(ex.xrcOdpCaps());
        if (ex.completionTimestampMask() != 0) {
            line("\tcompletion timestamp_mask:\t\t\t0x%016x", ex.completionTimestampMask());
        } else {
            line("\tcompletion_timestamp_mask not supported");
        }
        if (ex.hcaCoreClockKhz() != 0) {
            line("\thca_core_clock:\t\t\t%skHZ", Long.toUnsignedString(ex.hcaCoreClockKhz()));
        } else {
            line("\tcore clock not supported");
        }
        if (ex.rawPacketCaps() != 0) {
            line("\traw packet caps:");
            for (String name : DevinfoNames.names(ex.rawPacketCaps(), DevinfoNames.RAW_PACKET)) {
                line(FLAG + "%s", name);
            }
        }
        line("\tdevice_cap_flags_ex:\t\t0x%X", ex.deviceCapFlagsEx());
        flags(ex.deviceCapFlagsEx() & 0xffffffff00000000L, DevinfoNames.DEVICE_CAP_FLAGS_EX, -1L);
        ExtendedDeviceAttributes.TcpSegmentationOffload tso = ex.tcpSegmentationOffload();
        line("\ttso_caps:");
        line("\t\tmax_tso:\t\t\t%d", (int) tso.maxTso());
        if (tso.maxTso() != 0) {
            line("\t\tsupported_qp:");
            flags(Integer.toUnsignedLong(tso.supportedQpTypes()), DevinfoNames.QP_TYPES, 0xffffffffL);
        }
        ExtendedDeviceAttributes.ReceiveSideScaling rss = ex.receiveSideScaling();
        line("\trss_caps:");
        line("\t\tmax_rwq_indirection_tables:\t\t\t%d", rss.maxIndirectionTables());
        line("\t\tmax_rwq_indirection_table_size:\t\t\t%d", rss.maxIndirectionTableSize());
        line("\t\trx_hash_function:\t\t\t\t0x%x", rss.rxHashFunction());
        line("\t\trx_hash_fields_mask:\t\t\t\t0x%X", rss.rxHashFieldsMask());
        if (rss.supportedQpTypes() != 0) {
            line("\t\tsupported_qp:");
            flags(Integer.toUnsignedLong(rss.supportedQpTypes()), DevinfoNames.QP_TYPES, 0xffffffffL);
        }
        line("\tmax_wq_type_rq:\t\t\t%d", ex.maxWqTypeRq());
        ExtendedDeviceAttributes.PacketPacing pacing = ex.packetPacing();
        line("\tpacket_pacing_caps:");
        line("\t\tqp_rate_limit_min:\t%dkbps", pacing.qpRateLimitMinKbps());
        line("\t\tqp_rate_limit_max:\t%dkbps", pacing.qpRateLimitMaxKbps());
        if (pacing.qpRateLimitMaxKbps() != 0) {
            line("\t\tsupported_qp:");
            flags(Integer.toUnsignedLong(pacing.supportedQpTypes()), DevinfoNames.QP_TYPES, 0xffffffffL);
        }
        ExtendedDeviceAttributes.TagMatching tm = ex.tagMatching();
        if (tm.maxTags() != 0) {
            line("\tmax_rndv_hdr_size:\t\t%d", tm.maxRendezvousHeaderSize());
            line("\tmax_num_tags:\t\t\t%d", tm.maxTags());
            line("\tmax_ops:\t\t\t%d", tm.maxOperations());
            line("\tmax_sge:\t\t\t%d", tm.maxSge());
            line("\tflags:");
            if ((tm.flags() & 1) != 0) {
                line(FLAG + "IBV_TM_CAP_RC");
            }
        } else {
            line("\ttag matching not supported");
        }
        ExtendedDeviceAttributes.CqModeration cqMod = ex.cqModeration();
        if (cqMod.maxCount() != 0 && cqMod.maxPeriodMicros() != 0) {
            line("\n\tcq moderation caps:");
            line("\t\tmax_cq_count:\t%d", cqMod.maxCount());
            line("\t\tmax_cq_period:\t%d us\n", cqMod.maxPeriodMicros());
        }
        if (ex.maxDeviceMemorySize() != 0) {
            line("\tmaximum available device memory:\t%sBytes\n", Long.toUnsignedString(ex.maxDeviceMemorySize()));
        }
    }

    private void odpTransport(int caps) {
        if (caps == 0) {
            line(FLAG + "NO SUPPORT");
        } else {
            flags(Integer.toUnsignedLong(caps), DevinfoNames.ODP_TRANSPORT, 0xffffffffL);
        }
    }

    /** One line per named flag, then {@code Unknown flags: 0x..} for the rest within {@code width}. */
    private void flags(long value, List<DevinfoNames.Flag> names, long width) {
        for (String name : DevinfoNames.names(value, names)) {
            line(FLAG + "%s", name);
        }
        long unknown = DevinfoNames.unknown(value, names) & width;
        if (unknown != 0) {
            line(FLAG + "Unknown flags: 0x%X", unknown);
        }
    }

    private void port(DeviceInfo.PortInfo info, boolean verbose, boolean infiniBandTransport) {
        PortAttributes p = info.attributes();
        line("\t\tport:\t%d", p.port());
        int state = p.state().value();
        line("\t\t\tstate:\t\t\t%s (%d)", DevinfoNames.PORT_STATE.name(state), state);
        int maxMtu = p.maxMtu().value();
        int activeMtu = p.activeMtu().value();
        line("\t\t\tmax_mtu:\t\t%s (%d)", DevinfoNames.MTU.name(maxMtu), maxMtu);
        line("\t\t\tactive_mtu:\t\t%s (%d)", DevinfoNames.MTU.name(activeMtu), activeMtu);
        line("\t\t\tsm_lid:\t\t\t%d", p.smLid());
        line("\t\t\tport_lid:\t\t%d", p.lid());
        line("\t\t\tport_lmc:\t\t0x%02x", p.lmc());
        line("\t\t\tlink_layer:\t\t%s", DevinfoNames.LINK_LAYER.name(p.linkLayer().value()));
        if (verbose) {
            line("\t\t\tmax_msg_sz:\t\t0x%x", p.maxMessageSize());
            line("\t\t\tport_cap_flags:\t\t0x%08x", p.portCapFlags());
            line("\t\t\tport_cap_flags2:\t0x%04x", p.portCapFlags2());
            line("\t\t\tmax_vl_num:\t\t%s (%d)", DevinfoNames.VIRTUAL_LANES.name(p.maxVirtualLanes()), p.maxVirtualLanes());
            line("\t\t\tbad_pkey_cntr:\t\t0x%x", p.badPkeyCounter());
            line("\t\t\tqkey_viol_cntr:\t\t0x%x", p.qkeyViolationCounter());
            line("\t\t\tsm_sl:\t\t\t%d", p.smServiceLevel());
            line("\t\t\tpkey_tbl_len:\t\t%d", p.pkeyTableLength());
            line("\t\t\tgid_tbl_len:\t\t%d", p.gidTableLength());
            line("\t\t\tsubnet_timeout:\t\t%d", p.subnetTimeout());
            line("\t\t\tinit_type_reply:\t%d", p.initTypeReply());
            line("\t\t\tactive_width:\t\t%sX (%d)", DevinfoNames.WIDTH.name(p.activeWidth()), p.activeWidth());
            line("\t\t\tactive_speed:\t\t%s (%d)", DevinfoNames.SPEED.name(p.activeSpeed()), p.activeSpeed());
            if (infiniBandTransport) {
                line("\t\t\tphys_state:\t\t%s (%d)", DevinfoNames.PHYSICAL_STATE.name(p.physicalState()), p.physicalState());
            }
            for (GidEntry gid : info.gids()) {
                if (!nullGid(gid)) {
                    line("\t\t\tGID[%3d]:\t\t%s", gid.index(), gidText(gid, p.isEthernet()));
                }
            }
        }
        out.append('\n');
    }

    /** {@code null_gid}: ibv_devinfo skips GIDs whose interface identifier (bytes 8..15) is zero. */
    static boolean nullGid(GidEntry entry) {
        return entry.gid().interfaceId() == 0;
    }

    /**
     * {@code print_formated_gid}: RoCE v2 GIDs as {@code inet_ntop} writes them, the others as eight
     * groups of four hex digits; on Ethernet ports followed by {@code ", RoCE v1"} or {@code ", RoCE v2"}.
     */
    static String gidText(GidEntry entry, boolean ethernet) {
        String text = entry.type() == GidType.ROCE_V2 ? entry.gid().toAddressString() : entry.gid().toString();
        return ethernet ? text + ", " + (entry.type() == GidType.ROCE_V2 ? "RoCE v2" : "RoCE v1") : text;
    }
}
