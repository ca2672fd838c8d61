package dev.panamaverbs.benchmarks.messaging;

import dev.panamaverbs.Context;
import dev.panamaverbs.benchmarks.LoopbackPair;
import dev.panamaverbs.benchmarks.ThreadAllocation;
import dev.panamaverbs.messaging.ChannelOptions;
import dev.panamaverbs.messaging.MessageChannel;
import dev.panamaverbs.messaging.MessageServer;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.PortCounters;
import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

/**
 * Issue 24's messaging benchmark: verbs-messaging's {@link MessageChannel} against the plain verbs
 * loop and against Java NIO TCP, side by side in one process over one device and its IP address,
 * each end on a platform thread of its own. Three cases, each run in the modes in turn:
 * 64-byte round trips, 4 KiB one-way throughput, 1 MiB one-way throughput.
 * <ul>
 * <li><b>messaging</b>: {@link MessageServer#listen} and {@link MessageChannel#connect} over
 * rdma_cm to the device's IPv4 address, default {@link ChannelOptions} (64 credits, 16 send
 * buffers, 64 KiB buffers, rendezvous above 64 KiB); small messages are sent zero-copy from a
 * {@code SendBuffer}, 1 MiB by rendezvous ({@code sendAsync}, 2 outstanding) ({@link MessagingLink}).</li>
 * <li><b>messaging, copy-out</b>: the same at 64 B and 4 KiB, received with
 * {@code receive(destination, timeout)}, which copies into a buffer of the receiver's own and
 * allocates nothing.</li>
 * <li><b>messaging, busy poll</b>: the same at 64 B and 4 KiB on a second pair of channels with
 * {@link ChannelOptions#receiveBusyPoll()} of {@link #BUSY_POLL}: {@code receive} drains the
 * completion queue on its own thread, as the verbs loop does.</li>
 * <li><b>verbs</b>: an RC loop-back pair on the same device (benchmarks' {@link LoopbackPair}),
 * SEND/RECV busy-polling {@code ibv_poll_cq}, the same 16 sends in flight and 64 receives posted
 * (2 and 4 at 1 MiB, a plain 1 MiB SEND into posted 1 MiB receives) ({@link VerbsLink}).</li>
 * <li><b>tcp</b>: blocking {@link SocketChannel}s with TCP_NODELAY and direct buffers to the same
 * address ({@link TcpLink}).</li>
 * </ul>
 * Every message's length, sequence number and first/last word are checked ({@link Stamp}). Each
 * phase warms up for WARMUP seconds, then measures for SECONDS. Bytes allocated: each end's thread
 * over its measured loop, and for messaging also the shared poller's thread (where completions are
 * handled). Needs a device: run it in the rxe VM (benchmarks/README.md). A {@code main}, not JMH.
 * <pre>java --enable-native-access=ALL-UNNAMED -cp benchmarks.jar dev.panamaverbs.benchmarks.messaging.MessagingCompare 5 5</pre>
 */
public final class MessagingCompare {
    private static final int SMALL = 64;
    private static final int MEDIUM = 4096;
    private static final int LARGE = 1 << 20;
    /** As {@link ChannelOptions#DEFAULT_SEND_BUFFERS} and {@link ChannelOptions#DEFAULT_RECEIVE_CREDITS}. */
    private static final int SENDS = 16;
    private static final int RECEIVES = 64;
    /**
     * 1 MiB: rendezvous messages outstanding, and the verbs loop's slots. Two: the sources stay
     * registered (leased) while outstanding, and the default registration budget is half of
     * RLIMIT_MEMLOCK, 4 MiB in the rxe VM, which four 1 MiB sources (4 KiB more each) overflow.
     */
    private static final int LARGE_SENDS = 2;
    private static final int LARGE_RECEIVES = 4;
    private static final int LATENCIES = 1 << 20;
    private static final Duration CONNECT = Duration.ofSeconds(120);
    /** The busy-polling mode's {@link ChannelOptions#receiveBusyPoll()}: longer than any wait for the next message. */
    private static final Duration BUSY_POLL = Duration.ofSeconds(1);

    private final long warmupNanos;
    private final long measureNanos;
    private final long[] latencies = new long[LATENCIES];
    private final List<Row> rows = new ArrayList<>();

    private MessagingCompare(int seconds, int warmupSeconds) {
        this.measureNanos = TimeUnit.SECONDS.toNanos(seconds);
        this.warmupNanos = TimeUnit.SECONDS.toNanos(warmupSeconds);
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        if (!ThreadAllocation.isSupported()) {
            throw new IllegalStateException("this JVM does not count allocated bytes per thread");
        }
        new MessagingCompare(seconds, warmup).run();
    }

