package dev.panamaverbs.cm;

import dev.panamaverbs.RemoteRegion;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.Mtu;
import dev.panamaverbs.values.RemoteEndpoint;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.cm.EndpointExchangeException.Reason;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The endpoint exchange's wire format and every way an exchange can fail, in memory and over 127.0.0.1. */
class EndpointExchangeTest {
    private static final InetSocketAddress LOOPBACK_ANY_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    private static final Duration SHORT = Duration.ofMillis(300);
    private static final Duration LONG = Duration.ofSeconds(10);

    private static final EndpointInfo SERVER = new EndpointInfo(0x000102, 0xABCDEF, 0, Gid.parse("::ffff:198.18.0.2"),
            Mtu.MTU_1024, 0, Optional.of(new RemoteRegion(0x7f00_1234_5000L, 0x1122_3344, 65536)));
    private static final EndpointInfo CLIENT = new EndpointInfo(0x11, 0x22, 0x33, null, Mtu.MTU_4096, 0x1111_1111,
            Optional.empty());

    // ---- the wire format ----

    @Test
    void encodesTheDocumentedLayoutBigEndian() {
        String hex = HexFormat.of().formatHex(EndpointExchange.encode(SERVER));
        assertEquals("50564550" + "0001" + "0003" + "00000102" + "00abcdef" + "0000" + "03" + "00" + "00000000"
                + "00000000000000000000ffffc6120002" + "00007f0012345000" + "11223344" + "00000000" + "0000000000010000", hex);
        assertEquals(EndpointExchange.MESSAGE_SIZE, EndpointExchange.encode(CLIENT).length);
    }

    @Test
    void roundTripsWithAndWithoutGidAndRegion() throws Exception {
        assertEquals(SERVER, EndpointExchange.decode(EndpointExchange.encode(SERVER)));
        EndpointInfo client = EndpointExchange.decode(EndpointExchange.encode(CLIENT));
        assertEquals(CLIENT, client);
        assertNull(client.gid());
        assertEquals(0x1111_1111, client.qkey());
        EndpointInfo extremes = new EndpointInfo(0xFF_FFFF, 0xFF_FFFF, 0xFFFF, Gid.parse("fe80::1"), Mtu.MTU_256, -1,
                Optional.of(new RemoteRegion(-1L, -1, Long.MAX_VALUE)));
        assertEquals(extremes, EndpointExchange.decode(EndpointExchange.encode(extremes)));
    }

    @Test
    void mapsThePeersEndpointOntoToRtrAndAddressHandles() {
        RemoteEndpoint global = SERVER.toRemoteEndpoint(1);
        assertEquals(0x102, global.qpn());
        assertEquals(0xABCDEF, global.psn());
        assertEquals(SERVER.gid(), global.gid());
        assertEquals(1, global.sgidIndex());
        assertEquals(Mtu.MTU_1024, global.mtu());
        RemoteEndpoint local = CLIENT.toRemoteEndpoint(0);
        assertNull(local.gid());
        assertEquals(0x33, local.lid());
        assertTrue(SERVER.toAddressHandleAttributes(1, 1).isGlobal());
        assertEquals(Mtu.MTU_1024, CLIENT.commonMtu(SERVER));
        assertEquals(Mtu.MTU_1024, SERVER.commonMtu(CLIENT));
        assertEquals(0x7f00_1234_5000L + 100, SERVER.region().orElseThrow().addressAt(100, 8));
        assertThrows(IndexOutOfBoundsException.class, () -> SERVER.region().orElseThrow().addressAt(65530, 8));
    }

    @Test
    void rejectsFieldsWiderThanTheWire() {
        assertThrows(IllegalArgumentException.class, () -> new EndpointInfo(1 << 24, 0, 0, null, Mtu.MTU_256, 0, Optional.empty()));
        assertThrows(IllegalArgumentException.class, () -> new EndpointInfo(0, -1, 0, null, Mtu.MTU_256, 0, Optional.empty()));
        assertThrows(IllegalArgumentException.class, () -> new EndpointInfo(0, 0, 0x10000, null, Mtu.MTU_256, 0, Optional.empty()));
        assertThrows(NullPointerException.class, () -> new EndpointInfo(0, 0, 0, null, null, 0, Optional.empty()));
        assertThrows(IllegalArgumentException.class, () -> new RemoteRegion(0, 0, -1));
    }

