package dev.panamaverbs.benchmarks.messaging;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.benchmarks.ThreadAllocation;
import dev.panamaverbs.it.support.Peer;
import dev.panamaverbs.it.support.TwoHostExtension;
import dev.panamaverbs.it.support.TwoHosts;
import dev.panamaverbs.messaging.MessageChannel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code ./verbs bench --messaging}: issue 24's messaging benchmark between the two hosts. Host B
 * runs {@link MessagingBenchPeer}, the far end of every mode; this JVM, on host A, drives: the
 * cases of {@link MessagingCase#all} in turn (64-byte round trips with latency percentiles, 4 KiB
 * and 1 MiB one way), each in the modes messaging (zero-copy receive), messaging copy-out,
 * messaging busy poll (not at 1 MiB), verbs (the plain loop over an rdma_cm RC connection) and
 * TCP (NIO over the same link), a warm-up phase and a measured one each. Round trips are timed
 * here, by the client; one way by host B's receiver, from its first arrival to its last (the two
 * clocks are not comparable: {@link Exchange#acrossHosts}). Allocation per message: host A's end
 * and poller here, host B's end and poller as B reports them ({@link PeerReport}). Every message
 * is checked ({@link Stamp}). The table and ratios ({@link MessagingTable}) go to stdout and to
 * {@code target/messaging-bench/results.md} ({@code VERBS_MESSAGING_OUT}).
 *
 * <p>A benchmark, not a device test: tag {@code messaging-bench} only, so neither Surefire nor
 * {@code ./verbs test} runs it; scripts/perftest-sweep.sh launches it ({@code ./verbs bench
 * --messaging}). It fails when a phase fails (a message lost, torn or out of order, an end
 * stuck), never on the figures themselves. Environment: {@code VERBS_MESSAGING_SECONDS} and
 * {@code VERBS_MESSAGING_WARMUP} (seconds per measured and warm-up phase, default 5 each).
 */
@ExtendWith(TwoHostExtension.class)
@Tag("messaging-bench") // the root pom keeps it out of Surefire; perftest-sweep.sh --bench messaging-bench runs it
class MessagingCompareTwoHostTest {
    private static final int LATENCIES = 1 << 20;
    /** Host B's JVM start, its device and its four listeners, under TCG; and, beyond a phase's duration, its report. */
    private static final Duration PEER_START = Duration.ofSeconds(300), REPORT_GRACE = Duration.ofSeconds(300);

    @Test
    void compare(TwoHosts hosts) throws Exception {
        assertTrue(ThreadAllocation.isSupported(), "this JVM does not count allocated bytes per thread");
        long measureNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(System.getenv().getOrDefault("VERBS_MESSAGING_SECONDS", "5")));
        long warmupNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(System.getenv().getOrDefault("VERBS_MESSAGING_WARMUP", "5")));
        Path out = Path.of(System.getenv().getOrDefault("VERBS_MESSAGING_OUT", "target/messaging-bench")).toAbsolutePath();
        Files.createDirectories(out);
        Instant started = Instant.now();
        Peer peer = hosts.startRdmaCmPeer(MessagingBenchPeer.class);
        InetAddress b = hosts.peerAddress();
        Run run = new Run(peer, warmupNanos, measureNanos);
        try (Arena arena = Arena.ofShared();
             MessageChannel parked = MessageChannel.connect(port(peer, b, "messaging-port"), MessagingCase.Mode.MESSAGING.channelOptions());
             MessageChannel busy = MessageChannel.connect(port(peer, b, "busy-port"), MessagingCase.Mode.BUSY_POLL.channelOptions());
             SocketChannel tcp = SocketChannel.open(port(peer, b, "tcp-port"))) {
            tcp.setOption(StandardSocketOptions.TCP_NODELAY, true);
            InetSocketAddress verbs = port(peer, b, "verbs-port");
            Thread poller = MessagingCompare.pollerThread();
            System.out.printf("MessagingCompareTwoHostTest: host A %s, host B %s, device %s; warm-up %d s and %d s measured per phase;"
                    + " messaging %s, rendezvous above %d bytes; poller thread %s%n", hosts.localAddress().getHostAddress(),
                    b.getHostAddress(), hosts.device().name(), TimeUnit.NANOSECONDS.toSeconds(warmupNanos),
                    TimeUnit.NANOSECONDS.toSeconds(measureNanos), parked, parked.rendezvousThreshold(),
                    poller == null ? "not found" : poller.getName());
            for (MessagingCase c : MessagingCase.all()) {
                switch (c.mode()) {
                    case MESSAGING, COPY_OUT, BUSY_POLL -> {
                        MessageChannel channel = c.mode() == MessagingCase.Mode.BUSY_POLL ? busy : parked;
                        run.phases(c, new MessagingLink(channel, c.size(), arena, c.sends(), c.copyOut()), poller,
                                c.note(channel.rendezvousThreshold()));
                    }
                    case VERBS -> {
                        try (VerbsEnd end = VerbsEnd.connect(verbs, c)) {
                            run.phases(c, end.link(), null, c.note(0));
                        }
                    }
                    case TCP -> run.phases(c, new TcpLink(tcp, c.size()), null, c.note(0));
                }
            }
        }
        peer.assertSucceeded(REPORT_GRACE);
        ByteArrayOutputStream table = new ByteArrayOutputStream();
        run.table.print(new PrintStream(table, true, StandardCharsets.UTF_8));
        String results = "Two-host messaging bench, " + Instant.now() + ": host A (driver) " + hosts.localAddress().getHostAddress()
                + ", host B (far ends) " + b.getHostAddress() + " over " + hosts.device().name() + "; "
                + TimeUnit.NANOSECONDS.toSeconds(warmupNanos) + " s warm-up and " + TimeUnit.NANOSECONDS.toSeconds(measureNanos)
                + " s measured per phase; " + Duration.between(started, Instant.now()).toSeconds() + " s in all. Java "
                + Runtime.version() + ", VERBS_VM_TCG_THREAD=" + System.getenv().getOrDefault("VERBS_VM_TCG_THREAD", "single")
                + ".\n" + table.toString(StandardCharsets.UTF_8);
        Files.writeString(out.resolve("results.md"), results);
        Files.writeString(out.resolve("peer.log"), peer.output());
        System.out.println(results);
        System.out.println("==> results in " + out);
    }

    private static InetSocketAddress port(Peer peer, InetAddress host, String name) {
        return new InetSocketAddress(host, peer.awaitInt(name, PEER_START));
    }

    /** Host A's side of the phases, and what they measured. */
    private static final class Run {
        private final Peer peer;
        private final MessagingTable table = new MessagingTable();
        private final long[] latencies = new long[LATENCIES];
        private final long warmupNanos;
        private final long measureNanos;
        /** Phases run so far, warm-ups counted: host B's reports are numbered so. */
        private int phase;

        Run(Peer peer, long warmupNanos, long measureNanos) {
            this.peer = peer;
            this.warmupNanos = warmupNanos;
            this.measureNanos = measureNanos;
        }

        /** {@code c}'s warm-up and measured phase over {@code link}, host A's end of each, joined with host B's report. */
        void phases(MessagingCase c, Link link, Thread poller, String note) throws Exception {
            for (int i = 0; i < 2; i++) {
                boolean warmUp = i == 0;
                long nanos = warmUp ? warmupNanos : measureNanos;
                long before = poller == null ? 0 : ThreadAllocation.of(poller);
                Exchange.End a = c.roundTrips() ? Exchange.client(link, nanos, latencies) : Exchange.send(link, nanos);
                long pollerA = poller == null ? -1 : ThreadAllocation.of(poller) - before;
                PeerReport b = PeerReport.parse(peer.awaitValue(PeerReport.key(phase), Duration.ofNanos(nanos).plus(REPORT_GRACE)));
                Exchange.Measured measured = Exchange.acrossHosts(c.roundTrips(), a, b.end(), latencies);
                if (warmUp) {
                    // A per-message figure that falls once compiled is the JIT's, not the path's.
                    System.out.printf("  %s %s, warm-up: %d messages, ends %.1f + %.1f B/msg%n", c.label(), c.mode().label,
                            measured.messages(),
                            (double) measured.allocatedA() / measured.messages(), (double) measured.allocatedB() / measured.messages());
                } else {
                    table.add(c, measured, pollerA, b.pollerAllocated(), note, System.out);
                }
                phase++;
            }
        }
    }
}
