package dev.panamaverbs.values;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_port_attr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class PortAttributesTest {
    @Test
    void decodesARoCEPortAsRxeReportsIt() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_port_attr.LAYOUT);
            ibv_port_attr.state(attr, VerbsConstants.IBV_PORT_ACTIVE);
            ibv_port_attr.max_mtu(attr, VerbsConstants.IBV_MTU_4096);
            ibv_port_attr.active_mtu(attr, VerbsConstants.IBV_MTU_1024);
            ibv_port_attr.gid_tbl_len(attr, 1024);
            ibv_port_attr.max_msg_sz(attr, 0x8000_0000);
            ibv_port_attr.pkey_tbl_len(attr, (short) 1);
            ibv_port_attr.active_width(attr, (byte) 2);
            ibv_port_attr.active_speed(attr, (byte) 32);
            ibv_port_attr.phys_state(attr, (byte) 5);
            ibv_port_attr.link_layer(attr, (byte) VerbsConstants.IBV_LINK_LAYER_ETHERNET);
            ibv_port_attr.port_cap_flags2(attr, (short) 0x8000);

            PortAttributes port = PortAttributes.read(1, attr);

            assertEquals(1, port.port());
            assertEquals(PortState.ACTIVE, port.state());
            assertTrue(port.isActive());
            assertEquals(Mtu.MTU_4096, port.maxMtu());
            assertEquals(Mtu.MTU_1024, port.activeMtu());
            assertEquals(1024, port.gidTableLength());
            assertEquals(0x8000_0000L, port.maxMessageSize());
            assertEquals(1, port.pkeyTableLength());
            assertEquals(4, port.activeWidthLanes());
            assertEquals(25.78125, port.activeSpeedGbps());
            assertEquals("LINK_UP", port.physicalStateName());
            assertEquals(LinkLayer.ETHERNET, port.linkLayer());
            assertTrue(port.isEthernet());
            assertTrue(port.grhRequired());
            assertEquals(0x8000, port.portCapFlags2());
        }
    }

    @Test
    void downPortWithoutMtuDecodesSafely() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_port_attr.LAYOUT);
            ibv_port_attr.state(attr, VerbsConstants.IBV_PORT_DOWN);
            ibv_port_attr.link_layer(attr, (byte) VerbsConstants.IBV_LINK_LAYER_INFINIBAND);
            ibv_port_attr.lid(attr, (short) 0xc001);

            PortAttributes port = PortAttributes.read(2, attr);

            assertEquals(PortState.DOWN, port.state());
            assertFalse(port.isActive());
            assertEquals(Mtu.MTU_256, port.activeMtu());
            assertEquals(0xc001, port.lid());
            assertFalse(port.grhRequired());
            assertEquals(0, port.activeWidthLanes());
            assertEquals("UNKNOWN(0)", port.physicalStateName());
        }
    }
}
