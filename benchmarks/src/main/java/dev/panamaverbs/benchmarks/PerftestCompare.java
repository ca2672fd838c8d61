package dev.panamaverbs.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Statistics;

/**
 * The side-by-side table of {@code ./verbs bench --perftest-loopback} (scripts/perftest-compare.sh):
 * runs {@link RcLoopbackBench} through JMH (sample time, {@code -prof gc}, the allocation
 * check), reads what the script saved from perftest and from the C twin of the benchmark
 * ({@code benchmarks/src/main/c/loopback_twin.c}), and prints the three side by side with the
 * ratios.
 *
 * <pre>
 * java -cp benchmarks.jar dev.panamaverbs.benchmarks.PerftestCompare RESULT_DIR [JMH OPTIONS...]
 * </pre>
 * {@code RESULT_DIR} holds {@code ib_write_lat.txt}, {@code ib_send_lat.txt},
 * {@code ib_write_bw.txt} (perftest client outputs) and {@code loopback_twin.txt}; a missing
 * file leaves its column empty. JMH options given override the defaults
 * ({@code -f 1 -wi 3 -w 2s -i 4 -r 2s}); the benchmark selection, mode, unit and profiler are fixed.
 */
public final class PerftestCompare {
    /** The benchmarks of the table, by method name. */
    private static final List<String> BENCHMARKS = List.of("writePingPong", "sendPingPong", "writeSignaled", "writeBatch16");

    private PerftestCompare() {}

    public static void main(String[] args) throws IOException, RunnerException {
        if (args.length < 1) {
            System.err.println("usage: PerftestCompare RESULT_DIR [JMH OPTIONS...]");
            System.exit(2);
        }
        Path perftestDir = Path.of(args[0]);  // perftest and C twin outputs
        CommandLineOptions cmd;
        try {
            cmd = new CommandLineOptions(java.util.Arrays.copyOfRange(args, 1, args.length));
        } catch (CommandLineOptionException e) {
            System.err.println("bad JMH options: " + e.getMessage());
            System.exit(2);
            return;
        }
        Path allocationReport = Files.createTempFile(perftestDir, "allocation", ".txt");
        Map<String, RunResult> ours = new HashMap<>();
        run(cmd, allocationReport, BENCHMARKS, ours);
        List<String> missing = BENCHMARKS.stream().filter(b -> !ours.containsKey(b)).toList();
        if (!missing.isEmpty()) {
            // Under TCG a forked JVM can die on a JIT code patch racing another vCPU (README):
            // one more fork for what failed, so one crash does not leave a hole in the table.
            System.out.println("# no result for " + missing + " (the fork failed, see above): running it once more");
            run(cmd, allocationReport, missing, ours);
        }
        Map<String, Long> allocated = readAllocationReport(allocationReport);
        Files.deleteIfExists(allocationReport);

        Optional<Latency> writeLat = Latency.read(perftestDir.resolve("ib_write_lat.txt"));
        Optional<Latency> sendLat = Latency.read(perftestDir.resolve("ib_send_lat.txt"));
        OptionalDouble writeBw = messageMicros(perftestDir.resolve("ib_write_bw.txt"));

        Map<String, double[]> twin = readTwin(perftestDir.resolve("loopback_twin.txt"));

        List<Row> rows = new ArrayList<>();
        rows.add(Row.latency("64 B RDMA WRITE, one way (RTT/2)", "ib_write_lat", writeLat, 1, "writePingPong", twin, ours));
        rows.add(Row.latency("64 B SEND/RECV, one way (RTT/2)", "ib_send_lat", sendLat, 1, "sendPingPong", twin, ours));
        rows.add(Row.latency("64 B RDMA WRITE, post -> completion", "2 x ib_write_lat", writeLat, 2, "writeSignaled", twin, ours));
        rows.add(Row.rate("64 B RDMA WRITE, chains of 16, per WR", "ib_write_bw -l 16", writeBw, "writeBatch16", twin, ours));
        print(rows, allocated);
    }

