package dev.panamaverbs.perftest;

import dev.panamaverbs.examples.cli.ToolMain;
import java.io.PrintStream;

/**
 * perftest's tests in Java: {@code java -jar verbs-perftest.jar TEST [OPTIONS] [HOST]} (or
 * {@code ./verbs perf TEST ...}), TEST one of write_lat send_lat read_lat atomic_lat write_bw
 * send_bw read_bw atomic_bw, with perftest's options ({@link PerftestOptions}). Without a host it
 * is the server. Either side may be Debian's perftest 4.5 ({@code ib_write_lat} ...): the
 * out-of-band protocol is perftest's (docs/perftest-protocol.md), and the result table is
 * perftest's, line for line. Exit status 0 when the test ran, 1 on any failure, with the reason
 * (a refusal by the C peer is reported with the step it happened in). Every wait is bounded by
 * {@code --timeout} (default 60 s).
 */
public final class Perftest {
    private Perftest() {}

    private static final ToolMain<PerftestOptions> MAIN = new ToolMain<>("perftest", PerftestOptions::parse,
            PerftestUsage.USAGE, Perftest::run, options -> " " + options.test().program() + " (Java): FAILED: ");

    public static void main(String[] args) {
        int status = execute(args, System.out, System.err);
        System.out.flush();
        System.exit(status);
    }

    /**
     * One invocation as {@link #main} makes it, printing to {@code out} and {@code err}, with its
     * exit status returned instead of exiting: for a caller that runs several in one JVM (the
     * interop tests' resident twin). Nothing of one invocation outlives it. {@code -h} and
     * {@code -V} print their text and give 1, as perftest.
     *
     * @param args the command line, {@code TEST [OPTIONS] [HOST]}
     * @param out  where the result table goes
     * @param err  where perftest's stderr lines and failures go
     * @return 0 when the test ran, 1 on any failure
     */
    public static int execute(String[] args, PrintStream out, PrintStream err) {
        try {
            return MAIN.run(args, out, err);
        } catch (PrintAndExit request) {
            out.print(request.text());
            return PrintAndExit.STATUS;
        }
    }

    private static int run(PerftestOptions options, PrintStream out, PrintStream err) throws Exception {
        for (PerftestOptions.Notice notice : options.notices()) {
            // perftest prints its dashed line on stdout before each of these, the text where it prints it.
            out.print(dev.panamaverbs.perftest.report.ResultTable.LINE + "\n");
            out.flush();
            (notice.toStderr() ? err : out).println(notice.text());
        }
        return options.series().isEmpty() ? new Session(options, out, err).run() : SizeSeries.run(options, out, err);
    }
}
