package dev.panamaverbs.perftest;

import java.time.Duration;
import java.util.List;

/**
 * The options of one test, perftest's names and meanings for its common subset. No host operand
 * makes the server, as in perftest. {@link PerftestOptionParser} parses them and applies perftest's
 * checks, defaults and clamps.
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
 * @param queuePairs  {@code -q}: queue pairs (bandwidth tests)
 * @param cmExchange  {@code -z}, or {@code -R}: the out-of-band exchange over rdma_cm
 * @param report      the report options ({@code -C -H -U -w -y})
 * @param link        the link and path options ({@code -X --retry_count --wait_destroy}) and the device features asked for
 */
public record PerftestOptions(TestKind test, String server, int port, String device, int ibPort, int gidIndex, int size,
                              int iterations, int durationSeconds, boolean allSizes, int txDepth, int postList,
                              int cqModeration, Connection connection, int mtu, boolean reportGbits, boolean rdmaCm,
                              Duration timeout, List<SizeSeries.Step> series, boolean sizeGiven, int inlineSize,
                              boolean noPeak, AtomicType atomicType, List<Notice> notices, boolean cqModerationGiven,
                              int serviceLevel, int qpTimeout, int outReads, int rxDepth, boolean events,
                              boolean duplex, int queuePairs, boolean cmExchange, ReportOptions report,
                              LinkOptions link) {
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

    /** Whether this side is the server (no host given). */
    public boolean isServer() {
        return server == null;
    }


    /**
     * Parses {@code TEST [OPTIONS] [HOST]} ({@link PerftestOptionParser#parse}): a bad option is an
     * {@link IllegalArgumentException} naming it, with perftest's own text where perftest refuses it too.
     *
     * @param args the test's name, its options and the host
     * @return the options
     */
    public static PerftestOptions parse(String... args) {
        return PerftestOptionParser.parse(args);
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
        int runCqModeration = PerftestOptionParser.largeMessageCqModeration(step.size(), connection, false, cqModeration, cqModerationGiven, postList,
                new java.util.ArrayList<>());
        return new PerftestOptions(test, server, port + index, device, ibPort, gidIndex, step.size(), runIterations,
                durationSeconds, false, runTxDepth, postList, Math.min(runCqModeration, runTxDepth), connection, mtu, reportGbits,
                rdmaCm, timeout, List.of(), true, inlineSize, noPeak || PerftestOptionParser.forcedNoPeak(test, isServer() && !duplex, 0, runIterations),
                atomicType, List.of(), cqModerationGiven, serviceLevel, qpTimeout, outReads, rxDepth, events, duplex,
                queuePairs, cmExchange, report, link);
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
                duplex, queuePairs, cmExchange, report, link);
    }
}
