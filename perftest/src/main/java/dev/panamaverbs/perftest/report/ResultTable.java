package dev.panamaverbs.perftest.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * perftest 4.5's result table, character for character: the dashed line, the header of the
 * test's kind, one line per size, the dashed line. The format strings are perftest's
 * ({@code RESULT_FMT*}, {@code REPORT_FMT*} in its {@code perftest_parameters.h}), so our output and
 * the C tool's compare line by line; {@link #parseRows} reads either.
 */
public final class ResultTable {
    /** {@code RESULT_LINE}. */
    public static final String LINE = "-".repeat(87);
    /** {@code RESULT_FMT_LAT}. */
    public static final String LATENCY_HEADER = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]"
            + "    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ";
    /** {@code RESULT_FMT_LAT_DUR}. */
    public static final String LATENCY_DURATION_HEADER = " #bytes        #iterations       t_avg[usec]    tps average";
    /** {@code RESULT_FMT}. */
    public static final String BANDWIDTH_HEADER = " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]";
    /** {@code RESULT_FMT_G}. */
    public static final String BANDWIDTH_HEADER_GBITS = " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]";

    private static final Pattern NUMBER_ROW = Pattern.compile("^\\s*\\d+\\s+\\d+(\\s+[0-9.]+(e[+-]?\\d+)?|\\s+-?inf|\\s+-?nan)+\\s*$");

    private ResultTable() {}

    /** One latency line ({@code REPORT_FMT_LAT}); infinite and NaN figures as C prints them. */
    public static String latencyRow(long size, long iterations, LatencyStatistics s) {
        return String.format(Locale.ROOT,
                " %-7d %d          %-7s        %-7s      %-7s  \t       %-7s     \t%-7s\t\t%-7s \t\t%-7s",
                size, iterations, c(s.min(), 2), c(s.max(), 2), c(s.typical(), 2), c(s.average(), 2), c(s.stdev(), 2),
                c(s.percentile99(), 2), c(s.percentile999(), 2));
    }

    /** One latency line of a duration run ({@code REPORT_FMT_LAT_DUR}); a zero time gives {@code inf} as in C. */
    public static String latencyDurationRow(long size, long iterations, double averageMicros, double transactionsPerSecond) {
        return String.format(Locale.ROOT, " %-7d       %d            %-7s        %-7s", size, iterations, c(averageMicros, 2),
                c(transactionsPerSecond, 2));
    }

    /**
     * One bandwidth line: {@code REPORT_FMT}, or with {@code --report_gbits} and an average below
     * 0.1 Gb/s perftest's {@code REPORT_FMT_EXT} (6 decimals). Infinite and NaN figures print as C's
     * printf prints them ({@code inf}; {@code -nan}, the sign x86 gives 0.0/0.0).
     */
    public static String bandwidthRow(long size, long iterations, double peak, double average, double messageRate,
                                      boolean gbits) {
        return formatBandwidthRow(size, iterations, peak, average, messageRate, gbits && average < 0.1);
    }

    /**
     * A bidirectional ({@code -b}) line: both sides' figures summed, the format chosen, as
     * perftest's {@code print_full_bw_report} does, by this side's own average
     * ({@code ownAverage} below 0.1 Gb/s: {@code REPORT_FMT_EXT}).
     */
    public static String bandwidthRow(long size, long iterations, double peak, double average, double messageRate,
                                      boolean gbits, double ownAverage) {
        return formatBandwidthRow(size, iterations, peak, average, messageRate, gbits && ownAverage < 0.1);
    }

    private static String formatBandwidthRow(long size, long iterations, double peak, double average, double messageRate,
                                             boolean sixDecimals) {
        if (sixDecimals) {
            return String.format(Locale.ROOT, " %-7d    %d           %-7s            %-7s            %-7s", size, iterations,
                    c(peak, 6), c(average, 6), c(messageRate, 6));
        }
        return String.format(Locale.ROOT, " %-7d    %-10d       %-7s            %-7s\t\t   %-7s", size, iterations, c(peak, 2),
                c(average, 2), c(messageRate, 6));
    }

    /** {@code value} as C's {@code %.Nf}: {@code inf}, {@code -inf}, {@code -nan}, or the number. */
    public static String c(double value, int decimals) {
        if (Double.isNaN(value)) {
            return "-nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    /** The rows of a result table in {@code output} (ours or perftest's): each row's numbers, in order. */
    public static List<double[]> parseRows(String output) {
        List<double[]> rows = new ArrayList<>();
        boolean inTable = false;
        for (String line : output.split("\n")) {
            String trimmed = line.strip();
            if (line.startsWith(" #bytes")) {
                inTable = true;
                continue;
            }
            if (!inTable) {
                continue;
            }
            if (trimmed.startsWith("---")) {
                inTable = false;
                continue;
            }
            if (NUMBER_ROW.matcher(trimmed).matches()) {
                String[] words = trimmed.split("\\s+");
                double[] row = new double[words.length];
                for (int i = 0; i < words.length; i++) {
                    row[i] = words[i].endsWith("nan") ? Double.NaN
                            : words[i].endsWith("inf") ? (words[i].startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY)
                            : Double.parseDouble(words[i]);
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
