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
 * @param sizeGiven   whether {@code -s} was given (perftest clamps a UD size to the MTU only when it was not, or with {@code -a})
 * @param inlineSize  {@code -I}: the largest message sent inline; 0 when not given (perftest's default on rxe, and on every device for bandwidth tests)
 * @param noPeak      {@code -N}, or forced as perftest forces it (duration mode, a SEND bandwidth server, more than 20000 iterations): the peak is printed as 0.00
 * @param atomicType  {@code -A}: the atomic operation of the atomic tests
 * @param notices     what perftest prints while it parses these options (the forced CQ moderation and inline size)
 * @param cqModerationGiven whether {@code -Q} was given (perftest forces 1 above 8 KiB only when it was not)
 * @param serviceLevel {@code -S}: the service level of the path (address handle on UD), 0 to 15; not with {@code -R}
 * @param qpTimeout   {@code -u}: the RC local ACK timeout, 4.096 us * 2^timeout (perftest's default 14)
 * @param outReads    {@code -o}: outstanding RDMA READs/atomics (READ and atomic tests); {@value #DEVICE_OUT_READS}
 *                    (not given, or 0 or less) for the device's {@code max_qp_rd_atom}, as perftest
 * @param rxDepth     {@code -r}: the receive depth asked for (512 on the SEND tests, 1 on the
 *                    others, when not given); {@link #receiveDepth} applies perftest's cuts
 * @param events      {@code -e}: wait for completions on a completion channel ({@code ibv_get_cq_event}) instead of
 *                    polling (not on WRITE tests, not with {@code -D})
 * @param duplex      {@code -b}: bidirectional, both sides run the test and each prints the sum of both
 *                    sides' figures (bandwidth tests)
 */
public record PerftestOptions(TestKind test, String server, int port, String device, int ibPort, int gidIndex, int size,
                              int iterations, int durationSeconds, boolean allSizes, int txDepth, int postList,
                              int cqModeration, Connection connection, int mtu, boolean reportGbits, boolean rdmaCm,
                              Duration timeout, List<SizeSeries.Step> series, boolean sizeGiven, int inlineSize,
                              boolean noPeak, AtomicType atomicType, List<Notice> notices, boolean cqModerationGiven,
                              int serviceLevel, int qpTimeout, int outReads, int rxDepth, boolean events,
                              boolean duplex, int queuePairs, boolean cmExchange) {
    /** Defensive copies of the lists. */
    public PerftestOptions {
        series = List.copyOf(series);
        notices = List.copyOf(notices);
    }

    /** perftest's {@code -A}: the atomic operation, by its name on the command line. */
    public enum AtomicType { CMP_AND_SWAP, FETCH_AND_ADD }

    /**
     * A line perftest prints while it checks its options, before any device is opened.
     *
     * @param text     the line
     * @param toStderr whether perftest prints it on stderr (else stdout, after its dashed line)
     */
    public record Notice(String text, boolean toStderr) {}

    /** perftest's {@code DEF_RX_SEND}: the receive depth of the SEND tests. */
    static final int DEFAULT_RX_SEND = 512;
    /** perftest's {@code DEF_RX_RDMA}: the receive depth of the other tests, and the most {@code -r} may ask there. */
    static final int DEFAULT_RX_RDMA = 1;
    /** perftest's {@code MAX_QP_NUM}: the most {@code -q} takes. */
    static final int MAX_QP_NUM = 16384;
    /** perftest's {@code MAX_RX}: the largest {@code -r}. */
    static final int MAX_RX = 16384;
    /** perftest's {@code UC_MAX_RX}: the receive depth bound of UD and UC. */
    static final int UC_MAX_RX = 16000;
    /** perftest's {@code MSG_SIZE_CQ_MOD_LIMIT}: above it, CQ moderation defaults to 1. */
    static final int MSG_SIZE_CQ_MOD_LIMIT = 8192;
    /** perftest's {@code MAX_INLINE}. */
    static final int MAX_INLINE = 912;
    /** perftest's {@code MAX_INLINE_UD}. */
    static final int MAX_INLINE_UD = 884;
    /** perftest's {@code DEF_QP_TIME}: the RC ACK timeout exponent. */
    static final int DEFAULT_QP_TIMEOUT = 14;
    /** perftest's {@code DEF_SIZE_ATOMIC}: the atomic tests' one message size. */
    static final int ATOMIC_SIZE = 8;
    /** Above this many iterations perftest does not compute the peak ({@code -N} implied). */
    static final int PEAK_ITERATIONS_LIMIT = 20000;

    /** {@code -o} not given (or 0 or less): the device's maximum, as perftest's {@code ctx_set_out_reads}. */
    public static final int DEVICE_OUT_READS = 0;

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
              -n, --iters=<iters>        iterations (at least 5, default 1000; write_bw 5000)
              -D, --duration=<seconds>   run for <seconds> instead of -n
              -a, --all                  run sizes from 2 till 2^23 (not atomic tests)
              -A, --atomic_type=<type>   CMP_AND_SWAP or FETCH_AND_ADD (atomic tests; default FETCH_AND_ADD)
              -t, --tx-depth=<dep>       size of tx queue (default 1 lat, 128 bw)
              -l, --post_list=<list size> post lists of requests, chained in one post (bw tests)
              -Q, --cq-mod=<n>           generate a completion every <n> requests (default 100 bw;
                                         1 above 8192 bytes)
              -I, --inline_size=<size>   max size of message to be sent inline (default 0; not READ/atomic)
              -o, --outs=<num>           outstanding reads/atomics (READ/atomic tests; default the device's max)
              -N, --noPeak               cancel peak-bw calculation (bw tests)
              -S, --sl=<sl>              service level 0-15 (default 0; not with -R)
              -u, --qp-timeout=<timeout> QP timeout, 4 usec * 2^timeout, 0-31 (default 14)
              -r, --rx-depth=<dep>       receive queue depth, 1-16384 (default 512 SEND tests; 1, the
                                         only value, on the others)
              -e, --events               sleep on CQ events instead of polling (not WRITE, not with -D)
              -b, --bidirectional        both sides run the test (bw tests)
              -q, --qp=<num of qp's>     queue pairs, 1-16384, each running -n iterations (bw tests;
                                         with -R one rdma_cm connection each)
              -c, --connection=<RC/UC/UD> connection type (default RC)
              -m, --mtu=<mtu>            MTU size: 256 - 4096 (default port mtu)
              -F, --CPU-freq             accepted, as perftest's (no CPU frequency check here)
              -R, --rdma_cm              connect QPs with rdma_cm, and exchange data over it (RC, UD)
              -z, --com_rdma_cm          exchange data over rdma_cm, connect QPs as without it
                  --report_gbits         report bandwidth in Gb/s instead of MB/s
                  --timeout=<seconds>    bound on every wait (default 60; not a perftest option)
                  --sizes=<size>[:<iters>],...  one run per size, each its own connection, the
                                         i-th on port <port>+i, in this one process (not a
                                         perftest option; the peer may be one perftest per size;
                                         the atomic tests take only 8)
            perftest's other options are refused, by name, as not supported yet.
            """;

    /** perftest's short options the Java perftest does not implement, with their long names. */
    private static final Map<Character, String> UNSUPPORTED = Map.ofEntries(
            Map.entry('C', "report-cycles"),
            Map.entry('f', "margin"), Map.entry('g', "mcg"), Map.entry('h', "help"), Map.entry('H', "report-histogram"),
            Map.entry('L', "hop_limit"), Map.entry('M', "MGID"), Map.entry('O', "dualport"),
            Map.entry('T', "tos"),
            Map.entry('U', "report-unsorted"), Map.entry('V', "version"),
            Map.entry('w', "limit_bw"), Map.entry('W', "report-counters"), Map.entry('X', "vector"),
            Map.entry('y', "limit_msgrate"));

    /** perftest 4.5's long-only options that the Java perftest does not implement. */
    private static final java.util.Set<String> UNSUPPORTED_LONG = java.util.Set.of("aes_block_size", "burst_size", "cpu_util",
            "disable_pcie_relaxed", "dlid", "dont_xchg_versions", "force-link", "inline_recv", "ipv6", "latency_gap",
            "log_active_dci_streams", "log_dci_streams", "mmap", "mmap-offset", "mr_per_qp", "odp", "out_json",
            "out_json_file", "output", "perform_warm_up", "pkey_index", "rate_limit", "rate_limit_type", "rate_units",
            "recv_post_list", "report-both", "report-per-port", "retry_count", "reversed", "run_infinitely", "source_ip",
            "tclass", "typical_pkt_size", "use-srq", "use_hugepages", "use_old_post_send", "wait_destroy");

    private static final GetOpt GETOPT = new GetOpt("p:d:i:x:s:n:D:aA:t:l:Q:I:NS:u:c:m:FRG2:3:bCef:ghHL:M:o:Oq:r:T:UVw:W:X:y:z",
            longNames());

    private static Map<String, Character> longNames() {
        Map<String, Character> names = new java.util.HashMap<>(Map.ofEntries(
                Map.entry("port", 'p'), Map.entry("ib-dev", 'd'), Map.entry("ib-port", 'i'), Map.entry("gid-index", 'x'),
                Map.entry("size", 's'), Map.entry("iters", 'n'), Map.entry("duration", 'D'), Map.entry("all", 'a'),
                Map.entry("atomic_type", 'A'), Map.entry("tx-depth", 't'), Map.entry("post_list", 'l'),
                Map.entry("cq-mod", 'Q'), Map.entry("inline_size", 'I'), Map.entry("noPeak", 'N'),
                Map.entry("sl", 'S'), Map.entry("qp-timeout", 'u'), Map.entry("outs", 'o'), Map.entry("rx-depth", 'r'),
                Map.entry("events", 'e'), Map.entry("bidirectional", 'b'),
                Map.entry("qp", 'q'), Map.entry("com_rdma_cm", 'z'),
                Map.entry("connection", 'c'), Map.entry("mtu", 'm'), Map.entry("CPU-freq", 'F'), Map.entry("rdma_cm", 'R'),
                Map.entry("report_gbits", 'G'), Map.entry("timeout", '2'), Map.entry("sizes", '3')));
        UNSUPPORTED.forEach((letter, name) -> names.put(name, letter));
        return names;
    }

    /**
     * The long names of the options the twin implements (perftest's, and the twin's own
     * {@code timeout} and {@code sizes}), each with its short letter: the option table the
     * interop option-table test checks its rows against.
     */
    public static Map<String, Character> implementedOptions() {
        Map<String, Character> implemented = new java.util.TreeMap<>();
        longNames().forEach((name, letter) -> {
            if (!UNSUPPORTED.containsKey(letter)) {
                implemented.put(name, letter);
            }
        });
        return implemented;
    }

    /** The long names of perftest's options the twin refuses as not implemented (short and long-only). */
    public static java.util.Set<String> refusedOptions() {
        java.util.Set<String> refused = new java.util.TreeSet<>(UNSUPPORTED.values());
        refused.addAll(UNSUPPORTED_LONG);
        return refused;
    }

    /** Whether this side is the server (no host given). */
    public boolean isServer() {
        return server == null;
    }

    /**
     * Parses {@code TEST [OPTIONS] [HOST]}; a bad option is an {@link IllegalArgumentException}
     * naming it, with perftest's own text where perftest refuses it too, and an option of
     * perftest's that the Java perftest does not implement is refused by name.
     */
    public static PerftestOptions parse(String... args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("no test given");
        }
        TestKind test = TestKind.byName(args[0]);
        String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
        refuseUnsupportedLongOptions(rest);
        GetOpt.Parsed parsed = GETOPT.parse(rest);
        boolean latency = test.isLatency();
        TestKind.Verb verb = test.verb();
        boolean atomic = verb == TestKind.Verb.ATOMIC;
        int port = OobChannel.DEFAULT_PORT;
        String device = null;
        int ibPort = 1;
        int gidIndex = AUTO_GID;
        int size = atomic ? ATOMIC_SIZE : latency ? 2 : 65536;
        boolean sizeGiven = false;
        int iterations = test == TestKind.WRITE_BW ? 5000 : 1000;   // DEF_ITERS_WB, else DEF_ITERS
        int duration = 0;
        boolean all = false;
        int txDepth = latency ? 1 : 128;
        int postList = 1;
        int cqMod = latency ? 1 : 100;
        boolean cqModGiven = false;
        int inline = -1;   // DEF_INLINE: not given
        boolean noPeak = false;
        AtomicType atomicType = AtomicType.FETCH_AND_ADD;
        int serviceLevel = 0;
        int qpTimeout = DEFAULT_QP_TIMEOUT;
        int outReads = DEVICE_OUT_READS;
        int rxDepth = verb == TestKind.Verb.SEND ? DEFAULT_RX_SEND : DEFAULT_RX_RDMA;
        boolean events = false;
        boolean duplex = false;
        int queuePairs = 1;
        boolean cmExchange = false;
        Connection connection = Connection.RC;
        int mtu = 0;
        boolean gbits = false;
        boolean rdmaCm = false;
        Duration timeout = Duration.ofSeconds(60);
        List<SizeSeries.Step> series = List.of();
        List<Notice> notices = new java.util.ArrayList<>();
        for (GetOpt.Option option : parsed.options()) {
            String v = option.value();
            char letter = option.letter();
            if (UNSUPPORTED.containsKey(letter)) {
                throw new IllegalArgumentException("-" + letter + " (--" + UNSUPPORTED.get(letter)
                        + ") is not supported by the Java perftest yet");
            }
            switch (letter) {
                case 'p' -> port = range(v, "port", 1, 65535);
                case 'd' -> device = v;
                case 'i' -> ibPort = range(v, "IB port", 1, 3);
                case 'x' -> gidIndex = range(v, "gid index", 0, 64);
                case 's' -> {
                    size = range(v, "size", 1, MAX_SIZE);
                    sizeGiven = true;
                }
                case 'n' -> iterations = range(v, "Iteration num", 5, 100_000_000);
                case 'D' -> duration = range(v, "duration", 1, Integer.MAX_VALUE);
                case 'a' -> all = true;
                case 'A' -> atomicType = atomicType(verb, v);
                case 't' -> txDepth = range(v, "tx depth", 1, 15000);
                case 'l' -> postList = range(v, "post list", 1, 15000);
                case 'Q' -> {
                    cqMod = range(v, "CQ moderation", 1, 1024);
                    cqModGiven = true;
                }
                case 'I' -> {
                    if (verb == TestKind.Verb.READ || atomic) {
                        throw new IllegalArgumentException("Inline feature not available on READ/Atomic verbs");
                    }
                    inline = range(v, "Max inline", 0, MAX_INLINE);
                }
                case 'N' -> {
                    if (latency) {
                        throw new IllegalArgumentException("NoPeak only valid for BW tests");
                    }
                    noPeak = true;
                }
                case 'S' -> serviceLevel = serviceLevel(v);
                case 'u' -> qpTimeout = range(v, "qp timeout", 0, 31);
                case 'o' -> {
                    // perftest: strtol, no range; 0 or less means the device's maximum
                    if (verb != TestKind.Verb.READ && !atomic) {
                        throw new IllegalArgumentException("Setting Outstanding reads only available on READ verb");
                    }
                    outReads = (int) Math.max(DEVICE_OUT_READS, Math.min(Integer.MAX_VALUE, GetOpt.number(v, "outs")));
                }
                case 'r' -> {
                    rxDepth = range(v, "Rx depth", 1, MAX_RX);
                    if (verb != TestKind.Verb.SEND && rxDepth > DEFAULT_RX_RDMA) {
                        throw new IllegalArgumentException("On RDMA verbs rx depth can be only 1");
                    }
                }
                case 'e' -> {
                    if (verb == TestKind.Verb.WRITE) {
                        throw new IllegalArgumentException("Events feature not available on WRITE verb");
                    }
                    events = true;
                }
                case 'b' -> {
                    if (latency) {
                        throw new IllegalArgumentException("Bidirectional is only available in BW test");
                    }
                    duplex = true;
                }
                case 'q' -> {
                    queuePairs = range(v, "num of Qps", 1, MAX_QP_NUM);
                    if (latency) {
                        throw new IllegalArgumentException("Multiple QPs only available on bw tests");
                    }
                }
                case 'c' -> connection = connection(v);
                case 'm' -> mtu = mtu(v);
                case 'F' -> { }
                case 'R' -> rdmaCm = true;
                case 'z' -> cmExchange = true;
                case 'G' -> gbits = true;
                case '2' -> timeout = Duration.ofSeconds(range(v, "timeout", 1, 86_400));
                case '3' -> series = SizeSeries.parse(v);
                default -> throw new IllegalArgumentException("unexpected option -" + letter);
            }
        }
        if (atomic && (size != ATOMIC_SIZE || all || series.stream().anyMatch(run -> run.size() != ATOMIC_SIZE))) {
            // perftest 4.5 refuses -s and -a alike on the atomic tests, with this text; a --sizes entry other than 8 too.
            throw new IllegalArgumentException("Message size cannot be changed for Atomic tests");
        }
        if (connection == Connection.UD && verb != TestKind.Verb.SEND) {
            throw new IllegalArgumentException("UD connection is only possible in SEND verb");
        }
        if (connection == Connection.UC && (verb == TestKind.Verb.READ || atomic)) {
            throw new IllegalArgumentException("UC connection not possible in READ/ATOMIC verbs");
        }
        if (rdmaCm && connection == Connection.UC) {
            throw new IllegalArgumentException("UC is not supported in librdmacm");
        }
        // perftest 4.5 takes every combination below (its parser, and Debian's binary, refuse none of them).
        if (events && duration > 0) {
            throw new IllegalArgumentException("Duration mode doesn't work with events.");
        }
        if (all && duration > 0) {
            throw new IllegalArgumentException("Duration mode (-D) cannot run all sizes (-a)");
        }
        // An atomic test's series repeats its one size (the sweep's warm-up run, then the measured one).
        if (!series.isEmpty() && (all || duration > 0)) {
            throw new IllegalArgumentException("--sizes cannot be combined with -a or -D");
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
                cqMod = postList;
                notices.add(new Notice("Post List requested - CQ moderation will be the size of the post list", false));
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
        if (txDepth > iterations && !latency && duration == 0) {
            txDepth = iterations;   // perftest: tx depth is cut to the iterations
        }
        if (series.isEmpty()) {
            cqMod = largeMessageCqModeration(size, connection, all, cqMod, cqModGiven, postList, notices);
        }
        if (cqMod > txDepth) {
            cqMod = txDepth;
        }
        if (connection == Connection.UD && inline > MAX_INLINE_UD) {
            notices.add(new Notice("Setting inline size to " + MAX_INLINE_UD + " (Max inline size in UD)", true));
            inline = MAX_INLINE_UD;
        }
        String server = parsed.operands().isEmpty() ? null : parsed.operands().getFirst();
        noPeak |= forcedNoPeak(test, server == null && !duplex, duration, iterations);
        return new PerftestOptions(test, server, port, device, ibPort, gidIndex, size, iterations, duration, all, txDepth,
                postList, cqMod, connection, mtu, gbits, rdmaCm, timeout, series, sizeGiven, Math.max(0, inline), noPeak,
                atomicType, notices, cqModGiven, serviceLevel, qpTimeout, outReads, rxDepth, events, duplex, queuePairs,
                cmExchange || rdmaCm);
    }

    /**
     * perftest's CQ moderation for a large message: above {@value #MSG_SIZE_CQ_MOD_LIMIT} bytes (not
     * on UD, not with {@code -a}) it is 1 unless {@code -Q} was given; a {@code -Q} above 1 there
     * gets perftest's warning. A post list sets it before this, as in perftest.
     */
    private static int largeMessageCqModeration(int size, Connection connection, boolean all, int cqMod, boolean cqModGiven,
                                                int postList, List<Notice> notices) {
        if (size <= MSG_SIZE_CQ_MOD_LIMIT || connection == Connection.UD || all || postList > 1) {
            return cqMod;
        }
        if (!cqModGiven) {
            return 1;
        }
        if (cqMod > 1) {
            notices.add(new Notice("Warning: Large message requested and CQ moderation enabled\n"
                    + "Warning: It can lead to inaccurate results", false));
        }
        return cqMod;
    }

    /** Where perftest turns the peak off itself: duration mode, a SEND bandwidth server (not bidirectional), over 20000 iterations. */
    private static boolean forcedNoPeak(TestKind test, boolean server, int duration, int iterations) {
        if (test.isLatency()) {
            return false;
        }
        return duration > 0 || (test.verb() == TestKind.Verb.SEND && server) || iterations > PEAK_ITERATIONS_LIMIT;
    }

    /** perftest's {@code -S}: 0 to 15, with its text above. */
    private static int serviceLevel(String text) {
        long value = GetOpt.number(text, "SL");
        if (value < 0 || value > 15) {
            throw new IllegalArgumentException("Only 15 Service levels");
        }
        return (int) value;
    }

    /** perftest's {@code -A}: only on the atomic tests, one of the two names. */
    private static AtomicType atomicType(TestKind.Verb verb, String name) {
        if (verb != TestKind.Verb.ATOMIC) {
            throw new IllegalArgumentException("You are not running the atomic_lat/bw test!\n"
                    + " To change the atomic action type, you must run one of the atomic tests");
        }
        return switch (name) {
            case "CMP_AND_SWAP" -> AtomicType.CMP_AND_SWAP;
            case "FETCH_AND_ADD" -> AtomicType.FETCH_AND_ADD;
            default -> throw new IllegalArgumentException("Invalid Atomic type! please choose from {CMP_AND_SWAP,FETCH_AND_ADD}");
        };
    }

    /** Refuses perftest's long-only options that the Java perftest does not implement, by name. */
    private static void refuseUnsupportedLongOptions(String[] args) {
        for (String arg : args) {
            if (arg.equals("--")) {
                return;
            }
            if (arg.startsWith("--")) {
                int eq = arg.indexOf('=');
                String name = arg.substring(2, eq < 0 ? arg.length() : eq);
                if (UNSUPPORTED_LONG.contains(name)) {
                    throw new IllegalArgumentException("--" + name + " is not supported by the Java perftest yet");
                }
            }
        }
    }

    /**
     * perftest's receive depth ({@code force_dependecies}): {@code -r} (512 when
     * not given) for the SEND tests, cut to the iterations; on UD and UC a depth still at
     * 512 becomes the iterations up to {@code UC_MAX_RX}; made even
     * (perftest's work-around for an odd depth) unless with {@code -a}. 1 for the other verbs.
     */
    public int receiveDepth() {
        if (test.verb() != TestKind.Verb.SEND) {
            return DEFAULT_RX_RDMA;
        }
        int depth = rxDepth;
        if (durationSeconds == 0) {
            depth = Math.min(depth, iterations);
            if (connection != Connection.RC && depth == DEFAULT_RX_SEND) {
                depth = Math.min(iterations, UC_MAX_RX);
            }
        }
        if (depth % 2 == 1 && !allSizes) {
            depth++;
        }
        return depth;
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
        int runCqModeration = largeMessageCqModeration(step.size(), connection, false, cqModeration, cqModerationGiven, postList,
                new java.util.ArrayList<>());
        return new PerftestOptions(test, server, port + index, device, ibPort, gidIndex, step.size(), runIterations,
                durationSeconds, false, runTxDepth, postList, Math.min(runCqModeration, runTxDepth), connection, mtu, reportGbits,
                rdmaCm, timeout, List.of(), true, inlineSize, noPeak || forcedNoPeak(test, isServer() && !duplex, 0, runIterations),
                atomicType, List.of(), cqModerationGiven, serviceLevel, qpTimeout, outReads, rxDepth, events, duplex,
                queuePairs, cmExchange);
    }

    /**
     * The same size with UD's limit: a message above the MTU is cut to it, with perftest's notice
     * on {@code err}, when its size was not given or with {@code -a}; a given {@code -s} above the
     * MTU is refused with perftest's text. Other connections, and sizes that fit, are unchanged.
     */
    public PerftestOptions fitToUdMtu(int mtuBytes, java.io.PrintStream err) {
        if (connection != Connection.UD || (allSizes ? MAX_SIZE : size) <= mtuBytes) {
            return this;
        }
        if (sizeGiven && !allSizes) {
            throw new IllegalArgumentException("Max message size in UD cannot be greater than MTU");
        }
        err.println(" Max msg size in UD is MTU " + mtuBytes);
        err.println(" Changing to this MTU");
        return new PerftestOptions(test, server, port, device, ibPort, gidIndex, mtuBytes, iterations, durationSeconds,
                allSizes, txDepth, postList, cqModeration, connection, mtu, reportGbits, rdmaCm, timeout, series, sizeGiven,
                inlineSize, noPeak, atomicType, notices, cqModerationGiven, serviceLevel, qpTimeout, outReads, rxDepth, events,
                duplex, queuePairs, cmExchange);
    }

    /** A number in {@code [min, max]}; else perftest's {@code CHECK_VALUE} text: "WHAT should be between MIN and MAX". */
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
