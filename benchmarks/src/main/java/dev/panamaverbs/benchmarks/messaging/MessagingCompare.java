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
import java.util.Arrays;
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
 * {@link ChannelOptions#receiveBusyPoll()} of {@link MessagingCase#BUSY_POLL}: {@code receive} drains the
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
    private static final int LATENCIES = 1 << 20;
    private static final Duration CONNECT = Duration.ofSeconds(120);

    private final long warmupNanos;
    private final long measureNanos;
    private final long[] latencies = new long[LATENCIES];
    private final MessagingTable table = new MessagingTable();

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

    /** A phase's measurement, the poller's allocation over it (-1: not measured) and the RNR counters it moved. */
    private record Phase(Exchange.Measured measured, long pollerAllocated, String rnr) {}

    private void run() throws Exception {
        InetAddress ip = deviceAddress();
        System.out.printf("MessagingCompare: device IP %s, warm-up %d s and %d s measured per phase%n", ip.getHostAddress(),
                TimeUnit.NANOSECONDS.toSeconds(warmupNanos), TimeUnit.NANOSECONDS.toSeconds(measureNanos));
        // The arena of the rendezvous sources outlives the channels, which hold them registered.
        try (Arena arena = Arena.ofShared();
             ChannelPair parked = ChannelPair.open(ip, MessagingCase.Mode.MESSAGING.channelOptions());
             ChannelPair busy = ChannelPair.open(ip, MessagingCase.Mode.BUSY_POLL.channelOptions());
             ServerSocketChannel tcpServer = ServerSocketChannel.open().bind(new InetSocketAddress(ip, 0));
             SocketChannel tcpClient = SocketChannel.open(tcpServer.getLocalAddress());
             SocketChannel tcpServerSide = tcpServer.accept()) {
            tcpClient.setOption(StandardSocketOptions.TCP_NODELAY, true);
            tcpServerSide.setOption(StandardSocketOptions.TCP_NODELAY, true);
            cases(arena, parked, busy, tcpClient, tcpServerSide);
        }
        table.print(System.out);
    }

    /**
     * The cases in turn ({@link MessagingCase#all}): messaging with the default options (receive
     * parks, the shared poller handles completions), copying out, with {@link MessagingCase#BUSY_POLL}
     * (receive drains the CQ itself, as the verbs loop does), verbs, TCP.
     */
    private void cases(Arena arena, ChannelPair parked, ChannelPair busy, SocketChannel tcpClient,
                       SocketChannel tcpServerSide) throws Exception {
        Thread poller = pollerThread();
        System.out.printf("messaging: %s, rendezvous above %d bytes; poller thread %s%n", parked.client(),
                parked.client().rendezvousThreshold(), poller == null ? "not found" : poller.getName());
        for (MessagingCase c : MessagingCase.all()) {
            int size = c.size();
            switch (c.mode()) {
                case MESSAGING, COPY_OUT, BUSY_POLL -> {
                    ChannelPair pair = c.mode() == MessagingCase.Mode.BUSY_POLL ? busy : parked;
                    add(c, measure(new MessagingLink(pair.client(), size, arena, c.sends(), c.copyOut()),
                            new MessagingLink(pair.server(), size, arena, c.sends(), c.copyOut()), c.roundTrips(), poller, null),
                            c.note(pair.client().rendezvousThreshold()));
                }
                case VERBS -> verbs(c);
                case TCP -> add(c, measure(new TcpLink(tcpClient, size), new TcpLink(tcpServerSide, size), c.roundTrips(), null,
                        null), c.note(0));
            }
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

    private void verbs(MessagingCase c) throws Exception {
        int bufferSize = Math.toIntExact(VerbsLink.bufferSize(c.size(), c.sends(), c.receives()));
        try (LoopbackPair pair = LoopbackPair.open(c.sends() + c.receives(), bufferSize)) {
            VerbsLink a = new VerbsLink(pair.a(), pair.queueA(), pair.bufferA(), c.size(), c.sends(), c.receives());
            VerbsLink b = new VerbsLink(pair.b(), pair.queueB(), pair.bufferB(), c.size(), c.sends(), c.receives());
            add(c, measure(a, b, c.roundTrips(), null, pair.context()), c.note(0));
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

    private void add(MessagingCase c, Phase phase, String note) {
        table.add(c, phase.measured(), phase.pollerAllocated(), -1, note + phase.rnr(), System.out);
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
    static Thread pollerThread() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("panamaverbs-poller"))
                .findFirst().orElse(null);
    }
}
