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
                ResultTable.bandwidthRow(65536, 5000, 1234.5, 1100.25, 0.017604, false));
    }

    @Test
    void durationRowAsPerftestPrintsIt() {
        assertEquals(" 2             12345            3.25           153846.15",
                ResultTable.latencyDurationRow(2, 12345, 3.25, 153846.15));
    }

    @Test
    void gbitsBelowOneTenthPrintSixDecimalsAsPerftest() {
        assertEquals(" 65536      1000           0.052345            0.041234            0.000079",
                ResultTable.bandwidthRow(65536, 1000, 0.052345, 0.041234, 0.000079, true));
        assertEquals(" 65536      1000             0.00               812.50 \t\t   0.013000",
                ResultTable.bandwidthRow(65536, 1000, 0, 812.5, 0.013, true), "0.1 Gb/s and above: REPORT_FMT");
        assertEquals(" 65536      1000             0.00               0.04   \t\t   0.013000",
                ResultTable.bandwidthRow(65536, 1000, 0, 0.041234, 0.013, false), "MB/s keeps 2 decimals");
        assertEquals(" 65536      1000           0.000000            0.120000            0.000200",
                ResultTable.bandwidthRow(65536, 1000, 0, 0.12, 0.0002, true, 0.06), "-b: the format by this side's own average");
    }

    @Test
    void infiniteAndNanAsCPrintsThem() {
        assertEquals(" 2          5                inf                inf    \t\t   inf    ",
                ResultTable.bandwidthRow(2, 5, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, false));
        assertEquals(" 2          5                -nan               inf    \t\t   inf    ",
                ResultTable.bandwidthRow(2, 5, Double.NaN, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, false));
        List<double[]> rows = ResultTable.parseRows(ResultTable.BANDWIDTH_HEADER + "\n"
                + ResultTable.bandwidthRow(2, 5, Double.NaN, Double.POSITIVE_INFINITY, 1.5, false) + "\n");
        assertEquals(1, rows.size());
        assertEquals(Double.POSITIVE_INFINITY, rows.getFirst()[3]);
        assertEquals(true, Double.isNaN(rows.getFirst()[2]));
    }

    @Test
    void durationRowWithoutTimeAsPerftest() {
        assertEquals(" 2             0            inf            -nan   ",
                ResultTable.latencyDurationRow(2, 0, Double.POSITIVE_INFINITY, Double.NaN));
    }

    @Test
    void zeroElapsedIsInfiniteNotClamped() {
        long[] posted = {100, 100, 100, 100, 100};
        long[] completed = {100, 100, 100, 100, 100};
        BandwidthStatistics s = BandwidthStatistics.of(2, 5, posted, completed, false, false);
        assertEquals(Double.POSITIVE_INFINITY, s.average());
        assertEquals(Double.POSITIVE_INFINITY, s.messageRate());
        assertEquals(Double.POSITIVE_INFINITY, s.peak());
        BandwidthStatistics none = BandwidthStatistics.over(0, 0, 0, false);
        assertEquals(true, Double.isNaN(none.average()), "0 bytes in 0 ns: 0/0 as in C");
    }

    @Test
    void noPeakPrintsZeroAsPerftest() {
        long[] posted = {0, 1000, 2000, 3000, 4000};
        long[] completed = {5000, 6000, 7000, 8000, 9000};
        BandwidthStatistics measured = BandwidthStatistics.of(1 << 20, 5, posted, completed, false, false);
        BandwidthStatistics unmeasured = BandwidthStatistics.of(1 << 20, 5, posted, completed, true, false);
        assertEquals(0.0, unmeasured.peak());
        assertEquals(measured.average(), unmeasured.average(), 1e-9);
        assertEquals(5 / 9e-6 / 1e6, unmeasured.messageRate(), 1e-9);
        assertEquals(true, measured.peak() >= measured.average());
        assertEquals(0.0, BandwidthStatistics.over(65536, 1000, 1_000_000, false).peak(), "duration mode and SEND servers");
    }

    @Test
    void parsesTheTable() {
        String output = "junk\n" + ResultTable.LINE + "\n" + ResultTable.BANDWIDTH_HEADER + "\n"
                + ResultTable.bandwidthRow(65536, 5000, 1234.5, 1100.25, 0.017604, false) + "\n" + ResultTable.LINE + "\n";
        List<double[]> rows = ResultTable.parseRows(output);
        assertEquals(1, rows.size());
        assertArrayEquals(new double[] {65536, 5000, 1234.5, 1100.25, 0.017604}, rows.getFirst(), 1e-9);
    }

    @Test
    void latencyStatisticsHalveTheRoundTrip() {
        long[] posted = {0, 4000, 8000, 12000, 16000, 26000};
        LatencyStatistics s = LatencyStatistics.of(posted, 6, new long[6], 2, 1000);
        assertEquals(2.0, s.min(), 1e-9);       // 4 us gaps, half each
        assertEquals(2.0, s.typical(), 1e-9);
        assertEquals(2.0, s.average(), 1e-9);   // the two largest gaps are left out
    }
}
