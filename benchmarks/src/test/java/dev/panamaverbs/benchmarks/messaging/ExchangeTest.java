package dev.panamaverbs.benchmarks.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * MessagingCompare's patterns and checks without a device: both patterns over {@link TcpLink} on
 * the loop-back interface, a torn message and a skipped sequence number caught, and a failing end
 * ending the phase instead of hanging it.
 */
class ExchangeTest {
    private static final long PHASE = TimeUnit.MILLISECONDS.toNanos(200);

    @Test
    void roundTripsAndOneWayOverTcpCountEveryMessage() throws Exception {
        try (Connection tcp = Connection.open()) {
            long[] latencies = new long[1 << 20];
            Exchange.Measured rt = Exchange.roundTrips(new TcpLink(tcp.client(), 64), new TcpLink(tcp.accepted(), 64), PHASE,
                    latencies);
            assertTrue(rt.messages() > 0, "round trips: " + rt);
            assertEquals(rt.messages(), rt.latencyCount());
            assertTrue(rt.nanos() >= PHASE, "the phase lasts its duration: " + rt.nanos());
            Exchange.Measured oneWay = Exchange.oneWay(new TcpLink(tcp.client(), 4096), new TcpLink(tcp.accepted(), 4096), PHASE);
            assertTrue(oneWay.messages() > 0, "one way: " + oneWay);
            assertTrue(oneWay.nanos() >= PHASE, "the phase lasts its duration: " + oneWay.nanos());
        }
    }

    /** A TCP connection on the loop-back interface, TCP_NODELAY on both ends. */
    private record Connection(ServerSocketChannel server, SocketChannel client, SocketChannel accepted)
            implements AutoCloseable {
        static Connection open() throws IOException {
            ServerSocketChannel server = ServerSocketChannel.open()
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel client = SocketChannel.open(server.getLocalAddress());
            SocketChannel accepted = server.accept();
            for (SocketChannel end : new SocketChannel[] {client, accepted}) {
                end.setOption(StandardSocketOptions.TCP_NODELAY, true);
            }
            return new Connection(server, client, accepted);
        }

        @Override
        public void close() throws IOException {
            try (server; client; accepted) {
                // closes all three
            }
        }
    }

    @Test
    void aTornOrShortMessageFailsTheCheck() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment message = arena.allocate(64);
            Stamp.write(message, 64, Stamp.word(7, true));
            assertEquals(Stamp.word(7, true), Stamp.check(message, 64, 64));
            assertThrows(IllegalStateException.class, () -> Stamp.check(message, 63, 64));
            message.set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 56, 8);
            assertThrows(IllegalStateException.class, () -> Stamp.check(message, 64, 64));
        }
        assertThrows(IllegalStateException.class, () -> Stamp.expect(Stamp.word(8, false), 7));
    }

    @Test
    void aSkippedMessageFailsThePhaseWithoutHangingIt() throws Exception {
        try (Connection tcp = Connection.open()) {
            TcpLink sender = new TcpLink(tcp.client(), 64);
            Link skipping = new Link() {
                private long sent;

                @Override
                public void send(long word) throws Exception {
                    sender.send(sent++ == 3 ? word + 1 : word);
                }

                @Override
                public long receive() throws Exception {
                    return sender.receive();
                }

                @Override
                public void flush() {}

                @Override
                public void abort() {
                    sender.abort();
                }
            };
            IllegalStateException e = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> assertThrows(
                    IllegalStateException.class, () -> Exchange.oneWay(skipping, new TcpLink(tcp.accepted(), 64), PHASE)));
            assertTrue(e.getMessage().contains("where 3 was due"), e.getMessage());
        }
    }
}