    /**
     * One mode of one case, computed when measured (the latency array is reused).
     *
     * @param perMessageNanos  measured time over messages (round trips: per round trip)
     * @param allocatedPerMessage bytes both ends' threads allocated per message (round trip)
     * @param pollerPerMessage the poller thread's bytes per message (round trip); NaN when not measured
     */
    private record Row(String pattern, int size, String mode, long messages, double seconds, double perMessageNanos,
                       double meanMicros, double p50Micros, double p99Micros, double allocatedPerMessage,
                       double pollerPerMessage, String note) {
        double megabytesPerSecond() {
            return size / perMessageNanos * 1e3;
        }
    }

    /** A phase's measurement, the poller's allocation over it (-1: not measured) and the RNR counters it moved. */
    private record Phase(Exchange.Measured measured, long pollerAllocated, String rnr) {}

    private void run() throws Exception {
        InetAddress ip = deviceAddress();
        System.out.printf("MessagingCompare: device IP %s, warm-up %d s and %d s measured per phase%n", ip.getHostAddress(),
                TimeUnit.NANOSECONDS.toSeconds(warmupNanos), TimeUnit.NANOSECONDS.toSeconds(measureNanos));
        // The arena of the rendezvous sources outlives the channels, which hold them registered.
        try (Arena arena = Arena.ofShared();
             ChannelPair parked = ChannelPair.open(ip, ChannelOptions.defaults());
             ChannelPair busy = ChannelPair.open(ip, ChannelOptions.builder().receiveBusyPoll(BUSY_POLL).build());
             ServerSocketChannel tcpServer = ServerSocketChannel.open().bind(new InetSocketAddress(ip, 0));
             SocketChannel tcpClient = SocketChannel.open(tcpServer.getLocalAddress());
             SocketChannel tcpServerSide = tcpServer.accept()) {
            tcpClient.setOption(StandardSocketOptions.TCP_NODELAY, true);
            tcpServerSide.setOption(StandardSocketOptions.TCP_NODELAY, true);
            cases(arena, parked, busy, tcpClient, tcpServerSide);
        }
        print();
    }

    /**
     * The three cases, each in the modes in turn: messaging with the default options (receive
     * parks, the shared poller handles completions), messaging with {@link #BUSY_POLL} (64 B and
     * 4 KiB: receive drains the CQ itself, as the verbs loop does), verbs, TCP.
     */
    private void cases(Arena arena, ChannelPair parked, ChannelPair busy, SocketChannel tcpClient,
                       SocketChannel tcpServerSide) throws Exception {
        Thread poller = pollerThread();
        System.out.printf("messaging: %s, rendezvous above %d bytes; poller thread %s%n", parked.client(),
                parked.client().rendezvousThreshold(), poller == null ? "not found" : poller.getName());
        for (int size : new int[] {SMALL, MEDIUM, LARGE}) {
            boolean roundTrips = size == SMALL;
            int sends = size == LARGE ? LARGE_SENDS : SENDS;
            MessagingLink sender = new MessagingLink(parked.client(), size, arena, sends, false);
            String how = sender.rendezvous() ? "rendezvous, sendAsync with " + sends + " outstanding"
                    : "zero-copy SendBuffer";
            add(size, roundTrips, "messaging", measure(sender, new MessagingLink(parked.server(), size, arena, sends, false),
                    roundTrips, poller, null), how);
            if (size != LARGE) {
                // Received by copying out, which allocates nothing (the zero-copy receive's ReceivedMessage does).
                add(size, roundTrips, "messaging, copy-out", measure(new MessagingLink(parked.client(), size, arena, sends, true),
                        new MessagingLink(parked.server(), size, arena, sends, true), roundTrips, poller, null),
                        how + ", receive(destination, timeout)");
                // Not at 1 MiB: its sources stay registered under the process's registration budget (see LARGE_SENDS).
                add(size, roundTrips, "messaging, busy poll", measure(new MessagingLink(busy.client(), size, arena, sends, false),
                        new MessagingLink(busy.server(), size, arena, sends, false), roundTrips, poller, null),
                        how + ", receiveBusyPoll " + BUSY_POLL.toMillis() + " ms");
            }
            verbs(size, sends, size == LARGE ? LARGE_RECEIVES : RECEIVES, roundTrips);
            add(size, roundTrips, "tcp", measure(new TcpLink(tcpClient, size), new TcpLink(tcpServerSide, size),
                    roundTrips, null, null), "NIO SocketChannel, TCP_NODELAY");
        }
    }

