package dev.panamaverbs.values;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_device_attr;
import dev.panamaverbs.ffm.ibv_device_attr_ex;
import dev.panamaverbs.ffm.ibv_odp_caps;
import dev.panamaverbs.ffm.ibv_pci_atomic_caps;
import dev.panamaverbs.ffm.ibv_tso_caps;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Decoding of {@code ibv_device_attr(_ex)} from memory filled as a provider would. */
class DeviceAttributesTest {
    /** The structs each test fills, freed after it. */
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void freeTheStructs() {
        arena.close();
    }

    @Test
    void decodesEveryBasicField() {
        MemorySegment attr = arena.allocate(ibv_device_attr.LAYOUT);
        MemorySegment fw = ibv_device_attr.fw_ver(attr);
        fw.setString(0, "1.2.3");
        // node_guid is __be64: bytes 00 02 c9 03 00 12 ab cd in memory.
        attr.asSlice(ibv_device_attr.node_guid$OFFSET, 8).copyFrom(MemorySegment.ofArray(
                new byte[] {0x00, 0x02, (byte) 0xc9, 0x03, 0x00, 0x12, (byte) 0xab, (byte) 0xcd}));
        ibv_device_attr.max_mr_size(attr, -1L);
        ibv_device_attr.vendor_id(attr, 0xffff_fffe);
        ibv_device_attr.max_qp(attr, 1000);
        ibv_device_attr.max_qp_wr(attr, 1 << 20);
        ibv_device_attr.device_cap_flags(attr, VerbsConstants.IBV_DEVICE_MEM_WINDOW | VerbsConstants.IBV_DEVICE_RC_RNR_NAK_GEN);
        ibv_device_attr.max_sge(attr, 32);
        ibv_device_attr.max_cqe(attr, 4_194_303);
        ibv_device_attr.atomic_cap(attr, VerbsConstants.IBV_ATOMIC_HCA);
        ibv_device_attr.max_srq_sge(attr, 27);
        ibv_device_attr.max_pkeys(attr, (short) 0xffff);
        ibv_device_attr.local_ca_ack_delay(attr, (byte) 15);
        ibv_device_attr.phys_port_cnt(attr, (byte) 200);

        DeviceAttributes decoded = DeviceAttributes.read(attr, null);

        assertEquals("1.2.3", decoded.firmwareVersion());
        assertEquals(0x0002c9030012abcdL, decoded.nodeGuid());
        assertEquals("0002:c903:0012:abcd", decoded.nodeGuidString());
        assertEquals(-1L, decoded.maxMrSize());
        assertEquals(0xffff_fffeL, decoded.vendorId());
        assertEquals(1000, decoded.maxQp());
        assertEquals(1 << 20, decoded.maxQpWr());
        assertEquals(Set.of(DeviceCapability.MEM_WINDOW, DeviceCapability.RC_RNR_NAK_GEN), decoded.capabilities());
        assertTrue(decoded.has(DeviceCapability.MEM_WINDOW));
        assertFalse(decoded.has(DeviceCapability.XRC));
        assertEquals(32, decoded.maxSge());
        assertEquals(4_194_303, decoded.maxCqe());
        assertEquals(AtomicCapability.HCA, decoded.atomicCapability());
        assertEquals(27, decoded.maxSrqSge());
        assertEquals(0xffff, decoded.maxPkeys());
        assertEquals(15, decoded.localCaAckDelay());
        assertEquals(200, decoded.physicalPortCount());
        assertEquals(200, decoded.portCount());
        assertTrue(decoded.extended().isEmpty());
    }