    @Test
    void anotherVersionIsAVersionMismatch() {
        byte[] message = EndpointExchange.encode(SERVER);
        message[5] = 2;
        EndpointExchangeException e = assertThrows(EndpointExchangeException.class, () -> EndpointExchange.decode(message));
        assertSame(Reason.VERSION_MISMATCH, e.reason());
        assertEquals("the peer sent an endpoint message of version 2; this side speaks version 1", e.getMessage());
        // Over a stream, only the 8-byte header is read before the verdict: a longer v2 message cannot block it.
        EndpointExchangeException stream = assertThrows(EndpointExchangeException.class,
                () -> exchangeWith(Arrays.copyOf(message, 8)));
        assertSame(Reason.VERSION_MISMATCH, stream.reason());
    }

    @Test
    void garbageIsRejectedWithTheReason() {
        byte[] http = Arrays.copyOf("GET / HTTP/1.1\r\nHost: x\r\n".getBytes(), 64);
        assertGarbage(http, "not a panama-verbs endpoint message: it starts with 47455420");
        assertGarbage(with(SERVER, 7, (byte) 0x04), "unknown flags 0x4");
        assertGarbage(with(SERVER, 19, (byte) 1), "reserved bytes are not zero");
        assertGarbage(with(SERVER, 55, (byte) 1), "reserved bytes are not zero");
        assertGarbage(with(SERVER, 18, (byte) 9), "unknown MTU value 9");
        assertGarbage(with(SERVER, 8, (byte) 1), "wider than 24 bits");
        assertGarbage(with(CLIENT, 30, (byte) 1), "GID bytes without the GID flag");
        assertGarbage(with(CLIENT, 50, (byte) 1), "memory region fields without the region flag");
        assertGarbage(with(SERVER, 56, (byte) 0x80), "memory region length");
        assertGarbage(Arrays.copyOf(EndpointExchange.encode(SERVER), 65), "is 64 bytes, got 65");
        assertGarbage(new byte[3], "is 64 bytes, got 3");
    }

    private static byte[] with(EndpointInfo info, int offset, byte value) {
        byte[] message = EndpointExchange.encode(info);
        message[offset] = value;
        return message;
    }

    private static void assertGarbage(byte[] message, String expected) {
        EndpointExchangeException e = assertThrows(EndpointExchangeException.class, () -> EndpointExchange.decode(message));
        assertSame(Reason.GARBAGE, e.reason(), e::getMessage);
        assertTrue(e.getMessage().startsWith("malformed endpoint message: ") && e.getMessage().contains(expected), e.getMessage());
    }

    // ---- over in-memory streams ----

    private static EndpointInfo exchangeWith(byte[] fromPeer) throws IOException {
        return EndpointExchange.exchange(new ByteArrayInputStream(fromPeer), new ByteArrayOutputStream(), CLIENT);
    }

    @Test
    void exchangesOverStreamsSendingFirst() throws Exception {
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        EndpointInfo peer = EndpointExchange.exchange(new ByteArrayInputStream(EndpointExchange.encode(SERVER)), sent, CLIENT);
        assertEquals(SERVER, peer);
        assertArrayEquals(EndpointExchange.encode(CLIENT), sent.toByteArray());
    }

    @Test
    void aPeerThatClosesEarlyIsNamed() {
        byte[] message = EndpointExchange.encode(SERVER);
        for (int length : new int[] {0, 5, 8, 40, 63}) {
            EndpointExchangeException e = assertThrows(EndpointExchangeException.class,
                    () -> exchangeWith(Arrays.copyOf(message, length)));
            assertSame(Reason.PEER_CLOSED, e.reason());
            assertEquals("the peer closed the connection after " + length + " of the 64 bytes of its endpoint message",
                    e.getMessage());
        }
    }

    @Test
    void garbageOverAStreamIsRejected() {
        EndpointExchangeException e = assertThrows(EndpointExchangeException.class,
                () -> exchangeWith("SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n".getBytes()));
        assertSame(Reason.GARBAGE, e.reason());
    }

    // ---- over loopback sockets (127.0.0.1 only) ----

