package dev.panamaverbs.info;

import dev.panamaverbs.Capability;
import dev.panamaverbs.values.DeviceAttributes;
import dev.panamaverbs.values.ExtendedDeviceAttributes;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.Guids;
import dev.panamaverbs.values.PortAttributes;
import dev.panamaverbs.values.PortCounters;
import java.util.List;

/**
 * verbs-info's {@code --json} document: {@code library} and {@code devices}, each device with every
 * field {@code ibv_devinfo -v} prints under the same name (numbers as numbers, encoded values as
 * their {@code ibv_devinfo} name plus a {@code _value} member, flag words as a number plus a
 * {@code _names} array), its ports, and each port's GID table with types and netdevs, and with
 * {@code --counters} its {@code counters}, {@code hw_counters} and {@code raw_clock_ns}.
 */
final class JsonReport {
    private final JsonWriter json = new JsonWriter();

    private JsonReport() {}

    /** The whole document. */
    static String format(LibraryInfo library, List<DeviceInfo> devices) {
        JsonReport report = new JsonReport();
        report.json.beginObject();
        report.library(library);
        report.json.name("devices").beginArray();
        for (DeviceInfo device : devices) {
            report.device(device);
        }
        report.json.endArray().endObject();
        return report.json.toString();
    }

    private void library(LibraryInfo library) {
        json.name("library").beginObject();
        json.name("version").value(library.version());
        json.name("available").value(library.available());
        json.name("path").value(library.libraryPath().orElse(null));
        json.name("unavailability_cause").value(library.cause().orElse(null));
        capabilities("capabilities", library.capabilities());
        capabilities("missing_capabilities", library.missing());
        json.name("rdmacm_available").value(library.rdmaCmAvailable());
        json.name("rdmacm_unavailability_cause").value(library.rdmaCmCause().orElse(null));
        json.name("rdmacm_device").value(library.rdmaCmDevice());
        json.name("rdmacm_device_unavailability_cause").value(library.rdmaCmDeviceCause().orElse(null));
        json.endObject();
    }

    private void capabilities(String name, List<Capability> capabilities) {
        json.name(name).beginArray();
        capabilities.forEach(c -> json.value(c.name()));
        json.endArray();
    }

    private void device(DeviceInfo info) {
        DeviceAttributes a = info.attributes();
        int transport = info.device().transportType().value();
        json.beginObject();
        json.name("hca_id").value(info.device().name());
        named("transport", DevinfoNames.TRANSPORT.name(transport), transport);
        json.name("fw_ver").value(a.firmwareVersion());
        json.name("node_guid").value(Guids.format(a.nodeGuid()));
        json.name("sys_image_guid").value(Guids.format(a.systemImageGuid()));
        json.name("vendor_id").value(a.vendorId());
        json.name("vendor_part_id").value(a.vendorPartId());
        json.name("hw_ver").value(a.hardwareVersion());
        json.name("board_id").value(info.boardId().orElse(null));
        json.name("phys_port_cnt").value(a.physicalPortCount());
        json.name("max_mr_size").unsignedValue(a.maxMrSize());
        json.name("page_size_cap").unsignedValue(a.pageSizeCap());
        json.name("max_qp").value(a.maxQp());
        json.name("max_qp_wr").value(a.maxQpWr());
        flags("device_cap_flags", a.deviceCapFlags() & 0xffffffffL, DevinfoNames.DEVICE_CAP_FLAGS);
        json.name("max_sge").value(a.maxSge());
        json.name("max_sge_rd").value(a.maxSgeRd());
        json.name("max_cq").value(a.maxCq());
        json.name("max_cqe").value(a.maxCqe());
        json.name("max_mr").value(a.maxMr());
        json.name("max_pd").value(a.maxPd());
        json.name("max_qp_rd_atom").value(a.maxQpRdAtom());
        json.name("max_ee_rd_atom").value(a.maxEeRdAtom());
        json.name("max_res_rd_atom").value(a.maxResRdAtom());
        json.name("max_qp_init_rd_atom").value(a.maxQpInitRdAtom());
        json.name("max_ee_init_rd_atom").value(a.maxEeInitRdAtom());
        int atomic = a.atomicCapability().value();
        named("atomic_cap", DevinfoNames.ATOMIC_CAPABILITY.name(atomic), atomic);
        json.name("max_ee").value(a.maxEe());
        json.name("max_rdd").value(a.maxRdd());
        json.name("max_mw").value(a.maxMw());
        json.name("max_raw_ipv6_qp").value(a.maxRawIpv6Qp());
        json.name("max_raw_ethy_qp").value(a.maxRawEthyQp());
        json.name("max_mcast_grp").value(a.maxMcastGroups());
        json.name("max_mcast_qp_attach").value(a.maxMcastQpAttach());
        json.name("max_total_mcast_qp_attach").value(a.maxTotalMcastQpAttach());
        json.name("max_ah").value(a.maxAh());
        json.name("max_fmr").value(a.maxFmr());
        json.name("max_map_per_fmr").value(a.maxMapPerFmr());
        json.name("max_srq").value(a.maxSrq());
        json.name("max_srq_wr").value(a.maxSrqWr());
        json.name("max_srq_sge").value(a.maxSrqSge());
        json.name("max_pkeys").value(a.maxPkeys());
        json.name("local_ca_ack_delay").value(a.localCaAckDelay());
        json.name("extended_query").value(a.extended().isPresent());
        extended(a.extended().orElse(DevinfoText.NO_EXTENDED));
        json.name("num_comp_vectors").value(info.completionVectors());
        json.name("ports").beginArray();
        info.ports().forEach(this::port);
        json.endArray();
        json.endObject();
    }

