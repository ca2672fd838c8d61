package dev.panamaverbs.perftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * perftest's report options ({@code -C -H -U -w -y}), {@code -h}, {@code -V} and {@code -L}: what
 * the parser takes and refuses, with the texts and exit statuses of Debian's perftest 4.5 (its
 * tools on the host, which refuse these before opening a device).
 */
class PerftestReportOptionsTest {
    @Test
    void latencyReportOptionsOnTheLatencyTests() {
        ReportOptions none = PerftestOptions.parse("write_lat").report();
        assertEquals(ReportOptions.DEFAULT, none);
        ReportOptions all = PerftestOptions.parse("send_lat", "-C", "-H", "-U").report();
        assertTrue(all.cycles() && all.histogram() && all.unsorted(), all.toString());
        ReportOptions unsorted = PerftestOptions.parse("read_lat", "--report-unsorted").report();
        assertTrue(unsorted.unsorted(), "long name");
        assertFalse(unsorted.histogram(), "perftest's -U prints the unsorted list only, whatever its usage says");
        assertEquals("Available only on Latency tests", refusal("write_bw", "-C"));
        assertEquals("Available only on Latency tests", refusal("send_bw", "-H"));
        assertEquals("is Available only on Latency tests", refusal("atomic_bw", "-U"));
    }

    @Test
    void outputAsPerftestReadsIt() {
        assertEquals(ReportOptions.Output.BANDWIDTH, PerftestOptions.parse("write_bw", "--output=bandwidth").report().output());
        assertEquals(ReportOptions.Output.MESSAGE_RATE, PerftestOptions.parse("send_bw", "--output", "message_rate").report().output());
        assertEquals(ReportOptions.Output.LATENCY, PerftestOptions.parse("read_lat", "--output=latency").report().output());
        assertEquals(ReportOptions.Output.FULL, PerftestOptions.parse("read_lat").report().output());
        assertEquals("Invalid verbosity level output flag. Please use bandwidth, latency, message_rate",
                refusal("write_lat", "--output=foo"));
        assertEquals("Output verbosity level for BW can be: bandwidth, message_rate", refusal("write_bw", "--output=latency"));
        assertEquals("Output verbosity level for LAT can be: latency", refusal("write_lat", "--output=message_rate"));
    }

    @Test
    void verifierLimitsAsPerftestReadsThem() {
        ReportOptions limits = PerftestOptions.parse("write_bw", "-w", "12.5", "-y", "0.25").report();
        assertEquals(12.5, limits.limitBw());
        assertEquals(0.25, limits.limitMsgRate());
        assertEquals(ReportOptions.NO_LIMIT, PerftestOptions.parse("write_bw").report().limitBw());
        assertEquals(0, PerftestOptions.parse("write_bw", "-w", "abc").report().limitBw(), "strtof: no number is 0");
        assertEquals(3, PerftestOptions.parse("write_bw", "-w", "3MB").report().limitBw(), "strtof: the leading number");
        assertEquals("Invalid Minimum BW Limit", refusal("write_bw", "-w", "-1"));
        assertEquals("Invalid Minimum msgRate Limit", refusal("write_bw", "-y", "-0.5"));
        ReportOptions onLatency = PerftestOptions.parse("write_lat", "-w", "3", "-y", "1").report();
        assertEquals(3, onLatency.limitBw(), "taken on a latency test, as perftest");
        assertNull(onLatency.limits(TestKind.WRITE_LAT).failure(), "and never checked there (no row was checked)");
        assertEquals("Error: BW result is below bw limit", limits.limits(TestKind.WRITE_BW).failure(),
                "a bandwidth test with no row reaching -w fails");
    }

    @Test
    void hopLimitRefusedAsPerftestRefusesIt() {
        assertEquals("Hop Limit should be between 0 and 255", refusal("write_lat", "-L", "300"));
        assertEquals("Hop limit only valid for RawEth QP", refusal("write_lat", "-L", "64"));
        assertEquals("Hop limit only valid for RawEth QP", refusal("send_bw", "--hop_limit=1", "-c", "UD"));
    }

    @Test
    void helpPrintsTheTestsUsageAndExitsWithOne() {
        String[] lat = run(1, "send_lat", "-h");
        assertEquals("", lat[1]);
        assertTrue(lat[0].startsWith("Usage:\n  ib_send_lat            start a server and wait for connection\n"
                + "  ib_send_lat <host>     connect to server at <host>\n\nOptions:\n"), lat[0]);
        assertTrue(lat[0].contains("\n  -C, --report-cycles  report times in cpu cycle units (default microseconds)\n"), lat[0]);
        assertTrue(lat[0].contains("\n  -s, --size=<size>  Size of message to exchange (default 2)\n"), lat[0]);
        assertFalse(lat[0].contains("-w, --limit_bw"), "a bandwidth option");
        String bw = run(1, "write_bw", "--help")[0];
        assertTrue(bw.contains("\n  -n, --iters=<iters>  Number of exchanges (at least 5, default 5000)\n"), bw);
        assertTrue(bw.contains("\n  -w, --limit_bw=<value>  Set verifier limit for bandwidth\n"), bw);
        assertFalse(bw.contains("-e, --events"), "perftest shows -e only where it takes it (not WRITE)");
        assertFalse(bw.contains("-C, --report-cycles"), "a latency option");
        assertFalse(run(1, "atomic_lat", "-h")[0].contains("-s, --size"), "the atomic tests take no -s");
        assertEquals("Version: 6.06\n", run(1, "atomic_bw", "-V")[0]);
        assertEquals("Version: 6.06\n", run(1, "write_lat", "--version")[0]);
        String[] bad = run(1, "write_bw", "-s", "0", "-h");
        assertTrue(bad[1].contains("size should be between"), "options before -h are checked first, as perftest: " + bad[1]);
    }

    @Test
    void helpNamesEveryImplementedOptionAndNoRefusedOne() {
        StringBuilder every = new StringBuilder();
        for (TestKind test : TestKind.values()) {
            every.append(PerftestUsage.of(test));
        }
        for (String name : PerftestOptionParser.implementedOptions().keySet()) {
            assertTrue(every.toString().contains("--" + name), name);
        }
        for (String name : PerftestOptionParser.refusedOptions()) {
            assertFalse(every.toString().contains("--" + name + " ") || every.toString().contains("--" + name + "="), name);
        }
    }

    /** Runs the twin's main with {@code args}: its stdout and stderr, after checking the exit status. */
    private static String[] run(int status, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(status, Perftest.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        return new String[] {out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    private static String refusal(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> PerftestOptions.parse(args)).getMessage();
    }
}
