package dev.panamaverbs.benchmarks.perftest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The medians of the two-host perftest sweep, as its driver writes them
 * ({@code target/perftest-sweep/medians.csv}, verbs-testkit's PerftestSweepResults): a header
 * {@code test,bytes,metric,PAIRING...}, then one line per test, size and metric with one median
 * per pairing (empty when that pairing gave none).
 *
 * @param pairings the pairings, in the file's column order ({@code C_C, JAVA_JAVA, ...})
 * @param lines    the lines in the file's order
 */
public record SweepMedians(List<String> pairings, List<Line> lines) {
    /** The pairing every ratio is taken against: perftest with perftest. */
    public static final String C_C = "C_C";

    /** One line: {@code test} at {@code bytes}, {@code metric}, the median of each pairing (NaN: none). */
    public record Line(String test, int bytes, String metric, Map<String, Double> medians) {}

    public SweepMedians {
        pairings = List.copyOf(pairings);
        lines = List.copyOf(lines);
    }

    /** Reads {@code file}. */
    public static SweepMedians read(Path file) throws IOException {
        return parse(Files.readAllLines(file));
    }

    /** Parses the file's lines; a malformed one is an {@link IllegalArgumentException} naming it. */
    public static SweepMedians parse(List<String> text) {
        if (text.isEmpty() || !text.getFirst().startsWith("test,bytes,metric,")) {
            throw new IllegalArgumentException("not the sweep's medians.csv: no header 'test,bytes,metric,...'");
        }
        List<String> pairings = List.of(text.getFirst().split(",", -1)).subList(3, text.getFirst().split(",", -1).length);
        List<Line> lines = new ArrayList<>();
        for (String row : text.subList(1, text.size())) {
            if (row.isBlank()) {
                continue;
            }
            String[] cells = row.split(",", -1);
            if (cells.length != 3 + pairings.size()) {
                throw new IllegalArgumentException("medians.csv: " + cells.length + " cells, expected " + (3 + pairings.size())
                        + ": " + row);
            }
            Map<String, Double> medians = new LinkedHashMap<>();
            for (int i = 0; i < pairings.size(); i++) {
                medians.put(pairings.get(i), cells[3 + i].isEmpty() ? Double.NaN : Double.parseDouble(cells[3 + i]));
            }
            lines.add(new Line(cells[0], Integer.parseInt(cells[1]), cells[2], medians));
        }
        return new SweepMedians(pairings, lines);
    }

    /** The tests in the file's order. */
    public List<String> tests() {
        return lines.stream().map(Line::test).distinct().toList();
    }

    /** The lines of {@code test} and {@code metric}, by size. */
    public List<Line> of(String test, String metric) {
        return lines.stream().filter(l -> l.test().equals(test) && l.metric().equals(metric)).toList();
    }

    /** {@code pairing}'s median over C/C's on {@code line}; empty when either is missing. */
    public static OptionalDouble ratio(Line line, String pairing) {
        double mine = line.medians().getOrDefault(pairing, Double.NaN);
        double c = line.medians().getOrDefault(C_C, Double.NaN);
        return Double.isNaN(mine) || Double.isNaN(c) || c == 0 ? OptionalDouble.empty() : OptionalDouble.of(mine / c);
    }
}