    /** A server, a client connected to it and the server's side of that connection. */
    private record ChannelPair(MessageServer listener, MessageChannel client, MessageChannel server) implements AutoCloseable {
        static ChannelPair open(InetAddress ip, ChannelOptions options) throws Exception {
            MessageServer listener = MessageServer.listen(new InetSocketAddress(ip, 0), options);
            try {
                FutureTask<MessageChannel> accept = new FutureTask<>(() -> listener.accept(CONNECT).orElseThrow(
                        () -> new IllegalStateException("no connection request within " + CONNECT)));
                Thread.ofPlatform().name("accept").start(accept);
                MessageChannel client = MessageChannel.connect(listener.localAddress(), options);
                try {
                    return new ChannelPair(listener, client, accept.get(CONNECT.toSeconds(), TimeUnit.SECONDS));
                } catch (Exception | Error e) {
                    client.close();
                    throw e;
                }
            } catch (Exception | Error e) {
                listener.close();
                throw e;
            }
        }

        @Override
        public void close() {
            try (MessageServer l = listener; MessageChannel c = client; MessageChannel s = server) {
                // closed in reverse order: the server side, the client, the listener
            }
        }
    }

    private void verbs(int size, int sends, int receives, boolean roundTrips) throws Exception {
        int bufferSize = Math.toIntExact(VerbsLink.bufferSize(size, sends, receives));
        try (LoopbackPair pair = LoopbackPair.open(sends + receives, bufferSize)) {
            VerbsLink a = new VerbsLink(pair.a(), pair.queueA(), pair.bufferA(), size, sends, receives);
            VerbsLink b = new VerbsLink(pair.b(), pair.queueB(), pair.bufferB(), size, sends, receives);
            add(size, roundTrips, "verbs", measure(a, b, roundTrips, null, pair.context()),
                    "SEND/RECV, " + sends + " sends in flight, " + receives + " receives posted");
        }
    }

    /**
     * A warm-up phase, then the measured one; {@code poller}'s allocation and the RNR counters of
     * {@code counters}' port over the measured one, when given.
     */
    private Phase measure(Link a, Link b, boolean roundTrips, Thread poller, Context counters) throws Exception {
        long pollerBefore = poller == null ? 0 : ThreadAllocation.of(poller);
        Exchange.Measured warm = phase(a, b, roundTrips, warmupNanos);
        // What the warm-up allocated, to compare: a per-message figure that falls once compiled is the JIT's, not the path's.
        System.out.printf("    warm-up: %d messages, threads %.1f B/msg%s%n", warm.messages(),
                (double) (warm.allocatedA() + warm.allocatedB()) / warm.messages(), poller == null ? ""
                        : String.format(", poller %.1f B/msg", (double) (ThreadAllocation.of(poller) - pollerBefore) / warm.messages()));
        pollerBefore = poller == null ? 0 : ThreadAllocation.of(poller);
        PortCounters before = counters == null ? null : counters.portCounters(LoopbackPair.port());
        Exchange.Measured measured = phase(a, b, roundTrips, measureNanos);
        long pollerAllocated = poller == null ? -1 : ThreadAllocation.of(poller) - pollerBefore;
        String rnr = "";
        if (counters != null) {
            Map<String, Long> moved = new TreeMap<>(counters.portCounters(LoopbackPair.port()).changesSince(before));
            moved.keySet().removeIf(name -> !name.contains("rnr"));
            rnr = moved.isEmpty() ? "; no RNR counter moved" : "; RNR counters moved: " + moved;
        }
        return new Phase(measured, pollerAllocated, rnr);
    }

    private Exchange.Measured phase(Link a, Link b, boolean roundTrips, long nanos) throws Exception {
        return roundTrips ? Exchange.roundTrips(a, b, nanos, latencies) : Exchange.oneWay(a, b, nanos);
    }

