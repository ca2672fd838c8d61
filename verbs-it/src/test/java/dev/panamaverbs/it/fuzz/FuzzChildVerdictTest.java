package dev.panamaverbs.it.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** How the misuse fuzz judges a child's run (no device needed): each way to fail does fail. */
class FuzzChildVerdictTest {
    private static final String PASSED = String.join("\n",
            FuzzReport.seedLine(7),
            FuzzReport.caseLine("useAfterClose/QueuePair.query()", FuzzReport.REFUSED, "IllegalStateException"),
            FuzzReport.caseLine("useAfterClose/QueuePair.number()", FuzzReport.CLEAN, ""),
            FuzzReport.leaksLine("none"),
            FuzzReport.doneLine(2)) + "\n";

    private static String verdict(OptionalInt exit, String crash, String output) {
        return FuzzChild.failure("useAfterClose", exit, crash, FuzzReport.parse(output));
    }

    @Test
    void aCleanRunPassesWithItsCounts() {
        assertNull(verdict(OptionalInt.of(0), null, PASSED));
        FuzzReport report = FuzzReport.parse(PASSED);
        assertEquals(2, report.cases());
        assertEquals(Map.of("refused", 1L, "clean", 1L), report.outcomes());
    }

    @Test
    void aSkippedPartIsReportedWithItsReasonAndFailsNothing() {
        String skipped = PASSED.replace(FuzzReport.leaksLine("none"),
                FuzzReport.skipLine("capability CONNECT_WITHOUT_CM: siw0 reports transport IWARP") + "\n"
                        + FuzzReport.leaksLine("none"));
        assertNull(verdict(OptionalInt.of(0), null, skipped));
        assertEquals(List.of("capability CONNECT_WITHOUT_CM: siw0 reports transport IWARP"), FuzzReport.parse(skipped).skips());
        assertEquals(List.of(), FuzzReport.parse(PASSED).skips());
    }

    @Test
    void crashesFail() {
        assertTrue(verdict(OptionalInt.of(134), null, PASSED).startsWith("JVM crash"));
        assertTrue(verdict(OptionalInt.of(139), null, PASSED).startsWith("JVM crash"));
        String withReport = verdict(OptionalInt.of(0), "---- hs_err_pid42.log\n# SIGBUS (0x7)\n", PASSED);
        assertTrue(withReport.startsWith("JVM crash") && withReport.contains("SIGBUS"), withReport);
    }

    @Test
    void hangsFail() {
        assertTrue(verdict(OptionalInt.empty(), null, "").startsWith("hang"));
        String watchdog = verdict(OptionalInt.of(FuzzRun.HANG_STATUS), null,
                FuzzReport.seedLine(7) + "\n" + FuzzReport.hangLine("closeRace/round 3") + "\n");
        assertTrue(watchdog.startsWith("hang") && watchdog.contains("closeRace/round_3"), watchdog);
    }

    @Test
    void unexpectedOutcomesLeaksAndUnfinishedReportsFail() {
        String unexpected = PASSED.replace(FuzzReport.doneLine(2), FuzzReport.caseLine("absurdSizes/x",
                FuzzReport.UNEXPECTED, "java.lang.NullPointerException") + "\n" + FuzzReport.doneLine(3));
        assertTrue(verdict(OptionalInt.of(0), null, unexpected).contains("1 unexpected outcome(s)"));
        assertEquals(List.of("FUZZ case absurdSizes/x UNEXPECTED java.lang.NullPointerException"),
                FuzzReport.parse(unexpected).unexpected());
        String leak = PASSED.replace(FuzzReport.leaksLine("none"), FuzzReport.leaksLine("{qp=0} -> {qp=1}"));
        assertTrue(verdict(OptionalInt.of(0), null, leak).contains("leaks: {qp=0} -> {qp=1}"));
        String cut = PASSED.replace(FuzzReport.doneLine(2) + "\n", "");
        assertTrue(verdict(OptionalInt.of(0), null, cut).contains("cases 2 of -1 done"));
        assertTrue(verdict(OptionalInt.of(1), null, PASSED).contains("exited 1"));
    }
}
