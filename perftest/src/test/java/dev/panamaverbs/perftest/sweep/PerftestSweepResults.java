package dev.panamaverbs.perftest.sweep;

import dev.panamaverbs.perftest.sweep.PerftestSweepPlan.Pairing;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What the two-host perftest sweep measured: the clients' result rows of every step, the median
 * over the rounds of each figure per test, size and pairing, its ratio to C/C (perftest against
 * perftest, in the same run), and a verdict on each target that holds only when every round agrees. Rendered as CSV (every sample, and
 * the medians the chart is drawn from) and as Markdown tables.
 */
final class PerftestSweepResults {
    /** The figures the sweep reports, with where each is in a row and which way is better. */
    enum Metric {
        LATENCY("t_typical[usec]", PerftestRows.LATENCY_TYPICAL, true, "%.2f"),
        BANDWIDTH("BW average[MB/sec]", PerftestRows.BANDWIDTH_AVERAGE, false, "%.3f"),
        MESSAGE_RATE("MsgRate[Mpps]", PerftestRows.MESSAGE_RATE, false, "%.6f");

        final String header;
        final int figure;
        final boolean lowerIsBetter;
        final String format;

        Metric(String header, int figure, boolean lowerIsBetter, String format) {
            this.header = header;
            this.figure = figure;
            this.lowerIsBetter = lowerIsBetter;
            this.format = format;
        }

        /** The metrics of {@code test}: latency for {@code *_lat}, bandwidth and message rate for {@code *_bw}. */
        static List<Metric> of(String test) {
            return test.endsWith("_lat") ? List.of(LATENCY) : List.of(BANDWIDTH, MESSAGE_RATE);
        }
    }

    /** One figure of one client row. */
    record Sample(String test, int size, Metric metric, Pairing pairing, int round, double value) {
        /** Whether this sample is of {@code pairing}'s {@code metric} for {@code test} at {@code size}. */
        boolean of(String test, int size, Metric metric, Pairing pairing) {
            return this.test.equals(test) && this.size == size && this.metric == metric && this.pairing == pairing;
        }
    }

    /**
     * A target: {@code pairing}'s median of {@code metric} for {@code test} at {@code size}, as a
     * ratio to C/C's, at most (lower is better) or at least {@code bound}.
     */
    record Target(String test, int size, Metric metric, Pairing pairing, double bound) {
        String describe() {
            return String.format(Locale.ROOT, "%s %s, %s: %s %s %s of C/C", test, bytes(size), metric.header, pairing.label,
                    metric.lowerIsBetter ? "within" : "at least",
                    metric.lowerIsBetter ? String.format(Locale.ROOT, "+%.0f%%", (bound - 1) * 100)
                            : String.format(Locale.ROOT, "%.0f%%", bound * 100));
        }
    }

    /**
     * The issues' targets: latency at 64 B, message rate at 64 B, bandwidth at 64 KiB (issue 11);
     * then the one-sided latencies ({@link #oneSidedTargets}).
     */
    static final List<Target> TARGETS = Stream.concat(Stream.of(
            new Target("write_lat", 64, Metric.LATENCY, Pairing.JAVA_JAVA, 1.05),
            new Target("send_lat", 64, Metric.LATENCY, Pairing.JAVA_JAVA, 1.05),
            new Target("write_lat", 64, Metric.LATENCY, Pairing.JAVA_CLIENT_C_SERVER, 1.03),
            new Target("send_lat", 64, Metric.LATENCY, Pairing.JAVA_CLIENT_C_SERVER, 1.03),
            new Target("write_bw", 64, Metric.MESSAGE_RATE, Pairing.JAVA_JAVA, 0.95),
            new Target("send_bw", 64, Metric.MESSAGE_RATE, Pairing.JAVA_JAVA, 0.95),
            new Target("write_bw", 65536, Metric.BANDWIDTH, Pairing.JAVA_JAVA, 0.97),
            new Target("send_bw", 65536, Metric.BANDWIDTH, Pairing.JAVA_JAVA, 0.97)), oneSidedTargets()).toList();

    /**
     * Issue 22: read_lat and atomic_lat, Java client / C server within 1.5x of C/C, at every
     * measured size of the plan (the server takes no part: the ratio is the client's).
     */
    private static Stream<Target> oneSidedTargets() {
        return PerftestSweepPlan.ONE_SIDED_TESTS.stream().flatMap(test -> PerftestSweepPlan.sizes(test).stream()
                .filter(size -> !size.warmUp())
                .map(size -> new Target(test, size.bytes(), Metric.LATENCY, Pairing.JAVA_CLIENT_C_SERVER, 1.5)));
    }

