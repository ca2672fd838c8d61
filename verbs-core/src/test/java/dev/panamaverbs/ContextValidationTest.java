package dev.panamaverbs;

import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.GidType;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ContextValidationTest {
    @Test
    void portNumbersStartAtOne() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> Context.checkPortRange("ibv_query_port", 0, 1));
        assertEquals("ibv_query_port: port must be at least 1 (ports are numbered from 1), got 0", zero.getMessage());
        IllegalArgumentException tooHigh = assertThrows(IllegalArgumentException.class,
                () -> Context.checkPortRange("ibv_query_gid_table", 3, 2));
        assertEquals("ibv_query_gid_table: port must be in 1..2, got 3", tooHigh.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Context.checkPortRange("ibv_query_pkey", -1, -1));
        assertDoesNotThrow(() -> Context.checkPortRange("ibv_query_port", 7, -1));
        assertDoesNotThrow(() -> Context.checkPortRange("ibv_query_port", 2, 2));
    }

    @Test
    void gidEntryRejectsMissingParts() {
        Gid gid = Gid.parse("::ffff:10.0.2.15");
        assertThrows(NullPointerException.class, () -> new GidEntry(1, 1, null, GidType.ROCE_V2, 2, java.util.Optional.empty()));
        assertThrows(NullPointerException.class, () -> new GidEntry(1, 1, gid, null, 2, java.util.Optional.empty()));
        GidEntry entry = new GidEntry(1, 1, gid, GidType.ROCE_V2, 2, java.util.Optional.of("eth0"));
        assertEquals(true, entry.isRoceV2Ipv4());
        assertEquals("GidEntry[port=1, index=1, gid=::ffff:10.0.2.15, type=ROCE_V2, netdev=eth0]", entry.toString());
        assertEquals(false, new GidEntry(1, 0, Gid.parse("fe80::1"), GidType.ROCE_V2, 2, java.util.Optional.empty()).isRoceV2Ipv4());
        assertEquals(false, new GidEntry(1, 0, gid, GidType.ROCE_V1, 2, java.util.Optional.empty()).isRoceV2Ipv4());
    }
}
