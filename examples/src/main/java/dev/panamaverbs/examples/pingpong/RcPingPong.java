package dev.panamaverbs.examples.pingpong;

import dev.panamaverbs.examples.cli.ToolMain;
import java.io.IOException;
import java.io.PrintStream;

/**
 * {@code ibv_rc_pingpong} in Java, wire-compatible with the C program of rdma-core
 * ({@code ibverbs-utils}) both ways: the same options ({@link PingPongOptions}), the same TCP
 * address exchange ({@link PingPongExchange}), the same SEND/RECV ping-pong and completion
 * accounting ({@link PingPongLoop}) and the same summary lines. Server without a host, client
 * with one:
 *
 * <pre>
 * ibv_rc_pingpong -g 1              # or: ./verbs example rc-pingpong -g 1
 * ./verbs example rc-pingpong -g 1 10.0.2.15
 * </pre>
 *
 * Exit status 0 after {@code -n} exchanges each way, 1 on any failure (including a timeout, and,
 * unlike C, which only prints them, pages that fail {@code -c}'s check).
 */
public final class RcPingPong {
    private RcPingPong() {}

    private static final ToolMain<PingPongOptions> MAIN = new ToolMain<>("rc-pingpong",
            PingPongOptions::parse, PingPongOptions.USAGE, RcPingPong::pingPong, options -> "rc-pingpong: FAILED: ");

    public static void main(String[] args) {
        System.exit(MAIN.run(args, System.out, System.err));
    }

    /** Runs the ping-pong with {@code options}; returns the exit status. */
    private static int pingPong(PingPongOptions options, PrintStream out, PrintStream err) throws IOException {
        try (PingPongContext ctx = PingPongContext.open(options)) {
            int routs = ctx.postReceives(options.rxDepth());
            if (routs < options.rxDepth()) {
                err.println("Couldn't post receive (" + routs + ")");
                return 1;
            }
            out.println(ctx.local().describe("local"));
            PingPongDestination remote = options.isServer()
                    ? PingPongExchange.server(options.port(), ctx.local(), options.timeout(), ctx::connect)
                    : PingPongExchange.client(options.server(), options.port(), ctx.local(), options.timeout());
            out.println(remote.describe("remote"));
            if (!options.isServer()) {
                ctx.connect(remote);
            }
            long nanos = new PingPongLoop(ctx, options.iters(), options.rxDepth(), routs, options.timeout())
                    .run(!options.isServer());
            out.println(PingPongSummary.lines(options.size(), options.iters(), nanos));
            if (options.isServer() && options.validate()) {
                var invalid = ctx.invalidPages();
                invalid.forEach(page -> out.println("invalid data in page " + page));
                return invalid.isEmpty() ? 0 : 1;
            }
            return 0;
        }
    }
}
