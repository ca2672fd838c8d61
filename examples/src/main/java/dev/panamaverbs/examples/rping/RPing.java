package dev.panamaverbs.examples.rping;

import java.io.PrintStream;

/**
 * {@code rping} in Java, interoperating with rdma-core's C rping ({@code rdmacm-utils}) both
 * ways: rdma_cm connection setup, the same RDMA READ / SEND / RDMA WRITE / SEND sequence per
 * ping with {@link RpingInfo} advertisements, the same ping data ({@link RpingPattern}) and its
 * validation. Options as rping's ({@link RpingOptions}):
 *
 * <pre>
 * rping -s -a 10.0.2.15 -v                 # or: ./verbs example rping -s -a 10.0.2.15 -v
 * ./verbs example rping -c -a 10.0.2.15 -C 10 -S 100 -v -V
 * </pre>
 *
 * Exit status 0 when every ping completed (and validated with {@code -V}), or, for the server,
 * when the client disconnected; 1 on any failure, including a timeout.
 */
public final class RPing {
    private RPing() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs with {@code args}; returns the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        RpingOptions options;
        try {
            options = RpingOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("rping: " + e.getMessage());
            out.print(RpingOptions.USAGE);
            return 1;
        }
        try {
            if (options.server()) {
                int pings = new RpingServer(options, out, err).run();
                if (options.debug()) {
                    out.println("served " + pings + " pings");
                }
            } else {
                new RpingClient(options, out, err).run();
            }
            return 0;
        } catch (RuntimeException e) {
            err.println("rping " + (options.server() ? "server" : "client") + " failed: " + e);
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                err.println("  caused by: " + cause);
            }
            return 1;
        }
    }
}
