package dev.panamaverbs.examples.rping;

import dev.panamaverbs.examples.cli.ToolMain;
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

    private static final ToolMain<RpingOptions> MAIN = new ToolMain<>("rping", RpingOptions::parse,
            RpingOptions.USAGE, RPing::ping, options -> "rping " + (options.server() ? "server" : "client") + " failed: ");

    public static void main(String[] args) {
        System.exit(MAIN.run(args, System.out, System.err));
    }

    /** Runs the server or the client with {@code options}; returns the exit status. */
    private static int ping(RpingOptions options, PrintStream out, PrintStream err) {
        if (options.server()) {
            int pings = new RpingServer(options, out, err).run();
            if (options.debug()) {
                out.println("served " + pings + " pings");
            }
        } else {
            new RpingClient(options, out, err).run();
        }
        return 0;
    }
}
