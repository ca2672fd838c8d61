package dev.panamaverbs.perftest;

import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.perftest.PerftestOptions.Connection;
import dev.panamaverbs.perftest.cm.CmOobLink;
import dev.panamaverbs.perftest.cm.CmTestConnection;
import dev.panamaverbs.perftest.report.BandwidthLimits;
import dev.panamaverbs.perftest.report.BandwidthStatistics;
import dev.panamaverbs.perftest.report.LatencyReport;
import dev.panamaverbs.perftest.report.LatencyUnit;
import dev.panamaverbs.perftest.report.ResultTable;
import dev.panamaverbs.perftest.run.BidirectionalSending;
import dev.panamaverbs.perftest.run.CompletionWaiter;
import dev.panamaverbs.perftest.run.LivenessAlarm;
import dev.panamaverbs.perftest.run.OneSidedLatency;
import dev.panamaverbs.perftest.run.PostingBandwidth;
import dev.panamaverbs.perftest.run.ReceivingBandwidth;
import dev.panamaverbs.perftest.run.SendLatency;
import dev.panamaverbs.perftest.run.WriteLatency;
import dev.panamaverbs.perftest.wire.BandwidthReportWire;
import dev.panamaverbs.perftest.wire.KeyMessage;
import dev.panamaverbs.perftest.wire.OobChannel;
import dev.panamaverbs.perftest.wire.OobLink;
import dev.panamaverbs.perftest.wire.Preamble;
import dev.panamaverbs.perftest.wire.ProtocolException;
import dev.panamaverbs.perftest.wire.SystemData;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;

/**
 * One run of a test, in perftest 4.5's order (docs/perftest-protocol.md): open the device, the
 * out-of-band link (TCP; with {@code -R} rdma_cm, {@link CmOobLink}), the preamble (version,
 * system data, MTU), the verbs objects (with {@code -R} on the test's own rdma_cm connection,
 * {@link CmTestConnection}), the key exchange, RTR/RTS (not with {@code -R}), the hand shake
 * after RTR, the test with its own synchronisation, and the end (bandwidth reports and the
 * closing hand shake). Prints what perftest prints: the test
 * description, both sides' addresses and the result table.
 */
record Session(PerftestOptions o, PrintStream out, PrintStream err, BandwidthLimits limits) {

    Session(PerftestOptions o, PrintStream out, PrintStream err) {
        this(o, out, err, o.report().limits(o.test()));
    }

    /** Runs the test; its exit status: 0, or 1 when a {@code -w}/{@code -y} limit was not reached (perftest's text on {@code err}). */

    int run() throws IOException {
        try (TestResources res = TestResources.open(o); Arena arena = Arena.ofConfined()) {
            res.noticeOutReads(out, err);
            if (o.isServer()) {
                verbose("\n************************************\n* Waiting for client to connect... *\n************************************\n");
                out.flush();
            }
            try (OobLink channel = openLink(res)) {
                Preamble preamble = Preamble.run(channel, SystemData.DEFAULT_CYCLE_BUFFER, SystemData.DEFAULT_CACHE_LINE,
                        res.offeredMtu(err));
                int mtuBytes = 1 << (preamble.mtu() + 7);
                PerftestOptions fitted;
                try {
                    fitted = o.fitToUdMtu(mtuBytes, err);
                } catch (IllegalArgumentException e) {
                    throw new ProtocolException(" " + e.getMessage() + " (" + mtuBytes + ")");
                }
                new Session(fitted, out, err, limits).runOn(res, channel, preamble, arena);
            }
            waitBeforeDestroy();
        }
        String failure = limits.failure();
        if (failure != null) {
            err.println(failure);
            return 1;
        }
        return 0;
    }