    /** The C twin's lines: {@code NAME SAMPLES P50_US MEAN_US}. */
    private static Map<String, double[]> readTwin(Path file) throws IOException {
        Map<String, double[]> results = new HashMap<>();
        if (!Files.isReadable(file)) {
            return results;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 4 && f[1].matches("\\d+")) {
                results.put(f[0], new double[] {Double.parseDouble(f[2]), Double.parseDouble(f[3])});
            }
        }
        return results;
    }

    /** Runs {@code methods} of {@link RcLoopbackBench} and adds their results to {@code ours}. */
    private static void run(CommandLineOptions cmd, Path allocationReport, List<String> methods,
                            Map<String, RunResult> ours) throws RunnerException {
        ChainedOptionsBuilder options = new OptionsBuilder().parent(cmd)
                .include(RcLoopbackBench.class.getName() + "\\.(" + String.join("|", methods) + ")$")
                .mode(org.openjdk.jmh.annotations.Mode.SampleTime)
                .timeUnit(TimeUnit.MICROSECONDS)
                .addProfiler("gc")
                .jvmArgsAppend(jvmArgs(cmd, allocationReport));
        if (!cmd.getForkCount().hasValue()) {
            options.forks(1);
        }
        if (!cmd.getWarmupIterations().hasValue()) {
            options.warmupIterations(3);
        }
        if (!cmd.getWarmupTime().hasValue()) {
            options.warmupTime(TimeValue.seconds(2));
        }
        if (!cmd.getMeasurementIterations().hasValue()) {
            options.measurementIterations(4);
        }
        if (!cmd.getMeasurementTime().hasValue()) {
            options.measurementTime(TimeValue.seconds(2));
        }
        for (RunResult result : new Runner(options.build()).run()) {
            String name = result.getParams().getBenchmark();
            ours.put(name.substring(name.lastIndexOf('.') + 1), result);
        }
    }

    /** The forks' JVM options: the caller's, plus native access and the allocation report file. */
    private static String[] jvmArgs(CommandLineOptions cmd, Path report) {
        List<String> args = new ArrayList<>();
        if (cmd.getJvmArgsAppend().hasValue()) {
            args.addAll(cmd.getJvmArgsAppend().get());
        }
        if (args.stream().noneMatch(a -> a.startsWith("--enable-native-access"))) {
            args.add("--enable-native-access=ALL-UNNAMED");
        }
        args.add("-D" + ThreadAllocation.REPORT_PROPERTY + "=" + report.toAbsolutePath());
        return args.toArray(String[]::new);
    }

    private static Map<String, Long> readAllocationReport(Path report) throws IOException {
        Map<String, Long> bytes = new HashMap<>();
        for (String line : Files.readAllLines(report, StandardCharsets.UTF_8)) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 3) {
                bytes.put(f[0], Long.parseLong(f[1]));
            }
        }
        return bytes;
    }

    /** perftest's latency line: {@code #bytes #iterations t_min t_max t_typical t_avg t_stdev p99 p99.9}. */
    record Latency(int bytes, long iterations, double typical, double average) {
        static Optional<Latency> read(Path file) throws IOException {
            for (String[] f : dataLines(file)) {
                if (f.length >= 6) {
                    return Optional.of(new Latency(Integer.parseInt(f[0]), Long.parseLong(f[1]),
                            Double.parseDouble(f[4]), Double.parseDouble(f[5])));
                }
            }
            return Optional.empty();
        }
    }

    /**
     * perftest's bandwidth line: {@code #bytes #iterations BW_peak BW_average MsgRate[Mpps]}: the
     * time per message in microseconds, {@code 1 / MsgRate}.
     */
    static OptionalDouble messageMicros(Path file) throws IOException {
        for (String[] f : dataLines(file)) {
            if (f.length >= 5) {
                double mpps = Double.parseDouble(f[4]);
                return mpps > 0 ? OptionalDouble.of(1 / mpps) : OptionalDouble.empty();
            }
        }
        return OptionalDouble.empty();
    }

    /** The whitespace-split lines of a perftest output that start with a number (the result lines). */
    private static List<String[]> dataLines(Path file) throws IOException {
        List<String[]> lines = new ArrayList<>();
        if (!Files.isReadable(file)) {
            return lines;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 5 && f[0].matches("\\d+") && f[1].matches("\\d+")) {
                try {
                    for (int i = 2; i < f.length; i++) {
                        Double.parseDouble(f[i]);
                    }
                    lines.add(f);
                } catch (NumberFormatException notResults) {
                    // not a result line
                }
            }
        }
        return lines;
    }

    /** One line of the table; NaN where a side has no number. */
    record Row(String what, String tool, double perftestTypical, double perftestAverage,
               double twinMedian, double twinMean,
               String benchmark, double oursMedian, double oursMean, double gcNorm) {

        static Row latency(String what, String tool, Optional<Latency> perftest, int factor, String benchmark,
                           Map<String, double[]> twin, Map<String, RunResult> ours) {
            double typical = perftest.map(l -> l.typical() * factor).orElse(Double.NaN);
            double average = perftest.map(l -> l.average() * factor).orElse(Double.NaN);
            return withOurs(what, tool, typical, average, benchmark, twin, ours);
        }

        static Row rate(String what, String tool, OptionalDouble perftestMicros, String benchmark,
                        Map<String, double[]> twin, Map<String, RunResult> ours) {
            return withOurs(what, tool, Double.NaN, perftestMicros.orElse(Double.NaN), benchmark, twin, ours);
        }

        private static Row withOurs(String what, String tool, double typical, double average, String benchmark,
                                    Map<String, double[]> twin, Map<String, RunResult> ours) {
            double[] c = twin.getOrDefault(benchmark, new double[] {Double.NaN, Double.NaN});
            RunResult result = ours.get(benchmark);
            if (result == null) {
                return new Row(what, tool, typical, average, c[0], c[1], benchmark, Double.NaN, Double.NaN, Double.NaN);
            }
            Statistics statistics = result.getPrimaryResult().getStatistics();
            Result<?> gc = result.getSecondaryResults().get("gc.alloc.rate.norm");
            return new Row(what, tool, typical, average, c[0], c[1], benchmark, statistics.getPercentile(50),
                    statistics.getMean(), gc == null ? Double.NaN : gc.getScore());
        }
    }

    private static void print(List<Row> rows, Map<String, Long> allocated) {
        String format = "%-38s %-18s %9s %9s %9s   %8s %13s%n";
        System.out.println();
        System.out.println("perftest vs C twin vs panama-verbs: one VM run, one device, microseconds per operation.");
        System.out.println("Emulated rxe: the absolute numbers mean nothing, the ratios are the result.");
        System.out.println();
        System.out.println("Medians (perftest t_typical, C twin p50, JMH sample-time p50):");
        System.out.printf(Locale.ROOT, format, "operation", "perftest", "perftest", "C twin", "ours",
                "ours/C", "ours/perftest");
        for (Row r : rows) {
            System.out.printf(Locale.ROOT, format, r.what(), r.tool(), num(r.perftestTypical()), num(r.twinMedian()),
                    num(r.oursMedian()), ratio(r.oursMedian(), r.twinMedian()), ratio(r.oursMedian(), r.perftestTypical()));
        }
        System.out.println();
        String meanFormat = "%-38s %-18s %9s %9s %9s   %8s %13s   %-9s %s%n";
        System.out.println("Means (skewed by emulation stalls; ib_write_bw: 1 / MsgRate) and allocation:");
        System.out.printf(Locale.ROOT, meanFormat, "operation", "perftest", "perftest", "C twin", "ours",
                "ours/C", "ours/perftest", "thread B", "gc B/op");
        for (Row r : rows) {
            Long bytes = allocated.get(r.benchmark());
            System.out.printf(Locale.ROOT, meanFormat, r.what(), r.tool(), num(r.perftestAverage()), num(r.twinMean()),
                    num(r.oursMean()), ratio(r.oursMean(), r.twinMean()), ratio(r.oursMean(), r.perftestAverage()),
                    bytes == null ? "-" : bytes.toString(), num(r.gcNorm()));
        }
        System.out.println();
        System.out.println("perftest: server and client processes on the one device (two vCPUs). C twin"
                + " (benchmarks/src/main/c/loopback_twin.c) and ours:");
        System.out.println("the same single-threaded loops, one thread playing both sides. thread B: bytes the"
                + " benchmark thread allocated in the");
        System.out.println("allocation check after measuring (ThreadMXBean, thousands of invocations). gc B/op: JMH"
                + " -prof gc over every thread of the");
        System.out.println("JVM, JMH's own per-iteration sample buffers included (noise of a few B/op at microseconds"
                + " per operation).");
    }

    private static String num(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.2f", value);
    }

    private static String ratio(double ours, double theirs) {
        return Double.isNaN(ours) || Double.isNaN(theirs) || theirs == 0 ? "-"
                : String.format(Locale.ROOT, "%.2fx", ours / theirs);
    }
}
