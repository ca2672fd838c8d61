package dev.panamaverbs.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.panamaverbs.it.support.InteropPairingTests.Pairing;
import dev.panamaverbs.perftest.interop.PerftestAllSizesPlan.Case;
import java.util.List;
import org.junit.jupiter.api.Test;

class PerftestAllSizesPlanTest {
    @Test
    void byDefaultEveryTestRunsInBothPairingsWithC() {
        List<Case> cases = PerftestAllSizesPlan.cases(null, "");
        assertEquals(12, cases.size());
        assertEquals(new Case("send_bw", Pairing.JAVA_SERVER_C_CLIENT), cases.get(0));
        assertEquals(new Case("send_bw", Pairing.C_SERVER_JAVA_CLIENT), cases.get(1));
        assertEquals(new Case("read_lat", Pairing.C_SERVER_JAVA_CLIENT), cases.get(11));
        assertEquals(PerftestAllSizesPlan.TESTS, cases.stream().map(Case::test).distinct().toList());
        assertEquals(List.of(), cases.stream().filter(c -> c.pairing() == Pairing.JAVA_SERVER_JAVA_CLIENT).toList());
    }

    @Test
    void namedTestsAndPairingsOnly() {
        assertEquals(List.of(new Case("write_lat", Pairing.JAVA_SERVER_JAVA_CLIENT), new Case("read_bw", Pairing.JAVA_SERVER_JAVA_CLIENT)),
                PerftestAllSizesPlan.cases("write_lat, read_bw", "JAVA_SERVER_JAVA_CLIENT"));
    }

    @Test
    void unknownNamesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> PerftestAllSizesPlan.cases("atomic_bw", null));
        assertThrows(IllegalArgumentException.class, () -> PerftestAllSizesPlan.cases(null, "C_SERVER_C_CLIENT"));
    }

    @Test
    void pairingsWithCLeaveOutJavaWithJava() {
        assertEquals(List.of(Pairing.JAVA_SERVER_C_CLIENT, Pairing.C_SERVER_JAVA_CLIENT), Pairing.withC());
        assertEquals("C server, Java client", Pairing.C_SERVER_JAVA_CLIENT.label());
    }
}
