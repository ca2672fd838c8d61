package dev.panamaverbs;

import dev.panamaverbs.values.AsyncEventType;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.values.GlobalRoute;
import dev.panamaverbs.values.NodeType;
import dev.panamaverbs.values.PortState;
import dev.panamaverbs.values.QueuePairType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/**
 * The pure verbs: libibverbs' texts and rate tables (against the host's libibverbs, when it
 * loads), and the two {@code static inline} computations, checked against values the header's
 * own definitions give (compiled with gcc against rdma-core 44's verbs.h).
 */
class NamesAndRatesTest {

    @Test
    void udpSourcePortIsTheHeadersFunctionOfTheFlowLabel() {
        // ibv_flow_label_to_udp_sport() from verbs.h, compiled and run: label -> port.
        int[][] known = {
            {0x00000, 0xc000}, {0x00001, 0xc001}, {0x03fff, 0xffff}, {0x04000, 0xc001},
            {0x12345, 0xe341}, {0xabcde, 0xfcf4}, {0xfffff, 0xffc0},
        };
        for (int[] pair : known) {
            assertEquals(pair[1], GlobalRoute.udpSourcePort(pair[0]), Integer.toHexString(pair[0]));
        }
        assertEquals(0xe341, GlobalRoute.to(new byte[16], 0).withFlowLabel(0x12345).udpSourcePort());
        assertThrows(IllegalArgumentException.class, () -> GlobalRoute.udpSourcePort(0x100000));
        assertThrows(IllegalArgumentException.class, () -> GlobalRoute.udpSourcePort(-1));
    }

    @Test
    void aQpTypeIsSupportedWhenItsBitIsSet() {
        // ibv_is_qpt_supported(1 << IBV_QPT_UD, IBV_QPT_UD) == 1, (..., IBV_QPT_RC) == 0.
        int udOnly = 1 << QueuePairType.UD.value();
        assertTrue(QueuePairType.UD.isSupportedIn(udOnly));
        assertFalse(QueuePairType.RC.isSupportedIn(udOnly));
        assertFalse(QueuePairType.RC.isSupportedIn(0));
        for (QueuePairType type : QueuePairType.values()) {
            // IBV_QPT_DRIVER (0xff) has no bit: C's 1 << 0xff is undefined, the method says false.
            assertEquals(type.value() < 32, type.isSupportedIn(-1), type.toString());
        }
    }

    @Test
    void libibverbsNamesTheEnumValues() {
        assumeTrue(Verbs.isAvailable(), () -> "libibverbs unavailable: " + Verbs.unavailabilityCause().orElse(""));
        assertEquals("local length error", CompletionStatus.LOC_LEN_ERR.describe());
        assertEquals("success", CompletionStatus.SUCCESS.describe());
        assertEquals("InfiniBand channel adapter", NodeType.CA.describe());
        assertEquals("active", PortState.ACTIVE.describe());
        assertEquals("local catastrophic error", AsyncEventType.DEVICE_FATAL.describe());
        for (CompletionStatus status : CompletionStatus.values()) {
            assertFalse(status.describe().isEmpty(), status.toString());
        }
    }

    @Test
    void libibverbsConvertsStaticRates() {
        assumeTrue(Verbs.isAvailable(), () -> "libibverbs unavailable: " + Verbs.unavailabilityCause().orElse(""));
        // IBV_RATE_10_GBPS = 3, IBV_RATE_25_GBPS = 15 (25.78125 Gb/s on the wire).
        assertEquals(4, new StaticRate(3).multiple());
        assertEquals(new StaticRate(3), StaticRate.ofMultiple(4));
        assertEquals(25781, new StaticRate(15).mbps());
        assertEquals(new StaticRate(15), StaticRate.ofMbps(25781));
        assertEquals(-1, new StaticRate(11).multiple(), "14 Gb/s is no multiple of 2.5");
        assertEquals(-1, StaticRate.PORT_RATE.mbps());
        assertEquals(StaticRate.PORT_RATE, StaticRate.ofMultiple(7), "no rate is 17.5 Gb/s");
        assertThrows(IllegalArgumentException.class, () -> new StaticRate(256));
        assertEquals(3, AddressHandleAttributes.local(1, 1).withStaticRate(new StaticRate(3)).staticRate());
    }
}