    /** After the preamble, with the options cut to UD's MTU: the verbs objects and the test. */
    private void runOn(TestResources res, OobLink channel, Preamble preamble, Arena arena) throws IOException {
        int maxSize = o.allSizes() && o.connection() != Connection.UD ? PerftestOptions.MAX_SIZE : o.size();
        int room = maxSize + (o.connection() == Connection.UD ? TestResources.UD_GRH : 0);
        try (CmTestConnection cm = o.rdmaCm() ? CmTestConnection.establish(channel, o.server(), o.port(),
                res.cmPlan(o.receiveDepth()), o.timeout()) : null) {
            if (cm != null) {
                res.adopt(cm, room, preamble.cycleBuffer());
            } else {
                res.create(room, preamble.cycleBuffer(), o.receiveDepth());
            }
            test(res, channel, preamble.mtu(), arena);
            if (cm != null) {
                cm.disconnect();
            }
        }
    }

    /** The largest message sent inline: {@code -I} (0 when not given, as perftest on rxe), at most what the queue pair takes. */
    static int inlineSize(PerftestOptions o, TestResources res) {
        return Math.min(o.inlineSize(), res.maxInline());
    }

    /** The out-of-band link: perftest's TCP connection, or with {@code -z} (and {@code -R}) its rdma_cm connection. */
    private OobLink openLink(TestResources res) throws IOException {
        if (o.cmExchange()) {
            return o.isServer() ? CmOobLink.accept(o.port(), o.timeout(), res.gidIndex())
                    : CmOobLink.connect(o.server(), o.port(), o.timeout(), res.gidIndex());
        }
        return o.isServer() ? OobChannel.accept(o.port(), o.timeout()) : OobChannel.connect(o.server(), o.port(), o.timeout());
    }

    /** From the test description to the end: key exchanges, RTR/RTS (not with {@code -R}), the hand shakes, the test. */
    private void test(TestResources res, OobLink channel, int mtu, Arena arena) throws IOException {
        if (o.report().output() == ReportOptions.Output.FULL) {
            TestInfo.print(out, o, res, 1 << (mtu + 7), inlineSize(o, res));
        }
        KeyMessage local = res.local();
        boolean rdmaFields = o.test().verb() != TestKind.Verb.SEND;
        boolean outReads = o.test().verb() == TestKind.Verb.READ;
        int count = o.queuePairs();
        for (int i = 0; i < count; i++) {
            verbose(res.local(i).describe("local", rdmaFields, outReads) + "\n");
        }
        // perftest's two per-QP loops of key exchanges (one before RTR/RTS, one after), -q messages
        // each; ib_send_bw makes its hand shake after RTR between them, the others after both.
        KeyMessage[] remotes = exchangeKeys(res, channel, count);
        for (KeyMessage remote : remotes) {
            verbose(remote.describe("remote", rdmaFields, outReads) + "\n");
        }
        KeyMessage remote = remotes[0];
        if (!o.rdmaCm()) {
            checkGidTypes(res, remote);
            res.connect(remotes, mtu);
        }
        boolean between = Schedule.handShakeAfterRtrBetweenKeyLoops(o.test());
        if (between) {
            channel.handShake(local, "the hand shake after RTR");
        }
        exchangeKeys(res, channel, count);
        if (!between) {
            channel.handShake(local, "the hand shake after RTR");
        }
        for (int i = 0; i < Schedule.extraHandShakesBeforeRun(o.test()); i++) {
            channel.handShake(local, "the hand shake before the test");
        }
        CompletionWaiter completions = new CompletionWaiter(res.completionQueue(), arena, 64, o.timeout(), o.isServer(),
                o.events());
        if (o.test().isLatency()) {
            latency(res, remote, channel, completions, arena);
        } else {
            bandwidth(res, remotes, channel, completions, arena);
        }
    }

    /** One of perftest's per-QP key-exchange loops: a key message each way per queue pair, in order; the peer's. */
    private static KeyMessage[] exchangeKeys(TestResources res, OobLink channel, int count) throws IOException {
        KeyMessage[] remotes = new KeyMessage[count];
        for (int i = 0; i < count; i++) {
            remotes[i] = channel.handShake(res.local(i), "the key exchange");
        }
        return remotes;
    }

