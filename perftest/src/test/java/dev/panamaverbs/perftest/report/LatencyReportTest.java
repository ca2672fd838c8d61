package dev.panamaverbs.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** perftest's {@code -U}, {@code -H} and {@code -C} around the latency row, and C's {@code %g}. */
class LatencyReportTest {
    private static final long[] POSTED = {0, 6000, 10000, 14000, 16000, 26000};

    @Test
    void withoutListsOnlyTheRow() {
        long[] gaps = new long[6];
        assertEquals(ResultTable.latencyRow(64, 6, LatencyStatistics.of(POSTED, 6, new long[6], 2, 1000)) + "\n",
                LatencyReport.text(64, POSTED, 6, gaps, 2, LatencyUnit.MICROSECONDS, false, false, false));
    }

    @Test
    void unsortedThenHistogramThenTheHeaderAgain() {
        String text = LatencyReport.text(64, POSTED, 6, new long[6], 2, LatencyUnit.MICROSECONDS, true, true, false);
        String row = ResultTable.latencyRow(64, 6, LatencyStatistics.of(POSTED, 6, new long[6], 2, 1000));
        // gaps 6, 4, 4, 2, 10 us, halved for the round trip; the histogram leaves the two largest out
        assertEquals("#, usec\n1, 3\n2, 2\n3, 2\n4, 1\n5, 5\n"
                + "#, usec\n1, 1\n2, 2\n3, 2\n"
                + ResultTable.LINE + "\n" + ResultTable.LATENCY_HEADER + "\n" + row + "\n", text);
    }

    @Test
    void outputLatencyKeepsTheListsAndPrintsTheAverageAlone() {
        // the kept gaps 1, 2, 2 us (the two largest left out): average 1.666667, C's %lf
        assertEquals("#, usec\n1, 1\n2, 2\n3, 2\n1.666667\n",
                LatencyReport.text(64, POSTED, 6, new long[6], 2, LatencyUnit.MICROSECONDS, false, true, true));
        assertEquals("1.666667\n", LatencyReport.text(64, POSTED, 6, new long[6], 2, LatencyUnit.MICROSECONDS, false, false, true));
    }

    @Test
    void cyclesByTheCpusMegahertz() {
        LatencyUnit cycles = LatencyUnit.cycles("processor\t: 0\ncpu MHz\t\t: 2000.000\ncpu MHz\t\t: 1000.000\n");
        assertEquals("cycles", cycles.name());
        assertEquals(0.5, cycles.nanosPerUnit(), 1e-12);
        String text = LatencyReport.text(64, POSTED, 6, new long[6], 2, cycles, false, true, false);
        assertEquals("#, cycles\n1, 2000\n2, 4000\n3, 4000\n", text.substring(0, text.indexOf(ResultTable.LINE)));
        assertThrows(IllegalStateException.class, () -> LatencyUnit.cycles("processor\t: 0\n"));
    }

    @Test
    void gAsCsPrintf() {
        // each expected text printed by the host's printf "%g" of the value
        double[] values = {2.5, 1234567, 0.0001, 0.00001234, 100000, 123456.5, 3.0, 999999.5, 0, Double.POSITIVE_INFINITY};
        String[] printed = {"2.5", "1.23457e+06", "0.0001", "1.234e-05", "100000", "123456", "3", "1e+06", "0", "inf"};
        for (int i = 0; i < values.length; i++) {
            assertEquals(printed[i], LatencyReport.g(values[i]), Double.toString(values[i]));
        }
    }
}
