package dev.panamaverbs.perftest.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.perftest.sweep.PerftestSweepPlan.Pairing;
import dev.panamaverbs.perftest.sweep.PerftestSweepPlan.Step;
import dev.panamaverbs.perftest.sweep.PerftestSweepResults.Metric;
import dev.panamaverbs.perftest.sweep.PerftestSweepResults.Target;
import dev.panamaverbs.perftest.sweep.PerftestSweepResults.Verdict;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The perftest sweep's plan, row parsing, medians, ratios and verdicts, without a device. */
class PerftestSweepResultsTest {
    private static final String LATENCY_OUTPUT = """
            ---------------------------------------------------------------------------------------
             #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]\s
             2       1000          700.12         2100.50      810.00             830.40         50.10          1200.00                2000.00\s
             64      1000          710.00         2000.00      820.50             840.00         51.00          1210.00                1990.00
             1024    1000          inf            -nan         900.00             910.00         10.00          990.00                 999.00
            ---------------------------------------------------------------------------------------
            """;
    private static final String BANDWIDTH_OUTPUT = """
             #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]
             65536      200              6.10               5.75                 0.000088
            """;

    @Test
    void rowsOfBothTablesWithInfAndNanAsNaN() {
        List<PerftestRows.Row> latency = PerftestRows.parse(LATENCY_OUTPUT, PerftestRows.figures("send_lat"));
        assertEquals(List.of(2, 64, 1024), latency.stream().map(PerftestRows.Row::size).toList());
        assertEquals(1000, latency.get(1).iterations());
        assertEquals(820.5, latency.get(1).figures().get(PerftestRows.LATENCY_TYPICAL));
        assertTrue(latency.get(2).figures().get(0).isNaN());
        assertTrue(latency.get(2).figures().get(1).isNaN());
        assertTrue(PerftestRows.parse(LATENCY_OUTPUT, PerftestRows.figures("write_bw")).isEmpty(), "a latency row is no bandwidth row");
        List<PerftestRows.Row> bandwidth = PerftestRows.parse(BANDWIDTH_OUTPUT, PerftestRows.figures("write_bw"));
        assertEquals(1, bandwidth.size());
        assertEquals(5.75, bandwidth.getFirst().figures().get(PerftestRows.BANDWIDTH_AVERAGE));
        assertEquals(0.000088, bandwidth.getFirst().figures().get(PerftestRows.MESSAGE_RATE));
    }

    @Test
    void planRunsEveryPairingOfEveryTestEachRoundOnPortsOfItsOwn() {
        PerftestSweepPlan plan = new PerftestSweepPlan(List.of("write_lat", "send_bw"), 3);
        List<Step> steps = plan.steps();
        assertEquals(3 * 2 * 4, steps.size());
        assertEquals(Pairing.C_C, steps.get(0).pairing());
        assertEquals(Pairing.C_CLIENT_JAVA_SERVER, steps.get(8).pairing(), "the second round runs the pairings in reverse");
        Set<Integer> ports = new HashSet<>();
        for (Step step : steps) {
            for (int i = 0; i < step.sizes().size(); i++) {
                assertTrue(ports.add(step.port() + i), "port " + (step.port() + i) + " used twice");
            }
        }
        assertEquals("32:10000,2:1000,64:1000,1024:1000,4096:500", steps.get(0).sizesOption());
        for (Step step : steps) {
            assertEquals(PerftestSweepPlan.WARM_UP, step.sizes().getFirst(), "every step warms up first");
            assertTrue(step.sizes().size() <= PerftestSweepPlan.PORTS_PER_STEP);
            assertEquals(1, step.sizes().stream().filter(PerftestSweepPlan.Size::warmUp).count());
        }
        assertThrows(IllegalArgumentException.class, () -> new PerftestSweepPlan(List.of("read_bw"), 1));
        assertThrows(IllegalArgumentException.class, () -> new PerftestSweepPlan(List.of("write_lat"), 0));
    }

