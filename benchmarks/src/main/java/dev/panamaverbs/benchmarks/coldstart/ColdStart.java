package dev.panamaverbs.benchmarks.coldstart;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Cold start as whole processes (issue 11, item 5): {@link VerbsProbe} ({@code isAvailable()} then
 * {@code devices()}) against {@link PlainFfmFloor} (open libibverbs, one handle,
 * {@code ibv_get_device_list}), each in a fresh JVM, in alternating order round after round so
 * both see the same load. Prints, per program, the median wall time of the whole process (spawn to
 * exit) and of {@code main} to the answer, and the ratios. Usage: {@code ColdStart [ROUNDS]}
 * (default 21); {@code ./verbs bench --cold-start [ROUNDS]}.
 */
public final class ColdStart {
    private static final String REPORT_PREFIX = "cold-start ";
    private static final long CHILD_TIMEOUT_SECONDS = 120;

    private ColdStart() {}

    /** The line a child prints: the milliseconds from {@code start} to now, and what it found. */
    static void report(long start, String answer) {
        double ms = (System.nanoTime() - start) / 1e6;
        System.out.println(REPORT_PREFIX + String.format(Locale.ROOT, "ms=%.3f %s", ms, answer));
    }

    /**
     * Runs the comparison.
     *
     * @param args optional number of rounds
     * @throws Exception when a child fails
     */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 21;
        Samples floor = new Samples(PlainFfmFloor.class);
        Samples verbs = new Samples(VerbsProbe.class);
        run(floor); // one of each unmeasured: the page cache and the CDS archive are warm for both
        run(verbs);
        floor.clear();
        verbs.clear();
        for (int round = 0; round < rounds; round++) {
            Samples first = round % 2 == 0 ? floor : verbs;
            run(first);
            run(first == floor ? verbs : floor);
        }
        System.out.printf(Locale.ROOT, "%d rounds, medians; JVM flags: %s%n", rounds, String.join(" ", childFlags()));
        System.out.println("| program | whole process (ms) | main to answer (ms) | answer |");
        System.out.println("|---|---|---|---|");
        floor.print("plain FFM floor (open, 1 handle, ibv_get_device_list)");
        verbs.print("Verbs.isAvailable() + Verbs.devices()");
        System.out.printf(Locale.ROOT, "| ratio verbs / floor | %.2fx | %.2fx | |%n",
                verbs.median(verbs.process) / floor.median(floor.process), verbs.median(verbs.inMain) / floor.median(floor.inMain));
    }

    private static List<String> childFlags() {
        return List.of("--enable-native-access=ALL-UNNAMED"); // the JVM's defaults otherwise, as an application has
    }

    private static void run(Samples samples) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(childFlags());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), samples.program.getName()));
        long started = System.nanoTime();
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = child.getInputStream().readAllBytes();
        if (!child.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            child.destroyForcibly();
            throw new IllegalStateException(samples.program.getSimpleName() + " did not end within " + CHILD_TIMEOUT_SECONDS + " s");
        }
        double processMs = (System.nanoTime() - started) / 1e6;
        String text = new String(output, StandardCharsets.UTF_8);
        String line = text.lines().filter(l -> l.startsWith(REPORT_PREFIX)).findFirst()
                .orElseThrow(() -> new IllegalStateException(samples.program.getSimpleName() + " exited "
                        + child.exitValue() + " without its report:\n" + text));
        samples.add(processMs, line.substring(REPORT_PREFIX.length()));
    }

    /** One program's measurements. */
    private static final class Samples {
        final Class<?> program;
        final List<Double> process = new ArrayList<>();
        final List<Double> inMain = new ArrayList<>();
        String answer = "";

        Samples(Class<?> program) {
            this.program = program;
        }

        void add(double processMs, String report) {
            process.add(processMs);
            String[] fields = report.split(" ", 2);
            inMain.add(Double.parseDouble(fields[0].substring("ms=".length())));
            answer = fields[1];
        }

        void clear() {
            process.clear();
            inMain.clear();
        }

        double median(List<Double> values) {
            double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
            Arrays.sort(sorted);
            int n = sorted.length;
            return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        }

        void print(String name) {
            System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %s |%n", name, median(process), median(inMain), answer);
        }
    }
}