    private void extended(ExtendedDeviceAttributes ex) {
        ExtendedDeviceAttributes.OnDemandPaging odp = ex.onDemandPaging();
        flags("general_odp_caps", odp.generalCaps(), DevinfoNames.ODP_GENERAL);
        flags("rc_odp_caps", odp.rcCaps() & 0xffffffffL, DevinfoNames.ODP_TRANSPORT);
        flags("uc_odp_caps", odp.ucCaps() & 0xffffffffL, DevinfoNames.ODP_TRANSPORT);
        flags("ud_odp_caps", odp.udCaps() & 0xffffffffL, DevinfoNames.ODP_TRANSPORT);
        flags("xrc_odp_caps", ex.xrcOdpCaps() & 0xffffffffL, DevinfoNames.ODP_TRANSPORT);
        json.name("completion_timestamp_mask").unsignedValue(ex.completionTimestampMask());
        json.name("hca_core_clock_khz").unsignedValue(ex.hcaCoreClockKhz());
        flags("raw_packet_caps", ex.rawPacketCaps() & 0xffffffffL, DevinfoNames.RAW_PACKET);
        flags("device_cap_flags_ex", ex.deviceCapFlagsEx(), DevinfoNames.DEVICE_CAP_FLAGS_EX);
        ExtendedDeviceAttributes.TcpSegmentationOffload tso = ex.tcpSegmentationOffload();
        qpCaps("tso_caps", () -> json.name("max_tso").value(tso.maxTso()), tso.supportedQpTypes());
        ExtendedDeviceAttributes.ReceiveSideScaling rss = ex.receiveSideScaling();
        qpCaps("rss_caps", () -> {
            json.name("max_rwq_indirection_tables").value(rss.maxIndirectionTables());
            json.name("max_rwq_indirection_table_size").value(rss.maxIndirectionTableSize());
            json.name("rx_hash_function").value(rss.rxHashFunction());
            json.name("rx_hash_fields_mask").unsignedValue(rss.rxHashFieldsMask());
        }, rss.supportedQpTypes());
        json.name("max_wq_type_rq").value(ex.maxWqTypeRq());
        ExtendedDeviceAttributes.PacketPacing pacing = ex.packetPacing();
        qpCaps("packet_pacing_caps", () -> {
            json.name("qp_rate_limit_min_kbps").value(pacing.qpRateLimitMinKbps());
            json.name("qp_rate_limit_max_kbps").value(pacing.qpRateLimitMaxKbps());
        }, pacing.supportedQpTypes());
        ExtendedDeviceAttributes.TagMatching tm = ex.tagMatching();
        json.name("tm_caps").beginObject();
        json.name("max_rndv_hdr_size").value(tm.maxRendezvousHeaderSize());
        json.name("max_num_tags").value(tm.maxTags());
        json.name("max_ops").value(tm.maxOperations());
        json.name("max_sge").value(tm.maxSge());
        json.name("flags").value(tm.flags());
        json.endObject();
        json.name("cq_moderation_caps").beginObject();
        json.name("max_cq_count").value(ex.cqModeration().maxCount());
        json.name("max_cq_period_us").value(ex.cqModeration().maxPeriodMicros());
        json.endObject();
        json.name("max_dm_size").unsignedValue(ex.maxDeviceMemorySize());
    }