    @Test
    void oneSidedTestsRunOnlyWhenNamedAndAtomicWarmsUpAtItsOneSize() {
        assertFalse(PerftestSweepPlan.TESTS.contains("read_lat"), "not in the default sweep");
        List<Step> steps = new PerftestSweepPlan(List.of("read_lat", "atomic_lat"), 2).steps();
        assertEquals(2 * 2 * 4, steps.size());
        assertEquals("32:10000,2:1000,64:1000,1024:1000,4096:1000", steps.get(0).sizesOption());
        Step atomic = steps.get(4);
        assertEquals("atomic_lat", atomic.test());
        assertEquals("8:10000,8:1000", atomic.sizesOption());
        assertEquals(PerftestSweepPlan.ATOMIC_WARM_UP, atomic.sizes().getFirst());
        // The warm-up's row has the measured size: it is told apart by its position.
        PerftestRows.Row warmUp = latencyRow(8, 900);
        PerftestRows.Row measured = latencyRow(8, 400);
        assertEquals(List.of(measured), atomic.measured(List.of(warmUp, measured)));
        assertEquals(List.of(), atomic.measured(List.of(warmUp)), "a client that failed after its warm-up measured nothing");
        Step read = steps.get(0);
        assertEquals(List.of(latencyRow(2, 300), latencyRow(64, 310)),
                read.measured(List.of(latencyRow(32, 500), latencyRow(2, 300), latencyRow(64, 310))));
        assertEquals(List.of(latencyRow(2, 300)), read.measured(List.of(latencyRow(32, 500), latencyRow(2, 300), latencyRow(1024, 9))),
                "a row out of its place is no sample");
    }

    @Test
    void oneSidedTargetsAreTheJavaClientWithinHalfAgainOfC() {
        PerftestSweepResults results = new PerftestSweepResults();
        double[] c = {300, 320, 310};
        double[] javaClient = {420, 500, 470};   // 1.40, 1.5625, 1.516: two rounds over 1.5x, one under
        for (int round = 0; round < 3; round++) {
            results.add("atomic_lat", Pairing.C_C, round, List.of(latencyRow(8, c[round])));
            results.add("atomic_lat", Pairing.JAVA_CLIENT_C_SERVER, round, List.of(latencyRow(8, javaClient[round])));
        }
        Target atomic = PerftestSweepResults.TARGETS.stream().filter(t -> t.test().equals("atomic_lat")).findFirst().orElseThrow();
        assertEquals(new Target("atomic_lat", 8, Metric.LATENCY, Pairing.JAVA_CLIENT_C_SERVER, 1.5), atomic);
        assertEquals(Verdict.INCONCLUSIVE, results.verdict(atomic));
        assertEquals(4, PerftestSweepResults.TARGETS.stream().filter(t -> t.test().equals("read_lat")).count(), "every read size");
        String markdown = results.markdown();
        assertTrue(markdown.contains("| atomic_lat 8 B, t_typical[usec]: Java client / C server within +50% of C/C | 1.516"
                + " | 1.400, 1.563, 1.516 | inconclusive: the rounds disagree |"), markdown);
        assertFalse(markdown.contains("| read_lat"), "targets of tests not run are left out");
    }

    @Test
    void mediansOfOddAndEvenCounts() {
        assertEquals(2.0, PerftestSweepResults.median(new double[] {3, 1, 2}).getAsDouble());
        assertEquals(2.5, PerftestSweepResults.median(new double[] {4, 1, 3, 2}).getAsDouble());
        assertTrue(PerftestSweepResults.median(new double[0]).isEmpty());
    }

