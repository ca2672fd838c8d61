package dev.panamaverbs.internal;

import dev.panamaverbs.values.GidType;
import dev.panamaverbs.values.LinkLayer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SysfsGidAttributesTest {
    @Test
    void kernelTypeNamesMapByLinkLayer() {
        assertEquals(GidType.ROCE_V2, SysfsGidAttributes.parseType("RoCE v2\n", LinkLayer.ETHERNET));
        assertEquals(GidType.ROCE_V1, SysfsGidAttributes.parseType("IB/RoCE v1\n", LinkLayer.ETHERNET));
        assertEquals(GidType.IB, SysfsGidAttributes.parseType("IB/RoCE v1", LinkLayer.INFINIBAND));
        assertEquals(GidType.IB, SysfsGidAttributes.parseType("IB/RoCE v1", LinkLayer.UNSPECIFIED));
    }

    @Test
    void unknownTypeIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> SysfsGidAttributes.parseType("RoCE v3", LinkLayer.ETHERNET));
    }

    @Test
    void missingDeviceReadsAsEmpty() {
        assertTrue(SysfsGidAttributes.type("no-such-device-42", 1, 0, LinkLayer.ETHERNET).isEmpty());
        assertTrue(SysfsGidAttributes.netdev("no-such-device-42", 1, 0).isEmpty());
    }
}