    private final List<Sample> samples = new ArrayList<>();
    private final List<String> tests = new ArrayList<>();

    /** Records the client's rows of one step of {@code test} (figures that are NaN are left out). */
    void add(String test, Pairing pairing, int round, List<PerftestRows.Row> rows) {
        noteTest(test);
        for (PerftestRows.Row row : rows) {
            for (Metric metric : Metric.of(test)) {
                double value = row.figures().get(metric.figure);
                if (!Double.isNaN(value)) {
                    samples.add(new Sample(test, row.size(), metric, pairing, round, value));
                }
            }
        }
    }

    /**
     * The results {@link #samplesCsv()} wrote, read back: tables and verdicts can be rendered again
     * from a run's {@code samples.csv}.
     */
    static PerftestSweepResults fromSamplesCsv(String csv) {
        PerftestSweepResults results = new PerftestSweepResults();
        csv.lines().skip(1).filter(line -> !line.isBlank()).forEach(line -> {
            String[] f = line.split(",");
            Sample sample = new Sample(f[0], Integer.parseInt(f[1]), Metric.valueOf(f[2]), Pairing.valueOf(f[3]),
                    Integer.parseInt(f[4]), Double.parseDouble(f[5]));
            results.noteTest(sample.test());
            results.samples.add(sample);
        });
        return results;
    }

    /** Keeps the tests in the order they were first recorded: the tables' order. */
    private void noteTest(String test) {
        if (!tests.contains(test)) {
            tests.add(test);
        }
    }

    List<Sample> samples() {
        return List.copyOf(samples);
    }

    /** The median over the rounds, if any sample was recorded. */
    OptionalDouble median(String test, int size, Metric metric, Pairing pairing) {
        double[] values = samples.stream().filter(s -> s.of(test, size, metric, pairing)).mapToDouble(Sample::value)
                .sorted().toArray();
        return median(values);
    }

    static OptionalDouble median(double[] sorted) {
        if (sorted.length == 0) {
            return OptionalDouble.empty();
        }
        double[] values = sorted.clone();
        Arrays.sort(values);
        int middle = values.length / 2;
        return OptionalDouble.of(values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2);
    }