    @Test
    void ratiosToCAndVerdicts() {
        PerftestSweepResults results = new PerftestSweepResults();
        double[] c = {800, 820, 900};
        double[] java = {830, 850, 10_000};   // one outlier round: the median ignores it
        double[] javaClient = {850, 845, 840};
        for (int round = 0; round < 3; round++) {
            results.add("write_lat", Pairing.C_C, round, List.of(latencyRow(64, c[round])));
            results.add("write_lat", Pairing.JAVA_JAVA, round, List.of(latencyRow(64, java[round])));
            results.add("write_lat", Pairing.JAVA_CLIENT_C_SERVER, round, List.of(latencyRow(64, javaClient[round])));
        }
        assertEquals(850, results.median("write_lat", 64, Metric.LATENCY, Pairing.JAVA_JAVA).getAsDouble());
        assertEquals(850.0 / 820, results.ratio("write_lat", 64, Metric.LATENCY, Pairing.JAVA_JAVA).getAsDouble(), 1e-12);
        assertTrue(results.ratio("write_lat", 64, Metric.LATENCY, Pairing.C_CLIENT_JAVA_SERVER).isEmpty(), "not measured");
        // Java/Java per round: 830/800, 850/820 within 5%, 10000/900 not: the rounds disagree.
        Target javaJava = new Target("write_lat", 64, Metric.LATENCY, Pairing.JAVA_JAVA, 1.05);
        assertEquals(3, results.roundRatios(javaJava).length);
        assertEquals(Verdict.INCONCLUSIVE, results.verdict(javaJava));
        assertEquals(Verdict.MET, results.verdict(new Target("write_lat", 64, Metric.LATENCY, Pairing.JAVA_JAVA, 12)));
        // Java client per round: 850/800, 845/820, 840/900 = 1.0625, 1.0305, 0.933: inconclusive at +3% ...
        assertEquals(Verdict.INCONCLUSIVE,
                results.verdict(new Target("write_lat", 64, Metric.LATENCY, Pairing.JAVA_CLIENT_C_SERVER, 1.03)));
        // ... and missed at -10%, where no round meets it.
        assertEquals(Verdict.MISSED,
                results.verdict(new Target("write_lat", 64, Metric.LATENCY, Pairing.JAVA_CLIENT_C_SERVER, 0.90)));
        assertEquals(Verdict.NOT_MEASURED, results.verdict(new Target("send_lat", 64, Metric.LATENCY, Pairing.JAVA_JAVA, 1.05)));
        assertEquals((10_000 - 830) / 850.0, results.spread("write_lat", 64, Metric.LATENCY).getAsDouble(), 1e-12);
        String markdown = results.markdown();
        assertTrue(markdown.contains("| 64 B | t_typical[usec] | 820.00 | 850.00 | 845.00 | n/a | 1.037 | 1.030 | n/a | 1079% |"),
                markdown);
        assertTrue(markdown.contains("| write_lat 64 B, t_typical[usec]: Java client / C server within +3% of C/C | 1.030"
                + " | 1.063, 1.030, 0.933 | inconclusive: the rounds disagree |"), markdown);
        assertFalse(markdown.contains("send_bw"), "targets of tests not run are left out");
        assertTrue(results.mediansCsv().contains("write_lat,64,LATENCY,820.0,850.0,845.0,\n"), results.mediansCsv());
        PerftestSweepResults reread = PerftestSweepResults.fromSamplesCsv(results.samplesCsv());
        assertEquals(results.samples(), reread.samples());
        assertEquals(markdown, reread.markdown());
    }

    @Test
    void higherIsBetterForBandwidthAndNaNIsLeftOut() {
        PerftestSweepResults results = new PerftestSweepResults();
        results.add("write_bw", Pairing.C_C, 0, List.of(new PerftestRows.Row(64, 2000, List.of(0.3, 0.2, 0.003))));
        results.add("write_bw", Pairing.JAVA_JAVA, 0, List.of(new PerftestRows.Row(64, 2000, List.of(0.3, Double.NaN, 0.00294))));
        assertTrue(results.median("write_bw", 64, Metric.BANDWIDTH, Pairing.JAVA_JAVA).isEmpty());
        assertEquals(Verdict.MET, results.verdict(new Target("write_bw", 64, Metric.MESSAGE_RATE, Pairing.JAVA_JAVA, 0.95)));
        assertEquals(Verdict.MISSED, results.verdict(new Target("write_bw", 64, Metric.MESSAGE_RATE, Pairing.JAVA_JAVA, 0.99)));
        assertEquals("64 KiB", PerftestSweepResults.bytes(65536));
        assertEquals("2 B", PerftestSweepResults.bytes(2));
    }

    private static PerftestRows.Row latencyRow(int size, double typical) {
        return new PerftestRows.Row(size, 1000, List.of(1.0, 2.0, typical, typical, 0.1, 3.0, 4.0));
    }
}
