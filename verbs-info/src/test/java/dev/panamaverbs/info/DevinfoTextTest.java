package dev.panamaverbs.info;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.Device;
import dev.panamaverbs.values.LinkLayer;
import dev.panamaverbs.values.NodeType;
import dev.panamaverbs.values.TransportType;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The text matches ibv_devinfo's printf formats (rdma-core devinfo.c), on fake values. */
class DevinfoTextTest {

    @Test
    void shortFormIsIbvDevinfoWithoutDashV() {
        String expected = """
                hca_id:\trxe0
                \ttransport:\t\t\tInfiniBand (0)
                \tnode_guid:\t\t\t5054:00ff:fe12:3456
                \tsys_image_guid:\t\t\t5054:00ff:fe12:3456
                \tvendor_id:\t\t\t0xffffff
                \tvendor_part_id:\t\t\t0
                \thw_ver:\t\t\t\t0x0
                \tphys_port_cnt:\t\t\t1
                \t\tport:\t1
                \t\t\tstate:\t\t\tPORT_ACTIVE (4)
                \t\t\tmax_mtu:\t\t4096 (5)
                \t\t\tactive_mtu:\t\t1024 (3)
                \t\t\tsm_lid:\t\t\t0
                \t\t\tport_lid:\t\t0
                \t\t\tport_lmc:\t\t0x00
                \t\t\tlink_layer:\t\tEthernet

                """;
        assertEquals(expected, DevinfoText.format(Fakes.rxe(Optional.empty()), false));
    }

    @Test
    void verboseLinesUseTheCFormats() {
        List<String> lines = DevinfoText.format(Fakes.rxe(Optional.of(Fakes.extended())), true).lines().toList();
        for (String line : List.of(
                "\tmax_mr_size:\t\t\t0xffffffffffffffff",
                "\tpage_size_cap:\t\t\t0xfffff000",
                "\tdevice_cap_flags:\t\t0x0122bc76",
                "\t\t\t\t\tBAD_PKEY_CNTR",
                "\t\t\t\t\tMEM_MGT_EXTENSIONS",
                "\t\t\t\t\tUnknown flags: 0x8000",
                "\tatomic_cap:\t\t\tATOMIC_HCA (1)",
                "\tmax_total_mcast_qp_attach:\t458752",
                "\tmax_srq_wr:\t\t\t1048576",
                "\tgeneral_odp_caps:",
                "\t\t\t\t\tODP_SUPPORT",
                "\t\t\t\t\tSUPPORT_SRQ",
                "\t\t\t\t\tNO SUPPORT",
                "\t\t\t\t\tUnknown flags: 0x40",
                "\tcompletion_timestamp_mask not supported",
                "\tcore clock not supported",
                "\tdevice_cap_flags_ex:\t\t0x1040122BC76",
                "\t\t\t\t\tRAW_SCATTER_FCS",
                "\t\t\t\t\tUnknown flags: 0x10000000000",
                "\t\tmax_tso:\t\t\t0",
                "\tnum_comp_vectors:\t\t2",
                "\t\trx_hash_fields_mask:\t\t\t\t0x0",
                "\t\tsupported_qp:",
                "\t\t\t\t\tSUPPORT_RAW_PACKET",
                "\t\tqp_rate_limit_max:\t0kbps",
                "\ttag matching not supported",
                "\t\t\tmax_msg_sz:\t\t0x80000000",
                "\t\t\tport_cap_flags:\t\t0x00010000",
                "\t\t\tport_cap_flags2:\t0x0000",
                "\t\t\tmax_vl_num:\t\t1 (1)",
                "\t\t\tactive_width:\t\t1X (1)",
                "\t\t\tactive_speed:\t\t2.5 Gbps (1)",
                "\t\t\tphys_state:\t\tLINK_UP (5)",
                "\t\t\tGID[  0]:\t\tfe80::5054:ff:fe12:3456, RoCE v2",
                "\t\t\tGID[  1]:\t\t::ffff:10.0.2.15, RoCE v2",
                "\t\t\tGID[  2]:\t\tfe80:0000:0000:0000:0000:0000:0000:0001, RoCE v1")) {
            assertTrue(lines.contains(line), () -> "missing line " + line.replace("\t", "\\t") + " in\n" + String.join("\n", lines));
        }
        assertFalse(lines.stream().anyMatch(l -> l.contains("GID[  3]")), "a GID whose interface id is 0 is skipped");
        assertFalse(lines.stream().anyMatch(l -> l.contains("max_map_per_fmr")), "max_map_per_fmr only when max_fmr != 0");
        assertFalse(lines.stream().anyMatch(l -> l.contains("fw_ver")), "an empty fw_ver is not printed");
    }

    @Test
    void conditionalLinesFollowIbvDevinfo() {
        DeviceInfo iwarp = new DeviceInfo(new Device("iw0", Fakes.GUID, NodeType.RNIC, TransportType.IWARP),
                Optional.of("BRD_42"), Fakes.attributes("1.2.3", 4, 0, Optional.empty()), 1,
                List.of(new DeviceInfo.PortInfo(Fakes.port(LinkLayer.INFINIBAND), Fakes.gids())));
        List<String> lines = DevinfoText.format(iwarp, true).lines().toList();
        assertTrue(lines.contains("\ttransport:\t\t\tiWARP (1)"));
        assertTrue(lines.contains("\tfw_ver:\t\t\t\t1.2.3"));
        assertTrue(lines.contains("\tboard_id:\t\t\tBRD_42"));
        assertTrue(lines.contains("\tmax_map_per_fmr:\t\t0"));
        assertFalse(lines.stream().anyMatch(l -> l.contains("max_srq_wr")), "no SRQ sizes without SRQs");
        assertFalse(lines.stream().anyMatch(l -> l.contains("phys_state")), "phys_state only on the IB transport");
        assertTrue(lines.contains("\t\t\tlink_layer:\t\tInfiniBand"));
        assertTrue(lines.contains("\t\t\tGID[  2]:\t\tfe80:0000:0000:0000:0000:0000:0000:0001"), "no type suffix on IB ports");
    }

    @Test
    void namesAreIbvDevinfosIncludingItsSpelling() {
        assertEquals("PORT_CONFIGURATION TRAINNING", DevinfoNames.PHYSICAL_STATE.name(4));
        assertEquals("invalid MTU", DevinfoNames.MTU.name(0));
        assertEquals("10.0 Gbps", DevinfoNames.SPEED.name(8));
        assertEquals("invalid width", DevinfoNames.WIDTH.name(3));
        assertEquals("15", DevinfoNames.VIRTUAL_LANES.name(5));
        assertEquals("InfiniBand", DevinfoNames.LINK_LAYER.name(0));
    }
}
