package dev.panamaverbs.values;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class PortCountersTest {
    private static PortCounters snapshot(Map<String, Long> counters, Map<String, Long> hw) {
        return new PortCounters("rxe0", 1, Instant.EPOCH, counters, hw, OptionalLong.empty());
    }

    @Test
    void getLooksInHardwareCountersThenPortCounters() {
        PortCounters taken = snapshot(Map.of("port_xmit_packets", 5L, "both", 1L), Map.of("sent_pkts", 7L, "both", 2L));
        assertEquals(OptionalLong.of(7), taken.get("sent_pkts"));
        assertEquals(OptionalLong.of(5), taken.get("port_xmit_packets"));
        assertEquals(OptionalLong.of(2), taken.get("both"));
        assertTrue(taken.get("nothing").isEmpty());
    }

    @Test
    void changesSinceListsOnlyWhatMovedWithItsIncrease() {
        PortCounters before = snapshot(Map.of(), Map.of("sent_pkts", 10L, "rcvd_rnr_err", 0L, "rcvd_seq_err", 3L));
        PortCounters after = snapshot(Map.of(), Map.of("sent_pkts", 14L, "rcvd_rnr_err", 1L, "rcvd_seq_err", 3L,
                "new_counter", 2L));
        assertEquals(Map.of("sent_pkts", 4L, "rcvd_rnr_err", 1L, "new_counter", 2L), after.changesSince(before));
        assertEquals(List.of("new_counter", "rcvd_rnr_err", "sent_pkts"), List.copyOf(after.changesSince(before).keySet()));
    }

    @Test
    void aWrappedCounterStillReadsAsItsIncrease() {
        PortCounters before = snapshot(Map.of(), Map.of("sent_pkts", -2L)); // 2^64 - 2
        PortCounters after = snapshot(Map.of(), Map.of("sent_pkts", 3L));
        assertEquals(Map.of("sent_pkts", 5L), after.changesSince(before));
    }

    @Test
    void anotherPortCannotBeCompared() {
        PortCounters one = snapshot(Map.of(), Map.of());
        PortCounters two = new PortCounters("rxe0", 2, Instant.EPOCH, Map.of(), Map.of(), OptionalLong.empty());
        assertThrows(IllegalArgumentException.class, () -> one.changesSince(two));
    }

    @Test
    void mapsAreCopiedSortedAndUnmodifiable() {
        Map<String, Long> hw = new HashMap<>(Map.of("b", 1L, "a", 2L));
        PortCounters taken = snapshot(Map.of(), hw);
        hw.put("c", 3L);
        assertEquals(List.of("a", "b"), List.copyOf(taken.hardwareCounters().keySet()));
        assertThrows(UnsupportedOperationException.class, () -> taken.hardwareCounters().put("d", 4L));
        assertThrows(IllegalArgumentException.class,
                () -> new PortCounters("rxe0", 0, Instant.EPOCH, Map.of(), Map.of(), OptionalLong.empty()));
        assertThrows(NullPointerException.class,
                () -> new PortCounters("rxe0", 1, Instant.EPOCH, null, Map.of(), OptionalLong.empty()));
    }
}
