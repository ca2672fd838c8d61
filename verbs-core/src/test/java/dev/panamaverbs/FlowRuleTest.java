package dev.panamaverbs;

import dev.panamaverbs.values.FlowType;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.GlobalRoute;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_flow_attr;
import dev.panamaverbs.ffm.ibv_flow_spec_eth;
import dev.panamaverbs.ffm.ibv_flow_spec_ipv4;
import dev.panamaverbs.ffm.ibv_flow_spec_tcp_udp;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/**
 * FlowRule's encoding: {@code struct ibv_flow_attr} then each spec at the offset the sizes before
 * it add up to, header fields in network byte order with all-ones masks on the fields given (the
 * generated layouts are checked against gcc by verbs-loader's SteeringOpsTest).
 */
class FlowRuleTest {
    private static final ValueLayout.OfShort BE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN);

    @Test
    void specsFollowTheAttributeInNetworkByteOrder() throws Exception {
        FlowRule rule = FlowRule.builder(1).priority(7)
                .ethernet(new byte[] {2, 0, 0, 0, 0, 9}, 0x0800)
                .ipv4(null, (Inet4Address) InetAddress.getByName("10.1.2.3"))
                .udp(4791, 0)
                .build();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = rule.encode(arena);
            long size = ibv_flow_attr.SIZE + ibv_flow_spec_eth.SIZE + ibv_flow_spec_ipv4.SIZE + ibv_flow_spec_tcp_udp.SIZE;
            assertEquals(size, attr.byteSize());
            assertEquals(VerbsConstants.IBV_FLOW_ATTR_NORMAL, ibv_flow_attr.type(attr));
            assertEquals(size, ibv_flow_attr.size(attr));
            assertEquals(7, ibv_flow_attr.priority(attr));
            assertEquals(3, ibv_flow_attr.num_of_specs(attr));
            assertEquals(1, ibv_flow_attr.port(attr));

            MemorySegment eth = attr.asSlice(ibv_flow_attr.SIZE, ibv_flow_spec_eth.SIZE);
            assertEquals(VerbsConstants.IBV_FLOW_SPEC_ETH, ibv_flow_spec_eth.type(eth));
            assertEquals(ibv_flow_spec_eth.SIZE, ibv_flow_spec_eth.size(eth));
            MemorySegment ethVal = ibv_flow_spec_eth.val(eth);
            assertEquals(9, ethVal.get(ValueLayout.JAVA_BYTE, 5), "dst_mac as given");
            assertEquals((short) 0x0800, ethVal.get(BE_SHORT, 12), "ether_type big-endian");
            assertEquals((byte) 0xFF, ibv_flow_spec_eth.mask(eth).get(ValueLayout.JAVA_BYTE, 0));
            assertEquals(0, ibv_flow_spec_eth.mask(eth).get(ValueLayout.JAVA_BYTE, 6), "src_mac not matched");

            MemorySegment ip = attr.asSlice(ibv_flow_attr.SIZE + ibv_flow_spec_eth.SIZE, ibv_flow_spec_ipv4.SIZE);
            assertEquals(VerbsConstants.IBV_FLOW_SPEC_IPV4, ibv_flow_spec_ipv4.type(ip));
            MemorySegment ipVal = ibv_flow_spec_ipv4.val(ip);
            assertEquals(0, ipVal.get(ValueLayout.JAVA_INT_UNALIGNED, 0), "any source");
            assertEquals(10, ipVal.get(ValueLayout.JAVA_BYTE, 4));
            assertEquals(3, ipVal.get(ValueLayout.JAVA_BYTE, 7));
            assertEquals(-1, ibv_flow_spec_ipv4.mask(ip).get(ValueLayout.JAVA_INT_UNALIGNED, 4));

            MemorySegment udp = attr.asSlice(size - ibv_flow_spec_tcp_udp.SIZE, ibv_flow_spec_tcp_udp.SIZE);
            assertEquals(VerbsConstants.IBV_FLOW_SPEC_UDP, ibv_flow_spec_tcp_udp.type(udp));
            assertEquals((short) 4791, ibv_flow_spec_tcp_udp.val(udp).get(BE_SHORT, 0), "dst_port big-endian");
            assertEquals(0, ibv_flow_spec_tcp_udp.mask(udp).get(BE_SHORT, 2), "any source port");
        }
    }

    @Test
    void theRoceSourcePortOfAFlowLabelIsTheHeadersArithmetic() {
        GlobalRoute route = GlobalRoute.to(Gid.parse("::1"), 0);
        assertEquals(0xC000, route.withFlowLabel(0).udpSourcePort());
        assertEquals(0xE341, route.withFlowLabel(0x12345).udpSourcePort(), "0x2345 ^ (0x10000 >> 14) | 0xC000");
        assertEquals(0xFFFF ^ 0x3F, route.withFlowLabel(0xFFFFF).udpSourcePort(), "0x3FFF ^ 0x3F | 0xC000");
    }

    @Test
    void aTagActionCarriesTheTag() {
        FlowRule rule = FlowRule.builder(2).type(FlowType.SNIFFER).tag(0xFFFFFFFE).build();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = rule.encode(arena);
            assertEquals(VerbsConstants.IBV_FLOW_ATTR_SNIFFER, ibv_flow_attr.type(attr));
            MemorySegment tag = attr.asSlice(ibv_flow_attr.SIZE);
            assertEquals(VerbsConstants.IBV_FLOW_SPEC_ACTION_TAG, dev.panamaverbs.ffm.ibv_flow_spec_action_tag.type(tag));
            assertEquals(0xFFFFFFFE, dev.panamaverbs.ffm.ibv_flow_spec_action_tag.tag_id(tag));
        }
    }

    @Test
    void argumentsAreCheckedAtOnce() {
        assertThrows(IllegalArgumentException.class, () -> FlowRule.builder(0));
        assertThrows(IllegalArgumentException.class, () -> FlowRule.builder(1).priority(65536));
        assertThrows(IllegalArgumentException.class, () -> FlowRule.builder(1).ethernet(new byte[5], 0));
        assertThrows(IllegalArgumentException.class, () -> FlowRule.builder(1).tcp(70000, 0));
    }
}
