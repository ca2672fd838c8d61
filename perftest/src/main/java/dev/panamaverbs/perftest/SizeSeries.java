package dev.panamaverbs.perftest;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --sizes=SIZE[:ITERS],...} (not a perftest option): the test once per size, each run its
 * own connection and verbs objects as a separate perftest process would have, the i-th on port
 * {@code -p} + i, all in this one JVM. The peer may be Debian's perftest, one process per size:
 * that is how a two-host sweep pairs one Java process with C (perftest 4.5 has no size list,
 * and {@code -a} goes to 8 MiB). A client retries connecting to a run's port (bounded by
 * {@code --timeout}) while it is refused, since the peer's server for that run starts only once
 * its previous run has ended.
 */
final class SizeSeries {
    /** How long a refused client waits before it tries again. */
    private static final long RETRY_MILLIS = 50;

    /** One run: its message size, and its iterations (0: {@code -n}'s). */
    record Step(int size, int iterations) {}

    private SizeSeries() {}

    /** Parses {@code 2:1000,64,65536:200}; a bad entry is an {@link IllegalArgumentException} naming it. */
    static List<Step> parse(String text) {
        List<Step> steps = new ArrayList<>();
        for (String entry : text.split(",", -1)) {
            String[] parts = entry.strip().split(":", -1);
            if (parts.length > 2 || parts[0].isEmpty()) {
                throw new IllegalArgumentException("--sizes: bad entry '" + entry + "' (SIZE or SIZE:ITERS)");
            }
            int size = number(parts[0], "size", 1, PerftestOptions.MAX_SIZE);
            int iterations = parts.length == 2 ? number(parts[1], "iterations", 5, 100_000_000) : 0;
            steps.add(new Step(size, iterations));
        }
        return List.copyOf(steps);
    }

    private static int number(String text, String what, int min, int max) {
        try {
            int value = Integer.parseInt(text.strip());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--sizes: " + what + " should be between " + min + " and " + max + ", got '" + text + "'");
    }

    /** Runs the series: each run as one {@link Session}; the first failure ends it. */
    static int run(PerftestOptions options, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        for (int i = 0; i < options.series().size(); i++) {
            PerftestOptions run = options.seriesRun(i);
            long deadline = System.nanoTime() + run.timeout().toNanos();
            while (true) {
                try {
                    int status = new Session(run, out, err).run();
                    if (status != 0) {
                        return status;
                    }
                    break;
                } catch (IOException e) {
                    // Refused: the peer's server for this run is not listening yet. Nothing was printed.
                    if (run.isServer() || !(e.getCause() instanceof ConnectException) || System.nanoTime() > deadline) {
                        throw e;
                    }
                    Thread.sleep(RETRY_MILLIS);
                }
            }
            out.flush();
        }
        return 0;
    }
}
