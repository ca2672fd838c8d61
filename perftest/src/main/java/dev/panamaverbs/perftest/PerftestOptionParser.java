package dev.panamaverbs.perftest;

import static dev.panamaverbs.perftest.PerftestOptions.*;

import dev.panamaverbs.examples.cli.GetOpt;
import dev.panamaverbs.perftest.wire.OobChannel;
import dev.panamaverbs.perftest.wire.VersionField;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * perftest's option parser for the twin ({@code parser} and {@code force_dependecies} in perftest's
 * {@code perftest_parameters.c}): its option letters and long names, its defaults, its checks
 * with its own message text, and its clamps and notices.
 */
public final class PerftestOptionParser {
    private PerftestOptionParser() {}

    private static final GetOpt GETOPT = new GetOpt("p:d:i:x:s:n:D:aA:t:l:Q:I:NS:u:c:m:FRG0:1:2:3:45:6:7:8:9!@:bCef:ghHL:M:o:Oq:r:T:UVw:W:X:y:z",
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
                Map.entry("report_gbits", 'G'), Map.entry("timeout", '2'), Map.entry("sizes", '3'),
                Map.entry("help", 'h'), Map.entry("version", 'V'), Map.entry("report-cycles", 'C'),
                Map.entry("report-histogram", 'H'), Map.entry("report-unsorted", 'U'), Map.entry("limit_bw", 'w'),
                Map.entry("limit_msgrate", 'y'), Map.entry("hop_limit", 'L'), Map.entry("dualport", 'O'),
                Map.entry("odp", '4'), Map.entry("rate_limit", '5'), Map.entry("rate_limit_type", '6'),
                Map.entry("retry_count", '7'), Map.entry("wait_destroy", '8'), Map.entry("use_old_post_send", '9'),
                Map.entry("tos", 'T'), Map.entry("vector", 'X'), Map.entry("pkey_index", '0'), Map.entry("tclass", '1'),
                Map.entry("perform_warm_up", '!'), Map.entry("output", '@')));
        PerftestRefusals.UNSUPPORTED.forEach((letter, name) -> names.put(name, letter));
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
            if (!PerftestRefusals.UNSUPPORTED.containsKey(letter) && !PerftestRefusals.ALWAYS_REFUSED.contains(name)) {
                implemented.put(name, letter);
            }
        });
        return implemented;
    }

    /**
     * The long names of perftest's options the twin refuses: by name as not implemented, with the
     * reason (a provider's own feature, what the device reports), or as perftest refuses it too.
     */
    public static java.util.Set<String> refusedOptions() {
        return PerftestRefusals.names();
    }

    /**
     * Parses {@code TEST [OPTIONS] [HOST]}; a bad option is an {@link IllegalArgumentException}
     * naming it, with perftest's own text where perftest refuses it too, and an option of
     * perftest's that the Java perftest does not implement is refused by name.
     *
     * @param args the test's name, its options and the host
     * @return the options
     */
    static PerftestOptions parse(String... args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("no test given");
        }
        TestKind test = TestKind.byName(args[0]);
        String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
        PerftestRefusals.refuseLongOptions(rest);
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
        boolean cycles = false;
        boolean histogram = false;
        boolean unsorted = false;
        double limitBw = ReportOptions.NO_LIMIT;
        double limitMsgRate = ReportOptions.NO_LIMIT;
        boolean hopLimitGiven = false;
        int tos = LinkOptions.NOT_GIVEN;
        int vector = LinkOptions.NOT_GIVEN;
        int retryCount = LinkOptions.NOT_GIVEN;
        int waitDestroy = 0;
        int pkeyIndex = 0;
        int trafficClass = 0;
        boolean warmUp = false;
        ReportOptions.Output output = ReportOptions.Output.FULL;
        double rateLimit = 0;
        String rateLimitType = null;
        List<DeviceFeature> features = new java.util.ArrayList<>();
        for (GetOpt.Option option : parsed.options()) {
            String v = option.value();
            char letter = option.letter();
            PerftestRefusals.refuseShortOption(letter);
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
                case 'c' -> {
                    connection = PerftestRefusals.connection(v, verb);
                    if (v.equals("XRC")) {
                        features.add(DeviceFeature.XRC);
                    }
                }
                case 'm' -> mtu = mtu(v);
                case 'F' -> { }
                case 'R' -> rdmaCm = true;
                case 'z' -> cmExchange = true;
                case 'G' -> gbits = true;
                case '2' -> timeout = Duration.ofSeconds(range(v, "timeout", 1, 86_400));
                case '3' -> series = SizeSeries.parse(v);
                case 'h' -> throw new PrintAndExit(PerftestUsage.of(test));
                case 'V' -> throw new PrintAndExit("Version: " + VersionField.PERFTEST_4_5_VERSION + "\n");
                case 'C' -> cycles = latencyOnly(latency, "Available only on Latency tests");
                case 'H' -> histogram = latencyOnly(latency, "Available only on Latency tests");
                case 'U' -> unsorted = latencyOnly(latency, "is Available only on Latency tests");
                case 'w' -> limitBw = limit(v, "Invalid Minimum BW Limit");
                case 'y' -> limitMsgRate = limit(v, "Invalid Minimum msgRate Limit");
                case 'O' -> features.add(DeviceFeature.DUAL_PORT);
                case '4' -> features.add(DeviceFeature.ON_DEMAND_PAGING);
                case '5' -> rateLimit = PerftestRefusals.rateLimit(v, LEADING_FLOAT);
                case '6' -> rateLimitType = PerftestRefusals.rateLimitType(v);
                case '7' -> retryCount = retryCount(v);
                case '8' -> waitDestroy = range(v, "wait_destroy", 0, 86_400);
                case '9' -> { }   // --use_old_post_send: the twin always posts with ibv_post_send
                // perftest takes any int for both; the twin refuses what the verbs' fields cannot hold
                case '0' -> pkeyIndex = range(v, "pkey_index", 0, 65535);
                case '1' -> trafficClass = range(v, "tclass", 0, 255);
                case '@' -> output = ReportOptions.Output.named(v);
                case '!' -> warmUp = true;   // perftest takes it on every test and warms up WRITE/READ/atomic bandwidth
                case 'T' -> tos = range(v, "TOS", 0, 255);
                case 'X' -> {
                    if (verb == TestKind.Verb.WRITE) {
                        throw new IllegalArgumentException("Events feature not available on WRITE verb");
                    }
                    vector = range(v, "EQN", 0, 2048);
                }
                case 'L' -> {
                    range(v, "Hop Limit", 0, 255);
                    hopLimitGiven = true;
                }
                default -> throw new IllegalArgumentException("unexpected option -" + letter);
            }
        }
        if (tos != LinkOptions.NOT_GIVEN) {
            if (!rdmaCm) {
                throw new IllegalArgumentException("TOS only valid for rdma_cm based QP and RawEth QP");
            }
            throw new IllegalArgumentException("-T (--tos) with -R is not supported by the Java perftest yet: it needs"
                    + " rdma_set_option (RDMA_OPTION_ID_TOS), which the library does not wrap");
        }
        if (vector != LinkOptions.NOT_GIVEN && !events) {
            throw new IllegalArgumentException("Events must be enabled to select a completion vector");
        }
        if (rateLimit > 0 || rateLimitType != null) {
            PerftestRefusals.rateLimiter(rateLimitType, features);
        }
        if (output != ReportOptions.Output.FULL && latency != (output == ReportOptions.Output.LATENCY)) {
            // perftest's force_dependencies, after its dashed line
            throw new IllegalArgumentException(latency ? "Output verbosity level for LAT can be: latency"
                    : "Output verbosity level for BW can be: bandwidth, message_rate");
        }
        if (hopLimitGiven) {
            // perftest sets a hop limit only on RawEth, which none of these tests runs
            throw new IllegalArgumentException("Hop limit only valid for RawEth QP");
        }
        if (atomic && (size != ATOMIC_SIZE || all || series.stream().anyMatch(run -> run.size() != ATOMIC_SIZE))) {
            // perftest 4.5 refuses -s and -a alike on the atomic tests, with this text; a --sizes entry other than 8 too.
            throw new IllegalArgumentException("Message size cannot be changed for Atomic tests");
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
                cmExchange || rdmaCm,
                new ReportOptions(cycles, histogram, unsorted, output, limitBw, limitMsgRate),
                new LinkOptions(Math.max(0, vector), retryCount, waitDestroy, pkeyIndex, trafficClass, warmUp, features));
    }

    /**
     * perftest's CQ moderation for a large message: above {@value #MSG_SIZE_CQ_MOD_LIMIT} bytes (not
     * on UD, not with {@code -a}) it is 1 unless {@code -Q} was given; a {@code -Q} above 1 there
     * gets perftest's warning. A post list sets it before this, as in perftest.
     */
    static int largeMessageCqModeration(int size, Connection connection, boolean all, int cqMod, boolean cqModGiven,
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
    static boolean forcedNoPeak(TestKind test, boolean server, int duration, int iterations) {
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

    /** perftest's {@code --retry_count}: any int not below 0, else its text. */
    private static int retryCount(String text) {
        long value = GetOpt.number(text, "retry_count");
        if (value < 0) {
            throw new IllegalArgumentException("Retry Count must be non-negative");
        }
        return (int) Math.min(value, Integer.MAX_VALUE);
    }

    /** {@code true} on a latency test; else perftest's refusal {@code message} ({@code -C}, {@code -H}, {@code -U}). */
    private static boolean latencyOnly(boolean latency, String message) {
        if (!latency) {
            throw new IllegalArgumentException(message);
        }
        return true;
    }

    /**
     * A verifier limit ({@code -w}, {@code -y}) as perftest reads it, C's {@code strtof}: the
     * number the text starts with, 0 when it starts with none; a negative one is refused with
     * {@code message}.
     */
    private static double limit(String text, String message) {
        java.util.regex.Matcher number = LEADING_FLOAT.matcher(text);
        double value = number.lookingAt() ? Double.parseDouble(number.group()) : 0;
        if (value < 0) {
            throw new IllegalArgumentException(message);
        }
        return value;
    }

    /** The number C's {@code strtof} and {@code atof} read at the start of a text. */
    static final java.util.regex.Pattern LEADING_FLOAT =
            java.util.regex.Pattern.compile("\\s*[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    /** A number in {@code [min, max]}; else perftest's {@code CHECK_VALUE} text: "WHAT should be between MIN and MAX". */
    private static int range(String text, String what, long min, long max) {
        long value = GetOpt.number(text, what);
        if (value < min || value > max) {
            throw new IllegalArgumentException(what + " should be between " + min + " and " + max);
        }
        return (int) value;
    }

    private static int mtu(String text) {
        int bytes = range(text, "mtu", 256, 4096);
        if (Integer.bitCount(bytes) != 1) {
            throw new IllegalArgumentException("Please choose mtu from {256,512,1024,2048,4096}");
        }
        return bytes;
    }
}
