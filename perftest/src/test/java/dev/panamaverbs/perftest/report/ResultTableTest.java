package dev.panamaverbs.perftest.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The table rows against what C's printf makes of perftest 4.5's format strings with the same
 * values (printed once with gcc and pasted here), and the parser on both outputs.
 */
class ResultTableTest {
    @Test
    void latencyRowAsPerftestPrintsIt() {
        LatencyStatistics s = new LatencyStatistics(1.5, 12.25, 2.0, 2.5, 0.75, 12.25, 12.25);
        assertEquals(" 2       1000          1.50           12.25        2.00     \t       2.50        \t0.75   \t\t12.25   \t\t12.25  ",
                ResultTable.latencyRow(2, 1000, s));
    }

    @Test
    void bandwidthRowAsPerftestPrintsIt() {
        assertEquals(" 65536      5000             1234.50            1100.25\t\t   0.017604",
                ResultTable.bandwidthRow(65536, 5000, 1234.5, 1100.25, 0.017604));
    }

    @Test
    void durationRowAsPerftestPrintsIt() {
        assertEquals(" 2             12345            3.25           153846.15",
                ResultTable.latencyDurationRow(2, 12345, 3.25, 153846.15));
    }

    @Test
    void parsesTheTable() {
        String output = "junk\n" + ResultTable.LINE + "\n" + ResultTable.BANDWIDTH_HEADER + "\n"
                + ResultTable.bandwidthRow(65536, 5000, 1234.5, 1100.25, 0.017604) + "\n" + ResultTable.LINE + "\n";
        List<double[]> rows = ResultTable.parseRows(output);
        assertEquals(1, rows.size());
        assertArrayEquals(new double[] {65536, 5000, 1234.5, 1100.25, 0.017604}, rows.getFirst(), 1e-9);
    }

    @Test
    void latencyStatisticsHalveTheRoundTrip() {
        long[] posted = {0, 4000, 8000, 12000, 16000, 26000};
        LatencyStatistics s = LatencyStatistics.of(posted, 6, new long[6], 2);
        assertEquals(2.0, s.min(), 1e-9);       // 4 us gaps, half each
        assertEquals(2.0, s.typical(), 1e-9);
        assertEquals(2.0, s.average(), 1e-9);   // the two largest gaps are left out
    }
}
