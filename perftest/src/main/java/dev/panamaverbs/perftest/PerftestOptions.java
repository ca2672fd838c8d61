package dev.panamaverbs.perftest;

import dev.panamaverbs.examples.cli.GetOpt;
import dev.panamaverbs.perftest.wire.OobChannel;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The options of one test, perftest's names and meanings for its common subset. No host operand
 * makes the server, as in perftest.
 *
 * @param test        the test ({@code write_lat} ...)
 * @param server      the server's host name or address; {@code null} on the server
 * @param port        {@code -p}: the out-of-band TCP port (rdma_cm's with {@code -R})
 * @param device      {@code -d}: the device; {@code null} for the first
 * @param ibPort      {@code -i}: the port of the device
 * @param gidIndex    {@code -x}: the GID index; {@value #AUTO_GID} to choose as perftest does (RoCE v2 IPv4 first)
 * @param size        {@code -s}: message size in bytes
 * @param iterations  {@code -n}: iterations
 * @param durationSeconds {@code -D}: run for this many seconds instead of {@code -n} (0: by iterations)
 * @param allSizes    {@code -a}: every size from 2 to 2^23 bytes
 * @param txDepth     {@code -t}: send queue depth (outstanding requests in bandwidth tests)
 * @param postList    {@code -l}: requests per post
 * @param cqModeration {@code -Q}: a completion every this many requests
 * @param connection  {@code -c}: RC, UC or UD
 * @param mtu         {@code -m}: MTU in bytes; 0 for the port's active MTU
 * @param reportGbits {@code --report_gbits}: bandwidth in Gb/s instead of MB/s
 * @param rdmaCm      {@code -R}: connect the queue pair with rdma_cm, and run the out-of-band exchange over rdma_cm too (as perftest 4.5)
 * @param timeout     {@code --timeout}: the bound on every wait (not perftest's; perftest waits for ever)
 * @param series      {@code --sizes}: one run per size, each its own connection ({@link SizeSeries}); empty for one run
 */
public record PerftestOptions(TestKind test, String server, int port, String device, int ibPort, int gidIndex, int size,
                              int iterations, int durationSeconds, boolean allSizes, int txDepth, int postList,
                              int cqModeration, Connection connection, int mtu, boolean reportGbits, boolean rdmaCm,
                              Duration timeout, List<SizeSeries.Step> series) {
    /** A defensive copy of {@code series}. */
    public PerftestOptions {
        series = List.copyOf(series);
    }

    /** {@code -x} not given. */
    public static final int AUTO_GID = -1;
    /** The largest size {@code -a} reaches: 2^23 bytes ({@code MAX_SIZE}). */
    public static final int MAX_SIZE = 1 << 23;

    /** perftest's connection types (the ones these tools run). */
    public enum Connection { RC, UC, UD }

    static final String USAGE = """
            Usage:
              TEST [OPTIONS]          start a server and wait for connection
              TEST [OPTIONS] <host>   connect to server at <host>
            TEST: write_lat send_lat read_lat atomic_lat write_bw send_bw read_bw atomic_bw
            Options (perftest's names and meanings):
              -p, --port=<port>          listen on/connect to port <port> (default 18515)
              -d, --ib-dev=<dev>         use IB device <dev> (default first device found)
              -i, --ib-port=<port>       use port <port> of IB device (default 1)
              -x, --gid-index=<index>    GID index (default: IB none, RoCE v2 IPv4 first)
              -s, --size=<size>          message size (default 2 lat, 65536 bw, 8 atomic)
              -n, --iters=<iters>        iterations (default 1000 lat, 5000 bw)
              -D, --duration=<seconds>   run for <seconds> instead of -n
              -a, --all                  run sizes from 2 till 2^23
              -t, --tx-depth=<dep>       size of tx queue (default 1 lat, 128 bw)
              -l, --post_list=<list size> post lists of requests, chained in one post (bw tests)
              -Q, --cq-mod=<n>           generate a completion every <n> requests (default 100 bw)
              -c, --connection=<RC/UC/UD> connection type (default RC)
              -m, --mtu=<mtu>            MTU size: 256 - 4096 (default port mtu)
              -F, --CPU-freq             accepted, as perftest's (no CPU frequency check here)
              -R, --rdma_cm              connect QPs with rdma_cm, and exchange data over it (RC only)
                  --report_gbits         report bandwidth in Gb/s instead of MB/s
                  --timeout=<seconds>    bound on every wait (default 60; not a perftest option)
                  --sizes=<size>[:<iters>],...  one run per size, each its own connection, the
                                         i-th on port <port>+i, in this one process (not a
                                         perftest option; the peer may be one perftest per size)
            """;

    private static final GetOpt GETOPT = new GetOpt("p:d:i:x:s:n:D:at:l:Q:c:m:FRG2:3:", Map.ofEntries(
            Map.entry("port", 'p'), Map.entry("ib-dev", 'd'), Map.entry("ib-port", 'i'), Map.entry("gid-index", 'x'),
            Map.entry("size", 's'), Map.entry("iters", 'n'), Map.entry("duration", 'D'), Map.entry("all", 'a'),
            Map.entry("tx-depth", 't'), Map.entry("post_list", 'l'), Map.entry("cq-mod", 'Q'),
            Map.entry("connection", 'c'), Map.entry("mtu", 'm'), Map.entry("CPU-freq", 'F'), Map.entry("rdma_cm", 'R'),
            Map.entry("report_gbits", 'G'), Map.entry("timeout", '2'),
            Map.entry("sizes", '3')));

    /** Whether this side is the server (no host given). */
    public boolean isServer() {
        return server == null;
    }

    /** Parses {@code TEST [OPTIONS] [HOST]}; a bad option is an {@link IllegalArgumentException} naming it. */
    public static PerftestOptions parse(String... args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("no test given");
        }
        TestKind test = TestKind.byName(args[0]);
        String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
        GetOpt.Parsed parsed = GETOPT.parse(rest);
        boolean latency = test.isLatency();
        boolean atomic = test.verb() == TestKind.Verb.ATOMIC;
        int port = OobChannel.DEFAULT_PORT;
        String device = null;
        int ibPort = 1;
        int gidIndex = AUTO_GID;
        int size = atomic ? 8 : latency ? 2 : 65536;
        int iterations = latency ? 1000 : 5000;
        int duration = 0;
        boolean all = false;
        int txDepth = latency ? 1 : 128;
        int postList = 1;
        int cqMod = latency ? 1 : 100;
        boolean cqModGiven = false;
        Connection connection = Connection.RC;
        int mtu = 0;
        boolean gbits = false;
        boolean rdmaCm = false;
        Duration timeout = Duration.ofSeconds(60);
        List<SizeSeries.Step> series = List.of();
        for (GetOpt.Option option : parsed.options()) {
            String v = option.value();
            switch (option.letter()) {
                case 'p' -> port = range(v, "port", 1, 65535);
                case 'd' -> device = v;
                case 'i' -> ibPort = range(v, "IB port", 1, 3);
                case 'x' -> gidIndex = range(v, "gid index", 0, 64);
                case 's' -> size = range(v, "size", 1, MAX_SIZE);
                case 'n' -> iterations = range(v, "iterations", 5, 100_000_000);
                case 'D' -> duration = range(v, "duration", 1, Integer.MAX_VALUE);
                case 'a' -> all = true;
                case 't' -> txDepth = range(v, "tx depth", 1, 15000);
                case 'l' -> postList = range(v, "post list", 1, 15000);
                case 'Q' -> {
                    cqMod = range(v, "CQ moderation", 1, 1024);
                    cqModGiven = true;
                }
                case 'c' -> connection = connection(v);
                case 'm' -> mtu = mtu(v);
                case 'F' -> { }
                case 'R' -> rdmaCm = true;
                case 'G' -> gbits = true;
                case '2' -> timeout = Duration.ofSeconds(range(v, "timeout", 1, 86_400));
                case '3' -> series = SizeSeries.parse(v);
                default -> throw new IllegalArgumentException("unexpected option -" + option.letter());
            }
        }
        if (atomic && size != 8) {
            throw new IllegalArgumentException("Message size cannot be changed for Atomic tests");
        }
        if (connection == Connection.UD && test.verb() != TestKind.Verb.SEND) {
            throw new IllegalArgumentException("UD connection is only possible in SEND verb");
        }
        if (connection == Connection.UC && (test.verb() == TestKind.Verb.READ || test.verb() == TestKind.Verb.ATOMIC)) {
            throw new IllegalArgumentException("UC connection not possible in READ/ATOMIC verbs");
        }
        if (rdmaCm && connection == Connection.UC) {
            throw new IllegalArgumentException("UC is not supported in librdmacm");
        }
        if (rdmaCm && connection == Connection.UD) {
            throw new IllegalArgumentException("-R (rdma_cm) with UD is not implemented by the Java perftest (RC only)");
        }
        if (all && duration > 0) {
            throw new IllegalArgumentException("Duration mode (-D) cannot run all sizes (-a)");
        }
        if (!series.isEmpty() && (all || atomic || duration > 0)) {
            throw new IllegalArgumentException("--sizes cannot be combined with -a, -D or an atomic test");
        }
        if (port + series.size() - 1 > 65535) {
            throw new IllegalArgumentException("--sizes: the last run's port " + (port + series.size() - 1) + " is above 65535");
        }
        if (postList > 1) {
            // perftest 4.5's checks and messages; the last one is ours (perftest would wait for ever).
            if (latency) {
                throw new IllegalArgumentException("Post list is supported in BW tests only");
            }
            int list = postList;
            if (duration == 0 && (iterations % list != 0
                    || series.stream().anyMatch(step -> step.iterations() > 0 && step.iterations() % list != 0))) {
                throw new IllegalArgumentException("Number of iterations must be a multiple of post list size");
            }
            if (!cqModGiven) {
                cqMod = postList; // "Post List requested - CQ moderation will be the size of the post list"
            } else if (postList % cqMod != 0) {
                throw new IllegalArgumentException("Post list size must be a multiple of CQ moderation");
            }
            if (postList > Math.min(txDepth, duration == 0 ? iterations : txDepth)) {
                throw new IllegalArgumentException("post list (-l " + postList + ") larger than the tx depth (-t " + txDepth
                        + ") or the iterations: no list would ever fit the send queue");
            }
        }
        if (parsed.operands().size() > 1) {
            throw new IllegalArgumentException("more than one host given: " + parsed.operands());
        }
        if (txDepth > iterations && !latency) {
            txDepth = iterations;   // perftest: tx depth is cut to the iterations
        }
        if (cqMod > txDepth) {
            cqMod = txDepth;
        }
        String server = parsed.operands().isEmpty() ? null : parsed.operands().getFirst();
        return new PerftestOptions(test, server, port, device, ibPort, gidIndex, size, iterations, duration, all, txDepth,
                postList, cqMod, connection, mtu, gbits, rdmaCm, timeout, series);
    }

    /**
     * The options of run {@code index} of the {@code --sizes} series: its size, its iterations
     * ({@code -n} unless it names its own), port {@code -p} + index, and no series. The tx depth
     * and CQ moderation are cut to the iterations as {@link #parse} cuts them.
     */
    PerftestOptions seriesRun(int index) {
        SizeSeries.Step step = series.get(index);
        int runIterations = step.iterations() > 0 ? step.iterations() : iterations;
        int runTxDepth = !test.isLatency() && txDepth > runIterations ? runIterations : txDepth;
        return new PerftestOptions(test, server, port + index, device, ibPort, gidIndex, step.size(), runIterations,
                durationSeconds, false, runTxDepth, postList, Math.min(cqModeration, runTxDepth), connection, mtu, reportGbits,
                rdmaCm, timeout, List.of());
    }

    private static int range(String text, String what, long min, long max) {
        long value = GetOpt.number(text, what);
        if (value < min || value > max) {
            throw new IllegalArgumentException(what + " should be between " + min + " and " + max);
        }
        return (int) value;
    }

    private static Connection connection(String text) {
        try {
            return Connection.valueOf(text.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unsupported connection type '" + text + "' (RC, UC or UD)");
        }
    }

    private static int mtu(String text) {
        int bytes = range(text, "mtu", 256, 4096);
        if (Integer.bitCount(bytes) != 1) {
            throw new IllegalArgumentException("Please choose mtu from {256,512,1024,2048,4096}");
        }
        return bytes;
    }
}
