package dev.panamaverbs.examples.pingpong;

import dev.panamaverbs.values.Gid;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TCP exchange over loopback, against scripted peers that write and read exactly what C's
 * rc_pingpong does (52-byte messages, then "done" with its NUL), and with a silent peer: bounded.
 */
class PingPongExchangeTest {
    private static final Gid GID = Gid.of(HexFormat.of().parseHex("00000000000000000000ffff0a00020f"));
    private static final PingPongDestination CLIENT = new PingPongDestination(0, 0x11, 0x123456, GID);
    private static final PingPongDestination SERVER = new PingPongDestination(0, 0x12, 0x654321, GID);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void ourClientAgainstAServerActingAsC() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<byte[]> server = CompletableFuture.supplyAsync(() -> {
                try (Socket socket = listener.accept()) {
                    byte[] got = socket.getInputStream().readNBytes(52);
                    socket.getOutputStream().write(SERVER.toMessage());
                    byte[] done = socket.getInputStream().readNBytes(5);
                    return concat(got, done);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            PingPongDestination remote = PingPongExchange.client("127.0.0.1", listener.getLocalPort(), CLIENT, TIMEOUT);
            assertEquals(SERVER, remote);
            byte[] seen = server.get(10, TimeUnit.SECONDS);
            assertArrayEquals(CLIENT.toMessage(), Arrays.copyOf(seen, 52));
            assertArrayEquals("done\0".getBytes(StandardCharsets.US_ASCII), Arrays.copyOfRange(seen, 52, 57));
        }
    }

    @Test
    void ourServerConnectsBeforeAnsweringAndWaitsForDone() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        AtomicReference<PingPongDestination> connectedTo = new AtomicReference<>();
        CompletableFuture<PingPongDestination> server = CompletableFuture.supplyAsync(() -> {
            try {
                return PingPongExchange.server(port, SERVER, TIMEOUT, connectedTo::set);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        try (Socket socket = connectWithRetry(port)) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(CLIENT.toMessage());
            byte[] answer = in.readNBytes(52);
            assertEquals(CLIENT, connectedTo.get(), "the server connects its QP before it answers");
            assertEquals(SERVER, PingPongDestination.parse(answer));
            out.write("done\0".getBytes(StandardCharsets.US_ASCII));
        }
        assertEquals(CLIENT, server.get(10, TimeUnit.SECONDS));
    }

    @Test
    void aSilentPeerTimesOut() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            IOException e = assertThrows(IOException.class,
                    () -> PingPongExchange.client("127.0.0.1", listener.getLocalPort(), CLIENT, Duration.ofMillis(300)));
            assertTrue(e.getMessage().contains("in time"), e.getMessage());
        }
    }

    @Test
    void aServerWithoutClientTimesOut() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        IOException e = assertThrows(IOException.class,
                () -> PingPongExchange.server(port, SERVER, Duration.ofMillis(300), remote -> {}));
        assertTrue(e.getMessage().contains("no client"), e.getMessage());
    }

    private static Socket connectWithRetry(int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                return new Socket(InetAddress.getLoopbackAddress(), port);
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
