package dev.panamaverbs.perftest.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * perftest's latency report of one size ({@code print_report_lat}) with its report options:
 * with {@code -U} every latency in the order measured, with {@code -H} the ones measured sorted
 * (the {@value LatencyStatistics#MEASURE_TAIL} largest left out), each list under
 * {@code "#, usec"} ({@code "#, cycles"} with {@code -C}) as {@code "N, %g"} lines; after either
 * list the dashed line and the header again; then the row. With {@code --output=latency} the
 * lists stay, and the average alone (C's {@code %lf}) takes the header's and the row's place.
 */
public final class LatencyReport {
    private LatencyReport() {}

    /**
     * The report's text, each line ending in a newline.
     *
     * @param size        the message size
     * @param postedNanos when each iteration was posted
     * @param iterations  the iterations
     * @param gaps        scratch space of at least {@code iterations - 1} entries
     * @param roundTripFactor 2 for WRITE and SEND, 1 for READ and atomics
     * @param unit        microseconds, or cycles with {@code -C}
     * @param unsorted    {@code -U}
     * @param histogram   {@code -H}
     * @param averageOnly {@code --output=latency}
     * @return the lines
     */
    public static String text(long size, long[] postedNanos, int iterations, long[] gaps, int roundTripFactor,
                              LatencyUnit unit, boolean unsorted, boolean histogram, boolean averageOnly) {
        StringBuilder text = new StringBuilder();
        double perUnit = unit.nanosPerUnit() * roundTripFactor;
        if (unsorted) {
            text.append("#, ").append(unit.name()).append('\n');
            for (int i = 0; i < iterations - 1; i++) {
                text.append(i + 1).append(", ").append(g((postedNanos[i + 1] - postedNanos[i]) / perUnit)).append('\n');
            }
        }
        LatencyStatistics statistics = LatencyStatistics.of(postedNanos, iterations, gaps, roundTripFactor, unit.nanosPerUnit());
        if (histogram) {
            text.append("#, ").append(unit.name()).append('\n');
            int measured = iterations - 1 - LatencyStatistics.MEASURE_TAIL;
            for (int i = 0; i < measured; i++) {
                text.append(i + 1).append(", ").append(g(gaps[i] / perUnit)).append('\n');
            }
        }
        if (averageOnly) {
            return text.append(ResultTable.c(statistics.average(), 6)).append('\n').toString();
        }
        if (unsorted || histogram) {
            text.append(ResultTable.LINE).append('\n').append(ResultTable.LATENCY_HEADER).append('\n');
        }
        return text.append(ResultTable.latencyRow(size, iterations, statistics)).append('\n').toString();
    }

    /** {@code value} as C's {@code %g}: 6 significant digits, trailing zeros dropped, an exponent below 1e-4 or from 1e6. */
    static String g(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return ResultTable.c(value, 0);
        }
        if (value == 0) {
            return "0";
        }
        BigDecimal rounded = new BigDecimal(value).round(new MathContext(6, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent < -4 || exponent >= 6) {
            String mantissa = rounded.movePointLeft(exponent).stripTrailingZeros().toPlainString();
            return mantissa + (exponent < 0 ? "e-" : "e+") + (Math.abs(exponent) < 10 ? "0" : "") + Math.abs(exponent);
        }
        return rounded.stripTrailingZeros().toPlainString();
    }
}