    private void port(DeviceInfo.PortInfo info) {
        PortAttributes p = info.attributes();
        json.beginObject();
        json.name("port").value(p.port());
        named("state", DevinfoNames.PORT_STATE.name(p.state().value()), p.state().value());
        named("max_mtu", DevinfoNames.MTU.name(p.maxMtu().value()), p.maxMtu().value());
        named("active_mtu", DevinfoNames.MTU.name(p.activeMtu().value()), p.activeMtu().value());
        json.name("sm_lid").value(p.smLid());
        json.name("port_lid").value(p.lid());
        json.name("port_lmc").value(p.lmc());
        named("link_layer", DevinfoNames.LINK_LAYER.name(p.linkLayer().value()), p.linkLayer().value());
        json.name("max_msg_sz").value(p.maxMessageSize());
        json.name("port_cap_flags").value(Integer.toUnsignedLong(p.portCapFlags()));
        json.name("port_cap_flags2").value(p.portCapFlags2());
        named("max_vl_num", DevinfoNames.VIRTUAL_LANES.name(p.maxVirtualLanes()), p.maxVirtualLanes());
        json.name("bad_pkey_cntr").value(p.badPkeyCounter());
        json.name("qkey_viol_cntr").value(p.qkeyViolationCounter());
        json.name("sm_sl").value(p.smServiceLevel());
        json.name("pkey_tbl_len").value(p.pkeyTableLength());
        json.name("gid_tbl_len").value(p.gidTableLength());
        json.name("subnet_timeout").value(p.subnetTimeout());
        json.name("init_type_reply").value(p.initTypeReply());
        named("active_width", DevinfoNames.WIDTH.name(p.activeWidth()) + "X", p.activeWidth());
        named("active_speed", DevinfoNames.SPEED.name(p.activeSpeed()), p.activeSpeed());
        named("phys_state", DevinfoNames.PHYSICAL_STATE.name(p.physicalState()), p.physicalState());
        json.name("gids").beginArray();
        info.gids().forEach(this::gid);
        json.endArray();
        info.counters().ifPresent(this::counters);
        json.endObject();
    }

    /** {@code --counters}: both sysfs directories by name, and the raw clock (null when not offered). */
    private void counters(PortCounters taken) {
        json.name("counters").beginObject();
        taken.counters().forEach((name, value) -> json.name(name).unsignedValue(value));
        json.endObject();
        json.name("hw_counters").beginObject();
        taken.hardwareCounters().forEach((name, value) -> json.name(name).unsignedValue(value));
        json.endObject();
        json.name("raw_clock_ns");
        if (taken.rawClockNanos().isPresent()) {
            json.unsignedValue(taken.rawClockNanos().getAsLong());
        } else {
            json.nullValue();
        }
    }

    private void gid(GidEntry gid) {
        json.beginObject();
        json.name("index").value(gid.index());
        json.name("gid").value(gid.gid().toAddressString());
        json.name("raw").value(gid.gid().toString());
        json.name("type").value(InfoText.typeName(gid));
        json.name("netdev").value(gid.netdevName().orElse(null));
        json.name("netdev_index").value(gid.netdevIndex());
        json.endObject();
    }

    /** {@code name}: the {@code ibv_devinfo} text; {@code name_value}: the C value. */
    private void named(String name, String text, long value) {
        json.name(name).value(text);
        json.name(name + "_value").value(value);
    }

    /** An object of capabilities: {@code members}, then its {@code supported_qp} mask and names. */
    private void qpCaps(String name, Runnable members, int supportedQpTypes) {
        json.name(name).beginObject();
        members.run();
        flags("supported_qp", supportedQpTypes & 0xffffffffL, DevinfoNames.QP_TYPES);
        json.endObject();
    }

    /** {@code name}: the flag word; {@code name_names}: the set flags' {@code ibv_devinfo} names. */
    private void flags(String name, long value, List<DevinfoNames.Flag> names) {
        json.name(name).unsignedValue(value);
        json.name(name + "_names").beginArray();
        DevinfoNames.names(value, names).forEach(json::value);
        json.endArray();
    }
}