    @Test
    void listenerAndConnectExchangeOverLoopback() throws Exception {
        try (EndpointExchange.Listener listener = EndpointExchange.listen(LOOPBACK_ANY_PORT)) {
            CompletableFuture<EndpointInfo> server = CompletableFuture.supplyAsync(() -> uncheck(() -> listener.accept(SERVER, LONG)));
            EndpointInfo fromServer = EndpointExchange.connect(listener.localAddress(), CLIENT, LONG);
            assertEquals(SERVER, fromServer);
            assertEquals(CLIENT, server.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void connectRetriesUntilThePeerListens() throws Exception {
        InetSocketAddress address = freeLoopbackPort();
        CompletableFuture<EndpointInfo> client = CompletableFuture.supplyAsync(() -> uncheck(() -> EndpointExchange.connect(address, CLIENT, LONG)));
        Thread.sleep(400); // the client is refused a few times first
        try (EndpointExchange.Listener listener = EndpointExchange.listen(address)) {
            assertEquals(CLIENT, listener.accept(SERVER, LONG));
        }
        assertEquals(SERVER, client.get(10, TimeUnit.SECONDS));
    }

    @Test
    void connectToNobodyTimesOut() throws Exception {
        InetSocketAddress address = freeLoopbackPort();
        long started = System.nanoTime();
        EndpointExchangeException e = assertThrows(EndpointExchangeException.class, () -> EndpointExchange.connect(address, CLIENT, SHORT));
        assertSame(Reason.TIMEOUT, e.reason());
        assertTrue(e.getMessage().startsWith("could not connect to " + address + " within PT0.3S"), e.getMessage());
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(5), "gave up in time");
    }

    @Test
    void acceptWithoutAPeerTimesOut() throws Exception {
        try (EndpointExchange.Listener listener = EndpointExchange.listen(LOOPBACK_ANY_PORT)) {
            EndpointExchangeException e = assertThrows(EndpointExchangeException.class, () -> listener.accept(SERVER, SHORT));
            assertSame(Reason.TIMEOUT, e.reason());
            assertTrue(e.getMessage().startsWith("no peer connected to "), e.getMessage());
        }
    }

    @Test
    void aSilentPeerTimesOutTheRead() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
             Socket silent = server.accept()) {
            EndpointExchangeException e = assertThrows(EndpointExchangeException.class, () -> EndpointExchange.exchange(client, CLIENT, SHORT));
            assertSame(Reason.TIMEOUT, e.reason());
            assertEquals(0, client.getSoTimeout(), "the socket's own timeout is restored");
            assertArrayEquals(EndpointExchange.encode(CLIENT), silent.getInputStream().readNBytes(64), "ours was sent");
        }
    }

    @Test
    void aPeerClosingTheSocketEarlyIsNamed() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
            try (Socket peer = server.accept()) {
                peer.getOutputStream().write(Arrays.copyOf(EndpointExchange.encode(SERVER), 20));
            }
            EndpointExchangeException e = assertThrows(EndpointExchangeException.class, () -> EndpointExchange.exchange(client, CLIENT, LONG));
            assertSame(Reason.PEER_CLOSED, e.reason());
            assertTrue(e.getMessage().contains("after 20 of the 64 bytes"), e.getMessage());
        }
    }

    @Test
    void exchangesOverSocketChannels() throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(LOOPBACK_ANY_PORT);
             SocketChannel client = SocketChannel.open(server.getLocalAddress());
             SocketChannel accepted = server.accept()) {
            CompletableFuture<EndpointInfo> serverSide = CompletableFuture.supplyAsync(
                    () -> uncheck(() -> EndpointExchange.exchange(accepted, SERVER, LONG)));
            assertEquals(SERVER, EndpointExchange.exchange(client, CLIENT, LONG));
            assertEquals(CLIENT, serverSide.get(10, TimeUnit.SECONDS));
            assertTrue(client.isBlocking() && client.isOpen(), "left blocking and open");
            // Still usable as a control channel afterwards.
            client.write(ByteBuffer.wrap(new byte[] {42}));
            ByteBuffer one = ByteBuffer.allocate(1);
            accepted.read(one);
            assertEquals(42, one.get(0));
        }
    }

    @Test
    void socketChannelTimeoutsAndEarlyCloses() throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(LOOPBACK_ANY_PORT);
             SocketChannel client = SocketChannel.open(server.getLocalAddress());
             SocketChannel accepted = server.accept()) {
            EndpointExchangeException timeout = assertThrows(EndpointExchangeException.class,
                    () -> EndpointExchange.exchange(client, CLIENT, SHORT));
            assertSame(Reason.TIMEOUT, timeout.reason());
            assertTrue(client.isBlocking(), "blocking mode restored");
            // The peer sends 12 bytes and closes its side (a half close: our own send still succeeds).
            accepted.write(ByteBuffer.wrap(Arrays.copyOf(EndpointExchange.encode(SERVER), 12)));
            accepted.shutdownOutput();
            EndpointExchangeException closed = assertThrows(EndpointExchangeException.class,
                    () -> EndpointExchange.exchange(client, CLIENT, LONG));
            assertSame(Reason.PEER_CLOSED, closed.reason());
            assertTrue(closed.getMessage().contains("after 12 of the 64 bytes"), closed.getMessage());
        }
    }

    @Test
    void negativeTimeoutsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> EndpointExchange.connect(LOOPBACK_ANY_PORT, CLIENT, Duration.ofMillis(-1)));
    }

    private static InetSocketAddress freeLoopbackPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), probe.getLocalPort());
        }
    }

    private interface IoSupplier<T> {
        T get() throws IOException;
    }

    private static <T> T uncheck(IoSupplier<T> supplier) {
        try {
            return supplier.get();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