    /** perftest's {@code ctx_check_gid_compatibility}: both GIDs IPv4-mapped, or neither. */
    private void checkGidTypes(TestResources res, KeyMessage remote) throws ProtocolException {
        GidEntry mine = res.gid().orElse(null);
        if (mine == null || remote.gid() == null) {
            return;
        }
        if (mine.gid().isIpv4Mapped() != remote.gid().isIpv4Mapped()) {
            throw new ProtocolException("Found Incompatibility issue with GID types (ours " + mine.gid() + ", the peer's "
                    + remote.gid() + "): use the same IP version on both sides");
        }
    }

    private void latency(TestResources res, KeyMessage remote, OobLink channel, CompletionWaiter completions, Arena arena)
            throws IOException {
        int[] sizes = sizes();
        long[] posted = new long[o.durationSeconds() > 0 ? 1 : o.iterations()];
        long[] gaps = new long[posted.length];
        TestKind.Verb verb = o.test().verb();
        boolean oneSided = verb == TestKind.Verb.READ || verb == TestKind.Verb.ATOMIC;
        if (oneSided && o.isServer()) {
            closeConnection(channel, res);
            verbose(ResultTable.LINE + "\n");
            return;
        }
        boolean duration = o.durationSeconds() > 0;
        int factor = oneSided ? 1 : 2;
        LatencyUnit unit = o.report().cycles() ? LatencyUnit.cyclesOfThisCpu() : LatencyUnit.MICROSECONDS;
        verbose(ResultTable.LINE + "\n" + (duration ? ResultTable.LATENCY_DURATION_HEADER : ResultTable.LATENCY_HEADER) + "\n");
        for (int size : sizes) {
            long start = 0;
            long count = 0;
            switch (verb) {
                case WRITE -> {
                    WriteLatency loop = new WriteLatency(res.queuePair(), res.buffer(), res.targetOffset(), remote.vaddr(),
                            remote.rkey(), size, inlineSize(o, res), completions, arena, o.isServer(), o.timeout());
                    start = System.nanoTime();
                    if (duration) {
                        count = loop.runUntil(start + o.durationSeconds() * 1_000_000_000L);
                    } else {
                        loop.run(o.iterations(), posted);
                    }
                }
                case SEND -> {
                    int room = size + (o.connection() == Connection.UD ? TestResources.UD_GRH : 0);
                    SendLatency loop = new SendLatency(res.queuePair(), res.buffer(), res.targetOffset(), room, size,
                            inlineSize(o, res), res.addressHandle(), remote.qpn(), TestResources.remoteQkey(o), completions, arena,
                            o.isServer());
                    loop.postReceives(o.receiveDepth());
                    channel.handShake(res.local(), "the hand shake after posting receives");
                    start = System.nanoTime();
                    if (duration) {
                        count = loop.runUntil(start + o.durationSeconds() * 1_000_000_000L);
                    } else {
                        loop.run(o.iterations(), posted);
                    }
                }
                case READ, ATOMIC -> {
                    OneSidedLatency loop = new OneSidedLatency(res.queuePair(), res.buffer(), atomicOpcode(verb), size,
                            remote.vaddr(), remote.rkey(), completions, arena);
                    start = System.nanoTime();
                    if (duration) {
                        count = loop.runUntil(start + o.durationSeconds() * 1_000_000_000L);
                    } else {
                        loop.run(o.iterations(), posted);
                    }
                }
            }
            if (duration) {
                double seconds = (System.nanoTime() - start) / 1e9;
                double average = seconds * 1e6 / count / factor;   // no guard: perftest prints inf for 0 iterations
                out.println(o.report().output() == ReportOptions.Output.LATENCY ? ResultTable.c(average, 6)
                        : ResultTable.latencyDurationRow(size, count, average, count / seconds));
            } else {
                out.print(LatencyReport.text(size, posted, o.iterations(), gaps, factor, unit, o.report().unsorted(),
                        o.report().histogram(), o.report().output() == ReportOptions.Output.LATENCY));
            }
        }
        verbose(ResultTable.LINE + "\n");
        if (Schedule.closesLatency(o.test())) {
            closeConnection(channel, res);
        }
    }