    @Test
    void decodesTheExtendedPart() {
        MemorySegment attr = arena.allocate(ibv_device_attr_ex.LAYOUT);
        MemorySegment basic = ibv_device_attr_ex.orig_attr(attr);
        ibv_device_attr.phys_port_cnt(basic, (byte) 255);
        ibv_device_attr.device_cap_flags(basic, VerbsConstants.IBV_DEVICE_XRC);
        ibv_device_attr_ex.device_cap_flags_ex(attr, (1L << 34) | VerbsConstants.IBV_DEVICE_XRC);
        ibv_device_attr_ex.completion_timestamp_mask(attr, 0xffff_ffff_ffffL);
        ibv_device_attr_ex.hca_core_clock(attr, 156_250);
        ibv_device_attr_ex.max_dm_size(attr, 131_072);
        ibv_device_attr_ex.phys_port_cnt_ex(attr, 300);
        MemorySegment odp = ibv_device_attr_ex.odp_caps(attr);
        ibv_odp_caps.general_caps(odp, VerbsConstants.IBV_ODP_SUPPORT | VerbsConstants.IBV_ODP_SUPPORT_IMPLICIT);
        ibv_odp_caps.per_transport_caps.rc_odp_caps(ibv_odp_caps.per_transport_caps(odp),
                VerbsConstants.IBV_ODP_SUPPORT_SEND | VerbsConstants.IBV_ODP_SUPPORT_RECV);
        ibv_tso_caps.max_tso(ibv_device_attr_ex.tso_caps(attr), 0x8000_0000);
        ibv_pci_atomic_caps.compare_swap(ibv_device_attr_ex.pci_atomic_caps(attr), (short) 0xffff);

        ExtendedDeviceAttributes extended = ExtendedDeviceAttributes.read(attr);
        DeviceAttributes decoded = DeviceAttributes.read(basic, extended);

        ExtendedDeviceAttributes ex = decoded.extended().orElseThrow();
        assertEquals(0xffff_ffff_ffffL, ex.completionTimestampMask());
        assertEquals(156_250, ex.hcaCoreClockKhz());
        assertEquals(131_072, ex.maxDeviceMemorySize());
        assertTrue(ex.onDemandPaging().supported());
        assertTrue(ex.onDemandPaging().implicitSupported());
        assertEquals(3, ex.onDemandPaging().rcCaps());
        assertEquals(0x8000_0000L, ex.tcpSegmentationOffload().maxTso());
        assertEquals(0xffff, ex.pciAtomic().compareSwap());
        assertTrue(decoded.has(DeviceCapability.RAW_SCATTER_FCS));
        assertTrue(decoded.has(DeviceCapability.XRC));
        assertEquals(300, decoded.portCount());
    }

    @Test
    void theExtendedPartCountsOnlyWhenTheExtendedQueryRan() {
        MemorySegment attr = arena.allocate(ibv_device_attr_ex.LAYOUT);
        MemorySegment basic = ibv_device_attr_ex.orig_attr(attr);
        ibv_device_attr.phys_port_cnt(basic, (byte) 2);
        ibv_device_attr.max_qp(basic, 1000);

        // The legacy query stood in: the rest of ibv_device_attr_ex is zeros, not values.
        DeviceAttributes legacy = DeviceAttributes.readEx(attr, false);
        assertEquals(1000, legacy.maxQp());
        assertTrue(legacy.extended().isEmpty(), "no extended part from a legacy query");

        ibv_device_attr_ex.device_cap_flags_ex(attr, 1L << 34);
        ibv_device_attr_ex.max_dm_size(attr, 131_072);
        ibv_device_attr_ex.phys_port_cnt_ex(attr, 300);
        DeviceAttributes notRan = DeviceAttributes.readEx(attr, false);
        assertTrue(notRan.extended().isEmpty(), "memory past orig_attr is not read unless the query ran");
        assertFalse(notRan.has(DeviceCapability.RAW_SCATTER_FCS));
        assertEquals(2, notRan.portCount());

        DeviceAttributes ran = DeviceAttributes.readEx(attr, true);
        assertEquals(1000, ran.maxQp());
        assertEquals(131_072, ran.extended().orElseThrow().maxDeviceMemorySize());
        assertTrue(ran.has(DeviceCapability.RAW_SCATTER_FCS));
        assertEquals(300, ran.portCount());
    }

    @Test
    void unknownAtomicCapabilityReadsAsNone() {
        MemorySegment attr = arena.allocate(ibv_device_attr.LAYOUT);
        attr.set(ValueLayout.JAVA_INT, ibv_device_attr.atomic_cap$OFFSET, 77);
        assertEquals(AtomicCapability.NONE, DeviceAttributes.read(attr, null).atomicCapability());
    }
}
