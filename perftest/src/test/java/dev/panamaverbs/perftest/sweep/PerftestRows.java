package dev.panamaverbs.perftest.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The result rows in perftest's output (Debian's perftest 4.5 or our Java twin, which print the
 * same table): {@code #bytes #iterations} then the figures, 7 for a latency test
 * ({@code t_min t_max t_typical t_avg t_stdev 99% 99.9%}, µs) and 3 for a bandwidth test
 * ({@code BW peak, BW average} in MB/s, {@code MsgRate} in Mpps). A figure perftest printed as
 * {@code inf} or {@code nan} (its cycle counter's frequency can read as 0 under emulation) is NaN.
 */
final class PerftestRows {
    private static final Pattern ROW = Pattern.compile(
            "(?m)^\\s*([0-9]+)\\s+([0-9]+)((?:[ \\t]+(?:[0-9]+(?:\\.[0-9]+)?|inf|-?nan))+)[ \\t]*$");
    /** Where t_typical is among a latency row's figures. */
    static final int LATENCY_TYPICAL = 2;
    /** Where BW average and MsgRate are among a bandwidth row's figures. */
    static final int BANDWIDTH_AVERAGE = 1;
    static final int MESSAGE_RATE = 2;

    /** One row: the message size, the iterations and the figures in the table's order. */
    record Row(int size, long iterations, List<Double> figures) {
        Row {
            figures = List.copyOf(figures);
        }
    }

    private PerftestRows() {}

    /** Every row in {@code output} with {@code figures} figures, in order. */
    static List<Row> parse(String output, int figures) {
        List<Row> rows = new ArrayList<>();
        Matcher row = ROW.matcher(output);
        while (row.find()) {
            String[] words = row.group(3).strip().split("\\s+");
            if (words.length != figures) {
                continue;
            }
            List<Double> values = new ArrayList<>();
            for (String word : words) {
                values.add(word.matches("[0-9.]+") ? Double.parseDouble(word) : Double.NaN);
            }
            rows.add(new Row(Integer.parseInt(row.group(1)), Long.parseLong(row.group(2)), values));
        }
        return rows;
    }

    /** How many figures a row of {@code test} has: 7 for latency, 3 for bandwidth. */
    static int figures(String test) {
        return test.endsWith("_lat") ? 7 : 3;
    }
}
