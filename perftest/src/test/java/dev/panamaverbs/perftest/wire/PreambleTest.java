package dev.panamaverbs.perftest.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The preamble against a scripted perftest 4.5 peer on a loopback socket: the exact bytes each
 * step sends (version "6.06" NUL-padded to 16, page size and cache line as 4-byte big-endian
 * ints, the MTU as "%d" of the ibv_mtu plus its NUL), the client writing first, and the peer's
 * refusals (an old version, a closed connection) named.
 */
class PreambleTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** A scripted C server: checks what the Java client sends and answers with {@code answers}. */
    private static CompletableFuture<Void> cServer(ServerSocket listener, byte[][] expected, byte[][] answers) {
        return CompletableFuture.runAsync(() -> {
            try (Socket socket = listener.accept()) {
                DataInputStream in = new DataInputStream(socket.getInputStream());
                OutputStream out = socket.getOutputStream();
                for (int i = 0; i < answers.length; i++) {
                    byte[] got = new byte[expected[i].length];
                    in.readFully(got);
                    assertArrayEquals(expected[i], got, "step " + i);
                    out.write(answers[i]);
                }
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
    }

    /**
     * Runs the preamble (4096-byte messages, MTU 64, 3 iterations) against a {@link #cServer}
     * that checks {@code expected} and answers {@code answers}, and returns the {@code type} it threw.
     */
    private static <E extends Throwable> E preambleRefused(Class<E> type, byte[][] expected, byte[][] answers)
            throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> peer = cServer(listener, expected, answers);
            E refused;
            try (OobChannel channel = OobChannel.connect("127.0.0.1", listener.getLocalPort(), TIMEOUT)) {
                refused = assertThrows(type, () -> Preamble.run(channel, 4096, 64, 3));
            }
            peer.get();
            return refused;
        }
    }

    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }

    private static byte[] version(String text) {
        byte[] field = new byte[16];
        byte[] t = text.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(t, 0, field, 0, t.length);
        return field;
    }

    @Test
    void againstPerftest45() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            byte[][] expected = {version("6.06"), bytes(0, 0, 0x10, 0), bytes(0, 0, 0, 0x40), bytes('5', 0)};
            byte[][] answers = {version("6.06"), bytes(0, 0, 0x20, 0), bytes(0, 0, 0, 0x80), bytes('3', 0)};
            CompletableFuture<Void> peer = cServer(listener, expected, answers);
            try (OobChannel channel = OobChannel.connect("127.0.0.1", listener.getLocalPort(), TIMEOUT)) {
                Preamble preamble = Preamble.run(channel, 4096, 64, 5);
                assertEquals(new Preamble("6.06", 8192, 128, 3), preamble);
            }
            peer.get();
        }
    }

    @Test
    @SuppressWarnings("try") // the probe socket is closed early on purpose: it frees the port for the server
    void theServerReadsFirst() throws Exception {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = probe.getLocalPort();
            probe.close();
            CompletableFuture<Preamble> javaServer = CompletableFuture.supplyAsync(() -> {
                try (OobChannel channel = OobChannel.accept(port, TIMEOUT)) {
                    return Preamble.run(channel, 4096, 64, 3);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            Socket socket = connectWithRetry(port);
            try (socket) {
                DataInputStream in = new DataInputStream(socket.getInputStream());
                OutputStream out = socket.getOutputStream();
                out.write(version("6.06"));         // a C client writes first, then reads
                byte[] v = new byte[16];
                in.readFully(v);
                assertArrayEquals(version("6.06"), v);
                out.write(bytes(0, 0, 0x10, 0));
                in.readFully(new byte[4]);
                out.write(bytes(0, 0, 0, 0x40));
                in.readFully(new byte[4]);
                out.write(bytes('4', 0));
                byte[] mtu = new byte[2];
                in.readFully(mtu);
                assertArrayEquals(bytes('3', 0), mtu);
            }
            assertEquals(3, javaServer.get().mtu());
        }
    }

    private static Socket connectWithRetry(int port) throws Exception {
        for (int i = 0; ; i++) {
            try {
                Socket socket = new Socket();
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
                return socket;
            } catch (IOException e) {
                if (i > 50) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    @Test
    void anOldPeerIsRefusedAsPerftestRefusesIt() throws Exception {
        ProtocolException e = preambleRefused(ProtocolException.class, new byte[][] {version("6.06")},
                new byte[][] {version("5.60")});
        assertTrue(e.getMessage().contains("5.60") && e.getMessage().contains("older than 5.7"), e.getMessage());
    }

    @Test
    void notPerftestIsNamed() throws Exception {
        ProtocolException e = preambleRefused(ProtocolException.class, new byte[][] {version("6.06")},
                new byte[][] {"SSH-2.0-OpenSSH_9".getBytes(StandardCharsets.US_ASCII)});
        assertTrue(e.getMessage().contains("not perftest"), e.getMessage());
    }

    @Test
    void aPeerThatClosesIsReportedWithTheStep() throws Exception {
        // The peer answers the version, then closes (as perftest does when it refuses: it exits).
        IOException e = preambleRefused(IOException.class, new byte[][] {version("6.06")}, new byte[][] {version("6.06")});
        assertInstanceOf(PeerGoneException.class, e);
        assertTrue(e.getMessage().contains("system-data"), e.getMessage());
    }

    @Test
    void aSilentPeerTimesOut() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Socket> accepted = CompletableFuture.supplyAsync(() -> {
                try {
                    return listener.accept();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            try (OobChannel channel = OobChannel.connect("127.0.0.1", listener.getLocalPort(), Duration.ofMillis(300))) {
                PeerGoneException e = assertThrows(PeerGoneException.class, () -> Preamble.run(channel, 4096, 64, 3));
                assertTrue(e.getMessage().contains("no answer") && e.getMessage().contains("version"), e.getMessage());
            } finally {
                accepted.get().close();
            }
        }
    }

    @Test
    void fieldsAsTheCFormatsThem() {
        assertArrayEquals(bytes('3', 0), MtuField.encode(3));
        assertEquals(4, MtuField.decode(bytes('4', 0)));
        assertEquals(0, MtuField.decode(bytes('x', 0)));
        assertEquals(3, MtuField.agreed(5, 3));
        assertEquals(3, MtuField.agreed(3, 5));
        assertEquals(3, MtuField.agreed(3, 0));           // an invalid peer MTU is ignored, as perftest does
        assertEquals(6.06, VersionField.number("6.06"), 1e-9);
        assertEquals(5.7, VersionField.number("5.70 beta"), 1e-9);
        assertEquals(0, VersionField.number("x"), 0);
        assertArrayEquals(bytes(0, 0, 0x10, 0), SystemData.encode(4096));
        assertArrayEquals(bytes(0x40, 0x90, 0x48, 0, 0, 0, 0, 0), BandwidthReportWire.doubleField(1042.0));
        assertArrayEquals(bytes(0, 0, 0, 0, 0, 1, 0, 0), BandwidthReportWire.longField(65536));
    }
}
