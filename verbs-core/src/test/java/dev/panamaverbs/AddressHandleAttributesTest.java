package dev.panamaverbs;

import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.GidType;
import dev.panamaverbs.values.GlobalRoute;
import dev.panamaverbs.values.LinkLayer;
import dev.panamaverbs.values.Mtu;
import dev.panamaverbs.values.PortAttributes;
import dev.panamaverbs.values.PortState;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.ffm.ibv_ah_attr;
import dev.panamaverbs.ffm.ibv_global_route;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Address handle attributes and the checks {@code ibv_create_ah} makes before the native call. */
class AddressHandleAttributesTest {
    private static final Rejections.Verb CREATE_AH = new Rejections.Verb("ibv_create_ah: ");
    private static final Gid REMOTE = Gid.parse("::ffff:10.0.2.15");


    @Test
    void everyFieldIsCheckedAgainstItsCWidth() {
        CREATE_AH.assertRejected("port_num must be in 1..255, got 0", () -> AddressHandleAttributes.local(0, 1));
        CREATE_AH.assertRejected("port_num", () -> AddressHandleAttributes.local(256, 1));
        CREATE_AH.assertRejected("dlid", () -> AddressHandleAttributes.local(1, 0x10000));
        CREATE_AH.assertRejected("dlid", () -> AddressHandleAttributes.local(1, -1));
        CREATE_AH.assertRejected("sl", () -> AddressHandleAttributes.local(1, 1).withServiceLevel(16));
        CREATE_AH.assertRejected("src_path_bits", () -> AddressHandleAttributes.local(1, 1).withSourcePathBits(128));
        CREATE_AH.assertRejected("static_rate", () -> AddressHandleAttributes.local(1, 1).withStaticRate(-1));
        CREATE_AH.assertRejected("grh.flow_label", () -> GlobalRoute.to(REMOTE, 1).withFlowLabel(1 << 20));
        CREATE_AH.assertRejected("grh.sgid_index", () -> GlobalRoute.to(REMOTE, 256));
        CREATE_AH.assertRejected("grh.hop_limit", () -> GlobalRoute.to(REMOTE, 1).withHopLimit(256));
        CREATE_AH.assertRejected("grh.traffic_class", () -> GlobalRoute.to(REMOTE, 1).withTrafficClass(-1));
    }

    @Test
    void gidMustHave16Bytes() {
        CREATE_AH.assertRejected("grh.dgid must be 16 bytes, got 4", () -> GlobalRoute.to(new byte[4], 1));
        CREATE_AH.assertRejected("grh.dgid must be 16 bytes, got 17", () -> GlobalRoute.to(new byte[17], 1));
        assertEquals(REMOTE, GlobalRoute.to(REMOTE.toByteArray(), 1).destinationGid());
    }

    @Test
    void nullArgumentsAreRejected() {
        assertThrows(NullPointerException.class, () -> GlobalRoute.to((Gid) null, 1));
        assertThrows(NullPointerException.class, () -> GlobalRoute.to((byte[]) null, 1));
        assertThrows(NullPointerException.class, () -> AddressHandleAttributes.roce(null, REMOTE));
    }

    @Test
    void roceFactoryTakesPortAndIndexFromTheSourceGid() {
        GidEntry source = new GidEntry(1, 1, Gid.parse("::ffff:10.0.2.16"), GidType.ROCE_V2, 2, Optional.of("eth0"));
        AddressHandleAttributes attributes = AddressHandleAttributes.roce(source, REMOTE);
        assertEquals(1, attributes.portNumber());
        assertTrue(attributes.isGlobal());
        assertEquals(1, attributes.globalRoute().sourceGidIndex());
        assertEquals(REMOTE, attributes.globalRoute().destinationGid());
        assertEquals(GlobalRoute.DEFAULT_HOP_LIMIT, attributes.globalRoute().hopLimit());
        assertFalse(AddressHandleAttributes.local(1, 7).isGlobal());
        assertNull(AddressHandleAttributes.local(1, 7).globalRoute());
    }

    @Test
    void writesEveryFieldOfIbvAhAttr() {
        AddressHandleAttributes attributes = new AddressHandleAttributes(2, 0xBEEF, 15, 127, 16,
                new GlobalRoute(REMOTE, 0xF_FFFF, 200, 255, 0xB8));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_ah_attr.LAYOUT);
            attributes.writeTo(attr);
            assertEquals(2, Byte.toUnsignedInt(ibv_ah_attr.port_num(attr)));
            assertEquals(0xBEEF, Short.toUnsignedInt(ibv_ah_attr.dlid(attr)));
            assertEquals(15, ibv_ah_attr.sl(attr));
            assertEquals(127, ibv_ah_attr.src_path_bits(attr));
            assertEquals(16, ibv_ah_attr.static_rate(attr));
            assertEquals(1, ibv_ah_attr.is_global(attr));
            MemorySegment grh = ibv_ah_attr.grh(attr);
            assertArrayEquals(REMOTE.toByteArray(), ibv_global_route.dgid(grh).asSlice(0, 16).toArray(ValueLayout.JAVA_BYTE));
            assertEquals(0xF_FFFF, ibv_global_route.flow_label(grh));
            assertEquals(200, Byte.toUnsignedInt(ibv_global_route.sgid_index(grh)));
            assertEquals(255, Byte.toUnsignedInt(ibv_global_route.hop_limit(grh)));
            assertEquals(0xB8, Byte.toUnsignedInt(ibv_global_route.traffic_class(grh)));
        }
    }

    @Test
    void localAddressLeavesTheGrhClear() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_ah_attr.LAYOUT);
            AddressHandleAttributes.local(1, 3).writeTo(attr);
            assertEquals(0, ibv_ah_attr.is_global(attr));
            assertEquals(3, ibv_ah_attr.dlid(attr));
        }
    }

    private static PortAttributes port(LinkLayer linkLayer, int flags, int gidTableLength) {
        return new PortAttributes(1, PortState.ACTIVE, Mtu.MTU_4096, Mtu.MTU_1024, gidTableLength, 0, 1L << 30, 0, 0,
                1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 5, linkLayer, flags, 0);
    }

    @Test
    void rocePortRequiresAGrh() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AddressHandle.checkAgainstPort(AddressHandleAttributes.local(1, 0), port(LinkLayer.ETHERNET, 0, 16)));
        assertTrue(e.getMessage().startsWith("ibv_create_ah: port 1 has link layer ETHERNET and needs a GRH"),
                e.getMessage());
        AddressHandle.checkAgainstPort(AddressHandleAttributes.global(1, 1, REMOTE), port(LinkLayer.ETHERNET, 0, 16));
    }

    @Test
    void infinibandPortNeedsAGrhOnlyWhenItSaysSo() {
        AddressHandle.checkAgainstPort(AddressHandleAttributes.local(1, 5), port(LinkLayer.INFINIBAND, 0, 16));
        assertThrows(IllegalArgumentException.class,
                () -> AddressHandle.checkAgainstPort(AddressHandleAttributes.local(1, 5), port(LinkLayer.INFINIBAND, 1, 16)));
    }

    @Test
    void sourceGidIndexMustBeInTheTable() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AddressHandle.checkAgainstPort(AddressHandleAttributes.global(1, 16, REMOTE), port(LinkLayer.ETHERNET, 0, 16)));
        assertTrue(e.getMessage().contains("grh.sgid_index 16 is outside port 1's GID table of 16 entries"), e.getMessage());
    }
}