    private void bandwidth(TestResources res, KeyMessage[] remotes, OobLink channel, CompletionWaiter completions, Arena arena)
            throws IOException {
        TestKind.Verb verb = o.test().verb();
        String header = o.reportGbits() ? ResultTable.BANDWIDTH_HEADER_GBITS : ResultTable.BANDWIDTH_HEADER;
        verbose(ResultTable.LINE + "\n" + header + "\n");
        if (verb == TestKind.Verb.SEND) {
            sendBandwidth(res, remotes, channel, completions, arena);
            return;
        }
        if (o.isServer() && !o.duplex()) {
            // A WRITE/READ/atomic server takes no part: it waits for the client's end, prints the client's report.
            channel.handShake(res.local(), "the hand shake at the client's end of test");
            BandwidthReportWire theirs = new BandwidthReportWire(0, 0, 0, 0, 0).exchange(channel);
            bandwidthRow(ResultTable.bandwidthRow(theirs.size(), theirs.iterations(), theirs.peak(), theirs.average(),
                    theirs.messageRate(), o.reportGbits()), theirs.average(), theirs.messageRate());
            closeConnection(channel, res);
            verbose(ResultTable.LINE + "\n");
            return;
        }
        WorkRequestOpcode opcode = switch (verb) {
            case WRITE -> WorkRequestOpcode.RDMA_WRITE;
            case READ -> WorkRequestOpcode.RDMA_READ;
            default -> atomicOpcode(verb);
        };
        int total = totalIterations();
        long[] posted = new long[o.durationSeconds() > 0 ? 1 : total];
        long[] completed = new long[posted.length];
        BandwidthStatistics last = null;
        int lastSize = 0;
        long lastIterations = total;
        for (int size : sizes()) {
            PostingBandwidth loop = new PostingBandwidth(res.queuePairs(), res.buffer(), opcode, size, inlineSize(o, res),
                    addresses(remotes), rkeys(remotes), null, new int[remotes.length], 0, o.txDepth(), o.postList(),
                    o.cqModeration(), completions, arena);
            if (o.link().warmUp()) {
                // perftest's perform_warm_up: a tx depth of requests (a post list's with -l) on each queue pair
                int warmUp = o.postList() == 1 ? o.txDepth() : o.postList();
                loop.run(warmUp, new long[warmUp * remotes.length], new long[warmUp * remotes.length]);
            }
            if (o.duplex()) {
                // -b: both sides run; perftest syncs them before each size's run
                channel.handShake(res.local(), "the hand shake before the run (-b)");
            }
            if (o.durationSeconds() > 0) {
                lastIterations = loop.runUntil(System.nanoTime() + o.durationSeconds() * 1_000_000_000L);
                last = BandwidthStatistics.over(size, lastIterations, loop.elapsedNanos(), o.reportGbits());
            } else {
                loop.run(o.iterations(), posted, completed);
                last = BandwidthStatistics.of(size, total, posted, completed, o.noPeak(), o.reportGbits());
            }
            lastSize = size;
            if (o.duplex()) {
                bidirectionalRow(res, channel, size, lastIterations, last);
            } else {
                bandwidthRow(ResultTable.bandwidthRow(size, lastIterations, last.peak(), last.average(), last.messageRate(),
                        o.reportGbits()), last.average(), last.messageRate());
            }
        }
        verbose(ResultTable.LINE + "\n");
        if (!o.duplex()) {
            channel.handShake(res.local(), "the hand shake at the end of test");
            new BandwidthReportWire(lastSize, lastIterations, last.peak(), last.average(), last.messageRate()).exchange(channel);
        }
        closeConnection(channel, res);
    }

    /**
     * {@code -b}'s end of a size: with {@code -a} one more hand shake (perftest's, from version
     * 4.6), then the report exchange, and the row of both sides' figures summed
     * ({@code print_full_bw_report} with the peer's report): this side's size and iterations.
     */
    private void bidirectionalRow(TestResources res, OobLink channel, int size, long iterations, BandwidthStatistics mine)
            throws IOException {
        if (o.allSizes()) {
            channel.handShake(res.local(), "the hand shake after the size's run (-b -a)");
        }
        BandwidthReportWire theirs = new BandwidthReportWire(size, iterations, mine.peak(), mine.average(), mine.messageRate())
                .exchange(channel);
        bandwidthRow(ResultTable.bandwidthRow(size, iterations, mine.peak() + theirs.peak(), mine.average() + theirs.average(),
                mine.messageRate() + theirs.messageRate(), o.reportGbits(), mine.average()), mine.average() + theirs.average(),
                mine.messageRate() + theirs.messageRate());
    }

