package dev.panamaverbs.info;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The --json document parses, and carries ibv_devinfo's field names with the fake values. */
class JsonReportTest {

    @Test
    void countersAreNumbersByNameWithTheClockNullWhenNotOffered() {
        Map<?, ?> root = (Map<?, ?>) MiniJson.parse(JsonReport.format(Fakes.library(),
                List.of(Fakes.rxeWithCounters(java.util.OptionalLong.empty()))));
        Map<?, ?> port = (Map<?, ?>) ((List<?>) ((Map<?, ?>) ((List<?>) root.get("devices")).getFirst()).get("ports")).getFirst();
        assertEquals(Map.of("port_xmit_packets", BigInteger.valueOf(99)), port.get("counters"));
        assertEquals(Map.of("sent_pkts", new BigInteger("18446744073709551615"), "rcvd_rnr_err", BigInteger.ONE),
                port.get("hw_counters"));
        assertTrue(port.containsKey("raw_clock_ns"));
        assertNull(port.get("raw_clock_ns"));
        Map<?, ?> without = (Map<?, ?>) ((List<?>) ((Map<?, ?>) ((List<?>) ((Map<?, ?>) MiniJson.parse(JsonReport.format(
                Fakes.library(), List.of(Fakes.rxe(Optional.empty()))))).get("devices")).getFirst()).get("ports")).getFirst();
        assertTrue(!without.containsKey("counters") && !without.containsKey("hw_counters"), "no --counters, no members");
    }

    @Test
    void documentHasLibraryDevicesPortsAndGids() {
        Map<?, ?> root = (Map<?, ?>) MiniJson.parse(JsonReport.format(Fakes.library(), List.of(Fakes.rxe(Optional.of(Fakes.extended())))));
        Map<?, ?> library = (Map<?, ?>) root.get("library");
        assertEquals("0.1.0-TEST", library.get("version"));
        assertEquals(true, library.get("available"));
        assertEquals(List.of("QP_EX", "QUERY_GID_EX"), library.get("capabilities"));
        assertEquals(List.of("QUERY_QP_DATA_IN_ORDER"), library.get("missing_capabilities"));
        assertEquals("librdmacm \"gone\"", library.get("rdmacm_unavailability_cause"));
        assertEquals("/dev/infiniband/rdma_cm", library.get("rdmacm_device"));
        assertTrue(((String) library.get("rdmacm_device_unavailability_cause")).contains("rdma_ucm"));

        Map<?, ?> device = (Map<?, ?>) ((List<?>) root.get("devices")).getFirst();
        assertEquals("rxe0", device.get("hca_id"));
        assertEquals("InfiniBand", device.get("transport"));
        assertEquals(BigInteger.ZERO, device.get("transport_value"));
        assertEquals("5054:00ff:fe12:3456", device.get("node_guid"));
        assertEquals(new BigInteger("18446744073709551615"), device.get("max_mr_size"));
        assertEquals(BigInteger.valueOf(0x0122bc76L), device.get("device_cap_flags"));
        assertEquals("ATOMIC_HCA", device.get("atomic_cap"));
        assertNull(device.get("board_id"));
        assertEquals(BigInteger.TWO, device.get("num_comp_vectors"));
        assertEquals(List.of("SUPPORT_SEND", "SUPPORT_RECV", "SUPPORT_WRITE", "SUPPORT_READ", "SUPPORT_ATOMIC", "SUPPORT_SRQ"),
                device.get("rc_odp_caps_names"));
        assertEquals(List.of("RAW_SCATTER_FCS"), device.get("device_cap_flags_ex_names"));
        assertEquals(List.of("SUPPORT_RAW_PACKET"), ((Map<?, ?>) device.get("rss_caps")).get("supported_qp_names"));

        Map<?, ?> port = (Map<?, ?>) ((List<?>) device.get("ports")).getFirst();
        assertEquals(BigInteger.ONE, port.get("port"));
        assertEquals("PORT_ACTIVE", port.get("state"));
        assertEquals("1024", port.get("active_mtu"));
        assertEquals(BigInteger.valueOf(3), port.get("active_mtu_value"));
        assertEquals("Ethernet", port.get("link_layer"));
        assertEquals("LINK_UP", port.get("phys_state"));
        List<?> gids = (List<?>) port.get("gids");
        assertEquals(4, gids.size());
        Map<?, ?> ipv4 = (Map<?, ?>) gids.get(1);
        assertEquals("::ffff:10.0.2.15", ipv4.get("gid"));
        assertEquals("RoCE v2", ipv4.get("type"));
        assertEquals("eth0", ipv4.get("netdev"));
        assertNull(((Map<?, ?>) gids.get(2)).get("netdev"));
    }

    @Test
    void unavailableLibraryHasNoDevices() {
        LibraryInfo off = new LibraryInfo("0.1.0-TEST", false, Optional.empty(), Optional.of("panamaverbs.disable=true"),
                List.of(), List.of(), false, Optional.of("disabled"), "/dev/infiniband/rdma_cm", Optional.empty());
        Map<?, ?> root = (Map<?, ?>) MiniJson.parse(JsonReport.format(off, List.of()));
        assertEquals(false, ((Map<?, ?>) root.get("library")).get("available"));
        assertEquals("panamaverbs.disable=true", ((Map<?, ?>) root.get("library")).get("unavailability_cause"));
        assertEquals(List.of(), root.get("devices"));
    }
}