    /** {@code pairing}'s median over C/C's; empty when either is missing or C/C's is 0. */
    OptionalDouble ratio(String test, int size, Metric metric, Pairing pairing) {
        OptionalDouble mine = median(test, size, metric, pairing);
        OptionalDouble c = median(test, size, metric, Pairing.C_C);
        if (mine.isEmpty() || c.isEmpty() || c.getAsDouble() == 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(mine.getAsDouble() / c.getAsDouble());
    }

    /** The largest spread over the rounds, (max - min) / median, of any pairing at this row. */
    OptionalDouble spread(String test, int size, Metric metric) {
        double worst = -1;
        for (Pairing pairing : Pairing.values()) {
            double[] values = samples.stream().filter(s -> s.of(test, size, metric, pairing)).mapToDouble(Sample::value)
                    .toArray();
            OptionalDouble median = median(values);
            if (values.length > 1 && median.isPresent() && median.getAsDouble() > 0) {
                double range = Arrays.stream(values).max().orElseThrow() - Arrays.stream(values).min().orElseThrow();
                worst = Math.max(worst, range / median.getAsDouble());
            }
        }
        return worst < 0 ? OptionalDouble.empty() : OptionalDouble.of(worst);
    }

    /** A target's verdict. */
    enum Verdict {
        /** Met in every round that measured both sides. */
        MET("met"),
        /** Missed in every such round. */
        MISSED("**missed**"),
        /** Met in some rounds and missed in others: the noise between rounds is larger than the margin. */
        INCONCLUSIVE("inconclusive: the rounds disagree"),
        /** The pairing or C/C was not measured. */
        NOT_MEASURED("not measured");

        final String text;

        Verdict(String text) {
            this.text = text;
        }
    }

    /**
     * {@code target}'s pairing over C/C, round by round (each round runs all four pairings within
     * minutes of each other), in round order; only the rounds that measured both.
     */
    double[] roundRatios(Target target) {
        List<Double> ratios = new ArrayList<>();
        for (Sample mine : samples) {
            if (!mine.of(target.test(), target.size(), target.metric(), target.pairing())) {
                continue;
            }
            for (Sample c : samples) {
                if (c.of(target.test(), target.size(), target.metric(), Pairing.C_C) && c.round() == mine.round()
                        && c.value() != 0) {
                    ratios.add(mine.value() / c.value());
                }
            }
        }
        return ratios.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * Met or missed only when every round agrees; a median that one noisy round put on the right
     * side of the bound is no verdict.
     */
    Verdict verdict(Target target) {
        double[] rounds = roundRatios(target);
        if (rounds.length == 0) {
            return Verdict.NOT_MEASURED;
        }
        long met = Arrays.stream(rounds).filter(r -> meets(target, r)).count();
        return met == rounds.length ? Verdict.MET : met == 0 ? Verdict.MISSED : Verdict.INCONCLUSIVE;
    }

    private static boolean meets(Target target, double ratio) {
        return target.metric().lowerIsBetter ? ratio <= target.bound() : ratio >= target.bound();
    }

    private TreeSet<Integer> sizes(String test) {
        TreeSet<Integer> sizes = new TreeSet<>();
        samples.stream().filter(s -> s.test().equals(test)).forEach(s -> sizes.add(s.size()));
        return sizes;
    }

    /** Every sample: {@code test,bytes,metric,pairing,round,value}. */
    String samplesCsv() {
        StringBuilder csv = new StringBuilder("test,bytes,metric,pairing,round,value\n");
        for (Sample s : samples) {
            csv.append(String.format(Locale.ROOT, "%s,%d,%s,%s,%d,%s%n", s.test(), s.size(), s.metric(), s.pairing(), s.round(),
                    s.value()));
        }
        return csv.toString();
    }

    /** The medians, one line per test, size and metric, one column per pairing (empty when missing). */
    String mediansCsv() {
        StringBuilder csv = new StringBuilder("test,bytes,metric");
        for (Pairing pairing : Pairing.values()) {
            csv.append(',').append(pairing);
        }
        csv.append('\n');
        for (String test : tests) {
            for (int size : sizes(test)) {
                for (Metric metric : Metric.of(test)) {
                    csv.append(test).append(',').append(size).append(',').append(metric);
                    for (Pairing pairing : Pairing.values()) {
                        OptionalDouble median = median(test, size, metric, pairing);
                        csv.append(',').append(median.isPresent() ? Double.toString(median.getAsDouble()) : "");
                    }
                    csv.append('\n');
                }
            }
        }
        return csv.toString();
    }

    /** One Markdown table per test (medians, ratios to C/C, spread over rounds), then the verdicts. */
    String markdown() {
        StringBuilder md = new StringBuilder();
        for (String test : tests) {
            md.append("\n#### ").append(test).append("\n\n| bytes | figure | C/C | Java/Java | Java client / C server | C client / Java server"
                    + " | Java/Java ÷ C/C | Java cl. / C srv ÷ C/C | C cl. / Java srv ÷ C/C | spread |\n"
                    + "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            for (int size : sizes(test)) {
                for (Metric metric : Metric.of(test)) {
                    md.append("| ").append(bytes(size)).append(" | ").append(metric.header);
                    for (Pairing pairing : Pairing.values()) {
                        OptionalDouble median = median(test, size, metric, pairing);
                        md.append(" | ").append(median.isPresent() ? String.format(Locale.ROOT, metric.format, median.getAsDouble())
                                : "n/a");
                    }
                    for (Pairing pairing : List.of(Pairing.JAVA_JAVA, Pairing.JAVA_CLIENT_C_SERVER, Pairing.C_CLIENT_JAVA_SERVER)) {
                        md.append(" | ").append(format(ratio(test, size, metric, pairing), "%.3f"));
                    }
                    OptionalDouble spread = spread(test, size, metric);
                    md.append(" | ").append(spread.isPresent() ? String.format(Locale.ROOT, "%.0f%%", spread.getAsDouble() * 100)
                            : "n/a").append(" |\n");
                }
            }
        }
        md.append("\n#### Targets\n\n| target | ratio of medians | ratio per round | verdict |\n|---|---:|---|---|\n");
        for (Target target : TARGETS) {
            if (!tests.contains(target.test())) {
                continue;
            }
            double[] rounds = roundRatios(target);
            md.append("| ").append(target.describe()).append(" | ")
                    .append(format(ratio(target.test(), target.size(), target.metric(), target.pairing()), "%.3f")).append(" | ")
                    .append(rounds.length == 0 ? "n/a" : String.join(", ", Arrays.stream(rounds)
                            .mapToObj(r -> String.format(Locale.ROOT, "%.3f", r)).toList()))
                    .append(" | ").append(verdict(target).text).append(" |\n");
        }
        return md.toString();
    }

    private static String format(OptionalDouble value, String format) {
        return value.isPresent() ? String.format(Locale.ROOT, format, value.getAsDouble()) : "n/a";
    }

    /** 2 B, 64 B, 4 KiB, 64 KiB. */
    static String bytes(int size) {
        return size >= 1024 && size % 1024 == 0 ? size / 1024 + " KiB" : size + " B";
    }
}