    private void sendBandwidth(TestResources res, KeyMessage[] remotes, OobLink channel, CompletionWaiter completions,
                               Arena arena) throws IOException {
        int room = o.size() + (o.connection() == Connection.UD ? TestResources.UD_GRH : 0);
        int total = totalIterations();
        long[] posted = new long[o.durationSeconds() > 0 ? 1 : total];
        long[] completed = new long[posted.length];
        boolean duration = o.durationSeconds() > 0;
        boolean gaveUp = false;
        for (int size : sizes()) {
            BandwidthStatistics stats;
            long count = total;
            if (o.duplex()) {
                // -b: both sides post receives, hand shake, send and receive at once
                BidirectionalSending both = new BidirectionalSending(res.queuePairs(), res.buffer(), size, inlineSize(o, res),
                        res.targetOffset(), Math.max(room, size), o.receiveDepth(), o.txDepth(), o.postList(),
                        o.cqModeration(), o.isServer(), res.addressHandle(), qpns(remotes), TestResources.remoteQkey(o), completions,
                        arena);
                both.postReceives(o.iterations());
                channel.handShake(res.local(), "the hand shake after posting receives");
                if (duration) {
                    count = both.runUntil(o.durationSeconds() * 1_000_000_000L);
                    stats = BandwidthStatistics.over(size, count, both.elapsedNanos(), o.reportGbits());
                } else {
                    both.run(o.iterations(), posted, completed);
                    stats = BandwidthStatistics.of(size, total, posted, completed, o.noPeak(), o.reportGbits());
                }
                BandwidthReportWire theirs = new BandwidthReportWire(size, count, stats.peak(), stats.average(),
                        stats.messageRate()).exchange(channel);
                bandwidthRow(ResultTable.bandwidthRow(size, count, stats.peak() + theirs.peak(), stats.average() + theirs.average(),
                        stats.messageRate() + theirs.messageRate(), o.reportGbits(), stats.average()),
                        stats.average() + theirs.average(), stats.messageRate() + theirs.messageRate());
                if (Schedule.handShakeAfterEachSize(o.test(), o.allSizes())) {
                    channel.handShake(res.local(), "the hand shake after the size's report");
                }
                continue;
            }
            if (o.isServer()) {
                ReceivingBandwidth receiver = new ReceivingBandwidth(res.queuePairs(), res.buffer(), res.targetOffset(),
                        Math.max(room, size), o.receiveDepth(), completions, arena);
                receiver.postReceives(o.iterations());
                channel.handShake(res.local(), "the hand shake after posting receives");
                if (duration) {
                    count = receiver.runUntil(System.nanoTime() + o.durationSeconds() * 1_000_000_000L);
                } else {
                    LivenessAlarm alarm = LivenessAlarm.bounded(o.timeout());
                    count = receiver.run(o.iterations(), alarm);
                    gaveUp = count < total;
                    if (gaveUp) {
                        err.println(alarm.giveUpMessage(count, total));
                    }
                }
                // perftest's SEND server never measures the peak (noPeak): 0.00.
                stats = BandwidthStatistics.over(size, count, receiver.elapsedNanos(), o.reportGbits());
            } else {
                channel.handShake(res.local(), "the hand shake after the server posted its receives");
                PostingBandwidth loop = new PostingBandwidth(res.queuePairs(), res.buffer(), WorkRequestOpcode.SEND, size,
                        inlineSize(o, res), new long[remotes.length], new int[remotes.length], res.addressHandle(),
                        qpns(remotes), TestResources.remoteQkey(o), o.txDepth(), o.postList(), o.cqModeration(), completions, arena);
                if (duration) {
                    count = loop.runUntil(System.nanoTime() + o.durationSeconds() * 1_000_000_000L);
                    stats = BandwidthStatistics.over(size, count, loop.elapsedNanos(), o.reportGbits());
                } else {
                    loop.run(o.iterations(), posted, completed);
                    stats = BandwidthStatistics.of(size, total, posted, completed, o.noPeak(), o.reportGbits());
                }
            }
            bandwidthRow(ResultTable.bandwidthRow(size, count, stats.peak(), stats.average(), stats.messageRate(),
                    o.reportGbits()), stats.average(), stats.messageRate());
            if (Schedule.handShakeAfterEachSize(o.test(), o.allSizes())) {
                // send_bw's -a loop: one more hand shake after each size's report, before the next
                // size's receives; a server whose alarm gave up stops the loop after it.
                channel.handShake(res.local(), "the hand shake after the size's report");
                if (gaveUp) {
                    break;
                }
            }
        }
        verbose(ResultTable.LINE + "\n");
        closeConnection(channel, res);
    }

