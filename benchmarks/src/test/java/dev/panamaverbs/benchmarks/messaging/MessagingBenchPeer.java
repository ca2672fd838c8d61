package dev.panamaverbs.benchmarks.messaging;

import dev.panamaverbs.benchmarks.ThreadAllocation;
import dev.panamaverbs.cm.RdmaListener;
import dev.panamaverbs.it.support.PeerSide;
import dev.panamaverbs.messaging.MessageChannel;
import dev.panamaverbs.messaging.MessageServer;
import java.lang.foreign.Arena;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;

/**
 * Host B's side of {@link MessagingCompareTwoHostTest}: the far end of every mode, on B's link address
 * (rxe1's netdev, so TCP crosses the same emulated link as RDMA). It listens with a
 * {@link MessageServer} of the default options ("messaging-port"), one with
 * {@link MessagingCase#BUSY_POLL} ("busy-port"), an {@link RdmaListener} for the verbs loop
 * ("verbs-port") and a {@link ServerSocketChannel} ("tcp-port"); accepts host A's channels and
 * TCP connection in that order; then runs the passive end ({@link Exchange#receiveAll}: echoing the
 * round trips, receiving the one-way messages) of every case of {@link MessagingCase#all} in
 * turn, a warm-up phase and a measured one each, the verbs loop over a connection of its own per
 * case. After each phase it publishes its {@link PeerReport} under {@link PeerReport#key}. It runs
 * under the JIT as host A does ({@link JitRelaunch}), not C1 only as the agent starts it.
 */
public final class MessagingBenchPeer {
    /** Longer than any wait for host A: its connects and its phases (the test bounds the whole run). */
    static final Duration WAIT = Duration.ofSeconds(600);

    private MessagingBenchPeer() {}

    public static void main(String[] args) throws Exception {
        JitRelaunch.ifC1Only();
        InetSocketAddress any = new InetSocketAddress(PeerSide.localAddress(), 0);
        // The arena of the rendezvous sources outlives the channels, which hold them registered.
        try (Arena arena = Arena.ofShared();
             MessageServer parked = MessageServer.listen(any, MessagingCase.Mode.MESSAGING.channelOptions());
             MessageServer busy = MessageServer.listen(any, MessagingCase.Mode.BUSY_POLL.channelOptions());
             RdmaListener verbs = RdmaListener.listen(any, VerbsEnd.OPTIONS);
             ServerSocketChannel tcp = ServerSocketChannel.open().bind(any)) {
            PeerSide.publish("messaging-port", parked.localAddress().getPort());
            PeerSide.publish("busy-port", busy.localAddress().getPort());
            PeerSide.publish("verbs-port", verbs.localAddress().getPort());
            PeerSide.publish("tcp-port", ((InetSocketAddress) tcp.getLocalAddress()).getPort());
            try (MessageChannel parkedEnd = accept(parked);
                 MessageChannel busyEnd = accept(busy);
                 SocketChannel tcpEnd = tcp.accept()) {
                tcpEnd.setOption(StandardSocketOptions.TCP_NODELAY, true);
                Thread poller = MessagingCompare.pollerThread();
                System.out.println("host B: channels " + parkedEnd + ", " + busyEnd + "; TCP " + tcpEnd.getRemoteAddress()
                        + "; poller thread " + (poller == null ? "not found" : poller.getName()));
                int phase = 0;
                for (MessagingCase c : MessagingCase.all()) {
                    switch (c.mode()) {
                        case MESSAGING, COPY_OUT, BUSY_POLL -> {
                            MessageChannel channel = c.mode() == MessagingCase.Mode.BUSY_POLL ? busyEnd : parkedEnd;
                            phase = phases(c, new MessagingLink(channel, c.size(), arena, c.sends(), c.copyOut()), poller, phase);
                        }
                        case VERBS -> {
                            try (VerbsEnd end = VerbsEnd.accept(verbs, c, WAIT)) {
                                phase = phases(c, end.link(), null, phase);
                            }
                        }
                        case TCP -> phase = phases(c, new TcpLink(tcpEnd, c.size()), null, phase);
                    }
                }
            }
        }
        System.out.println("host B: done");
    }

    private static MessageChannel accept(MessageServer server) {
        return server.accept(WAIT).orElseThrow(() -> new IllegalStateException("no channel to " + server + " within " + WAIT));
    }

    /** The warm-up and the measured phase of {@code c} over {@code link}; {@return the next phase's index} */
    private static int phases(MessagingCase c, Link link, Thread poller, int phase) throws Exception {
        for (int i = 0; i < 2; i++, phase++) {
            long before = poller == null ? 0 : ThreadAllocation.of(poller);
            Exchange.End end = Exchange.receiveAll(link, c.roundTrips());
            PeerReport report = new PeerReport(end, poller == null ? -1 : ThreadAllocation.of(poller) - before);
            PeerSide.publish(PeerReport.key(phase), report.format());
            System.out.printf("host B: %s %s %s: %s%n", c.label(), c.mode().label, i == 0 ? "warm-up" : "measured", report.format());
        }
        return phase;
    }
}