    private void add(int size, boolean roundTrips, String mode, Phase phase, String note) {
        Exchange.Measured m = phase.measured();
        double mean = Double.NaN;
        double p50 = Double.NaN;
        double p99 = Double.NaN;
        if (m.latencyCount() > 0) {
            long[] sorted = Arrays.copyOf(m.latencies(), m.latencyCount());
            Arrays.sort(sorted);
            mean = Arrays.stream(sorted).average().orElse(Double.NaN) / 1e3;
            p50 = percentile(sorted, 0.50) / 1e3;
            p99 = percentile(sorted, 0.99) / 1e3;
        }
        double poller = phase.pollerAllocated() < 0 ? Double.NaN : (double) phase.pollerAllocated() / m.messages();
        Row row = new Row(roundTrips ? "round trip" : "one way", size, mode, m.messages(), m.nanos() / 1e9,
                (double) m.nanos() / m.messages(), mean, p50, p99,
                (double) (m.allocatedA() + m.allocatedB()) / m.messages(), poller, note + phase.rnr());
        rows.add(row);
        System.out.printf("  %s %s %s: %d in %.2f s, %.1f/s; threads %d + %d B%s (%s)%n", label(row), mode,
                roundTrips ? "round trips" : "messages", m.messages(), row.seconds(), 1e9 / row.perMessageNanos(),
                m.allocatedA(), m.allocatedB(), phase.pollerAllocated() < 0 ? "" : ", poller " + phase.pollerAllocated() + " B",
                row.note());
    }

    private static long percentile(long[] sorted, double q) {
        int index = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static String label(Row row) {
        String size = row.size() >= LARGE ? row.size() / LARGE + " MiB" : row.size() >= 1024 ? row.size() / 1024 + " KiB"
                : row.size() + " B";
        return size + " " + row.pattern();
    }

    /** The table (markdown), then per case the ratios to the plain verbs loop and to TCP. */
    private void print() {
        System.out.println();
        System.out.println("| case | mode | messages | s | per s | MB/s | mean us | p50 us | p99 us | B/msg (ends) | B/msg (poller) |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        for (Row r : rows) {
            boolean rt = r.pattern().equals("round trip");
            System.out.printf("| %s | %s | %d | %.2f | %.1f | %s | %s | %s | %s | %.1f | %s |%n", label(r), r.mode(), r.messages(),
                    r.seconds(), 1e9 / r.perMessageNanos(), rt ? "-" : String.format("%.2f", r.megabytesPerSecond()),
                    rt ? String.format("%.1f", r.meanMicros()) : "-", rt ? String.format("%.1f", r.p50Micros()) : "-",
                    rt ? String.format("%.1f", r.p99Micros()) : "-", r.allocatedPerMessage(),
                    Double.isNaN(r.pollerPerMessage()) ? "-" : String.format("%.1f", r.pollerPerMessage()));
        }
        System.out.println();
        for (Row messaging : rows) {
            if (!messaging.mode().startsWith("messaging")) {
                continue;
            }
            Row verbs = rowOf(messaging, "verbs");
            Row tcp = rowOf(messaging, "tcp");
            double overVerbs = messaging.perMessageNanos() / verbs.perMessageNanos();
            double overTcp = messaging.perMessageNanos() / tcp.perMessageNanos();
            String p50 = messaging.pattern().equals("round trip")
                    ? String.format("; p50 messaging/verbs %.2fx, messaging/tcp %.2fx", messaging.p50Micros() / verbs.p50Micros(),
                            messaging.p50Micros() / tcp.p50Micros())
                    : "";
            System.out.printf("%s (%s): time per message messaging/verbs %.2fx (target at most 1.10x: %s), messaging/tcp %.2fx%s%n",
                    label(messaging), messaging.mode(), overVerbs, overVerbs <= 1.10 ? "met" : "missed", overTcp, p50);
        }
    }

    /** {@return the row of {@code mode} in {@code row}'s case} */
    private Row rowOf(Row row, String mode) {
        return rows.stream().filter(r -> r.size() == row.size() && r.mode().equals(mode)).findFirst().orElseThrow();
    }

    /** {@return the device's IPv4 address, from its RoCE v2 IPv4-mapped GID} */
    private static InetAddress deviceAddress() throws Exception {
        Context context = LoopbackPair.openContext();
        try {
            GidEntry gid = context.roceV2Ipv4Gid(LoopbackPair.port()).orElseThrow(() -> new IllegalStateException(
                    context.device().name() + " has no RoCE v2 IPv4 GID: no IP address for rdma_cm and TCP"));
            return InetAddress.getByAddress(Arrays.copyOfRange(gid.gid().toByteArray(), 12, 16));
        } finally {
            context.close();
        }
    }

    /** {@return the shared poller's thread (where a channel's completions are handled), or null} */
    private static Thread pollerThread() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("panamaverbs-poller"))
                .findFirst().orElse(null);
    }
}