    /** perftest's {@code --wait_destroy}: the resources stay for that many seconds after the test. */
    private void waitBeforeDestroy() {
        try {
            Thread.sleep(o.link().waitDestroySeconds() * 1000L);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Prints a bandwidth row (with {@code --output} its one figure, C's {@code %lf}) and checks its
     * figures against {@code -w}/{@code -y}, as perftest's {@code print_full_bw_report}.
     */
    private void bandwidthRow(String row, double average, double messageRate) {
        out.println(switch (o.report().output()) {
            case BANDWIDTH -> ResultTable.c(average, 6);
            case MESSAGE_RATE -> ResultTable.c(messageRate, 6);
            default -> row;
        });
        limits.check(average, messageRate);
    }

    /** What perftest prints only at its full verbosity (no {@code --output}): the test's description, headers, dashed lines. */
    private void verbose(String text) {
        if (o.report().output() == ReportOptions.Output.FULL) {
            out.print(text);
        }
    }

    /** The iterations of a bandwidth run: {@code -n} on each of the {@code -q} queue pairs (perftest's report counts them all). */
    private int totalIterations() {
        long total = (long) o.iterations() * o.queuePairs();
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("-n " + o.iterations() + " on " + o.queuePairs() + " queue pairs: too many to time");
        }
        return (int) total;
    }

    private static long[] addresses(KeyMessage[] remotes) {
        return java.util.Arrays.stream(remotes).mapToLong(KeyMessage::vaddr).toArray();
    }

    private static int[] rkeys(KeyMessage[] remotes) {
        return java.util.Arrays.stream(remotes).mapToInt(KeyMessage::rkey).toArray();
    }

    private static int[] qpns(KeyMessage[] remotes) {
        return java.util.Arrays.stream(remotes).mapToInt(KeyMessage::qpn).toArray();
    }

    /** {@code ctx_close_connection}: one more hand shake, then (over TCP) "done" and close. */
    private static void closeConnection(OobLink channel, TestResources res) throws IOException {
        channel.handShake(res.local(), "the closing hand shake");
        channel.finish();
    }

    /** {@code -A}'s opcode: compare-and-swap or fetch-and-add; {@code null} for a READ. */
    private WorkRequestOpcode atomicOpcode(TestKind.Verb verb) {
        if (verb != TestKind.Verb.ATOMIC) {
            return null;
        }
        return o.atomicType() == PerftestOptions.AtomicType.CMP_AND_SWAP ? WorkRequestOpcode.ATOMIC_CMP_AND_SWP
                : WorkRequestOpcode.ATOMIC_FETCH_AND_ADD;
    }

    /** The sizes to run: {@code -s}, or with {@code -a} 2, 4, ... 2^23 (on UD up to the MTU, the size once fitted). */
    private int[] sizes() {
        if (!o.allSizes()) {
            return new int[] {o.size()};
        }
        int largest = o.connection() == Connection.UD ? o.size() : PerftestOptions.MAX_SIZE;
        return java.util.stream.IntStream.rangeClosed(1, 23).map(i -> 1 << i).filter(size -> size <= largest).toArray();
    }
}
