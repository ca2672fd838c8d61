package dev.panamaverbs.perftest.report;

import java.util.Arrays;

/**
 * perftest's latency figures ({@code print_report_lat}) from the time each iteration was posted:
 * the gaps between consecutive posts, sorted, the two largest dropped ({@code LAT_MEASURE_TAIL}),
 * divided by the round-trip factor (2 for WRITE and SEND, where an iteration is a round trip of
 * two messages; 1 for READ and atomics), in microseconds (or CPU cycles with {@code -C}).
 *
 * @param min          t_min
 * @param max          t_max (the largest gap kept)
 * @param typical      t_typical: the median
 * @param average      t_avg
 * @param stdev        t_stdev
 * @param percentile99  99% percentile
 * @param percentile999 99.9% percentile
 */
public record LatencyStatistics(double min, double max, double typical, double average, double stdev, double percentile99,
                                double percentile999) {
    /** {@code LAT_MEASURE_TAIL}: the largest gaps left out. */
    public static final int MEASURE_TAIL = 2;

    /**
     * The figures from {@code postedNanos[0..iterations)}; {@code gaps} is scratch space of at
     * least {@code iterations - 1} entries (preallocated, so measuring allocates nothing), left
     * holding the gaps sorted. {@code nanosPerUnit} is the report's unit in nanoseconds (1000 for
     * microseconds; with {@code -C} one CPU cycle).
     */
    public static LatencyStatistics of(long[] postedNanos, int iterations, long[] gaps, int roundTripFactor,
                                       double nanosPerUnit) {
        int count = iterations - 1;
        for (int i = 0; i < count; i++) {
            gaps[i] = postedNanos[i + 1] - postedNanos[i];
        }
        Arrays.sort(gaps, 0, count);
        int measured = Math.max(1, count - MEASURE_TAIL);
        double unit = nanosPerUnit * roundTripFactor;   // nanoseconds per reported unit
        double typical = measured % 2 == 0 && measured > 1
                ? (gaps[measured / 2 - 1] + gaps[measured / 2]) / 2.0
                : gaps[measured / 2];
        double sum = 0;
        for (int i = 0; i < measured; i++) {
            sum += gaps[i];
        }
        double average = sum / measured;
        double squares = 0;
        for (int i = 0; i < measured; i++) {
            double d = gaps[i] - average;
            squares += d * d;
        }
        double stdev = Math.sqrt(squares / measured);
        int at99 = Math.min(count - 1, (int) Math.ceil(measured * 0.99));
        int at999 = Math.min(count - 1, (int) Math.ceil(measured * 0.999));
        return new LatencyStatistics(gaps[0] / unit, gaps[Math.min(measured, count - 1)] / unit, typical / unit,
                average / unit, stdev / unit, gaps[at99] / unit, gaps[at999] / unit);
    }
}
