package dev.panamaverbs.it.device;

import static dev.panamaverbs.it.support.RdmaCmSupport.anyPort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panamaverbs.Device;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.cm.ConnectionRejectedException;
import dev.panamaverbs.it.support.RdmaCmSupport;
import dev.panamaverbs.messaging.ChannelOptions;
import dev.panamaverbs.messaging.MessageChannel;
import dev.panamaverbs.messaging.MessageServer;
import dev.panamaverbs.messaging.MessagingException;
import dev.panamaverbs.messaging.ReceivedMessage;
import dev.panamaverbs.messaging.SharedReceivePool;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Message channels whose receive buffers come from one {@link SharedReceivePool} (an SRQ) on the
 * device's own address: both sides of three connections on one pool, echoing numbered messages
 * through windows of 4; a channel beyond the pool's room refused with the reason in the reject;
 * the room coming back on close, less what a held message keeps until released; the pool closed
 * under a live channel failing it (its waiter and its peer) rather than leaving it on a destroyed
 * queue pair. The channels
 * connect with RNR retry 0, so one RNR NAK would fail a channel: every channel staying open shows
 * there was none.
 */
class SharedReceivePoolDeviceTest {
    private static final int WINDOW = 4;
    private static final int MESSAGES = 40;
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final ChannelOptions OPTIONS = ChannelOptions.builder().receiveCredits(WINDOW).sendBuffers(2)
            .maxMessageSize(1024).build();

    @DeviceTest
    void bothSidesOfThreeConnectionsEchoThroughOnePool(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        int connections = 3;
        try (PooledServer setUp = PooledServer.open(ip, 2 * connections)) {
            SharedReceivePool pool = setUp.pool();
            MessageServer server = setUp.server();
            ExecutorService threads = setUp.threads();
            assertEquals(2 * connections * OPTIONS.receiveBuffers(), pool.statistics().buffers());
            List<MessageChannel> channels = new ArrayList<>();
            List<Future<Integer>> echoes = new ArrayList<>();
            List<MessageChannel> clients = new ArrayList<>();
            try {
                for (int c = 0; c < connections; c++) {
                    CompletableFuture<MessageChannel> accepted = ChannelLoop.acceptLater(server, threads);
                    MessageChannel client = MessageChannel.connect(server.localAddress(), OPTIONS, pool);
                    channels.add(client);
                    clients.add(client);
                    MessageChannel serverSide = accepted.get(60, TimeUnit.SECONDS);
                    channels.add(serverSide);
                    echoes.add(threads.submit(() -> echo(serverSide)));
                }
                assertEquals(2 * connections, pool.statistics().channels());
                assertEquals(pool.statistics().buffers(), pool.statistics().reservedBuffers(), "every channel holds its window + reserve");
                List<Future<Integer>> talks = new ArrayList<>();
                for (int c = 0; c < connections; c++) {
                    MessageChannel client = clients.get(c);
                    int connection = c;
                    talks.add(threads.submit(() -> sendAndCheckEchoes(client, connection)));
                }
                for (int c = 0; c < connections; c++) {
                    assertEquals(MESSAGES, talks.get(c).get(300, TimeUnit.SECONDS), "echoes on connection " + c);
                    assertEquals(MESSAGES, echoes.get(c).get(300, TimeUnit.SECONDS), "messages echoed on " + c);
                }
                for (MessageChannel channel : channels) {
                    assertTrue(channel.isOpen(), "no RNR NAK failed a channel (RNR retry 0): " + channel + " "
                            + channel.failure());
                }
            } finally {
                channels.forEach(MessageChannel::close);
            }
            assertEquals(0, pool.statistics().channels());
            assertEquals(0, pool.statistics().reservedBuffers(), "every buffer back in the pool");
        }
    }

    @DeviceTest
    void aChannelBeyondThePoolIsRefusedAndItsRoomComesBackOnClose(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        try (PooledServer setUp = PooledServer.open(ip, 1)) {
            ChannelOptions larger = ChannelOptions.builder().receiveCredits(WINDOW).maxMessageSize(2048).build();
            assertThrows(IllegalArgumentException.class, () -> MessageServer.listen(anyPort(ip), larger, setUp.pool()),
                    "a server whose buffers are not the pool's");

            CompletableFuture<MessageChannel> first = setUp.acceptLater();
            MessageChannel firstClient = MessageChannel.connect(setUp.address(), OPTIONS);
            MessageChannel firstServerSide = first.get(60, TimeUnit.SECONDS);
            assertEquals(OPTIONS.receiveBuffers(), setUp.pool().statistics().reservedBuffers());

            // The pool is full: the next request is rejected, and the client hears why.
            CompletableFuture<MessageChannel> refused = setUp.acceptLater();
            ConnectionRejectedException rejected = assertThrows(ConnectionRejectedException.class,
                    () -> MessageChannel.connect(setUp.address(), OPTIONS));
            String reason = new String(rejected.privateData(), StandardCharsets.UTF_8);
            assertTrue(reason.contains("shared receive pool"), reason);
            ExecutionException serverSide = assertThrows(ExecutionException.class, () -> refused.get(60, TimeUnit.SECONDS));
            assertInstanceOf(MessagingException.class, serverSide.getCause());
            assertTrue(serverSide.getCause().getMessage().contains("are free"), serverSide.getCause().getMessage());

            // A message held across the close keeps its buffer out of the pool until released.
            firstClient.send(numbered(7));
            ReceivedMessage held = firstServerSide.receive(WAIT);
            assertNotNull(held);
            firstServerSide.close();
            firstClient.close();
            assertEquals(0, setUp.pool().statistics().channels());
            assertEquals(1, setUp.pool().statistics().reservedBuffers(), "the held message's buffer");
            assertThrows(IllegalStateException.class, held::payload, "its channel is closed");
            held.release();
            assertEquals(0, setUp.pool().statistics().reservedBuffers(), "released: back in the pool");

            // The room is back: a new channel fits and works.
            CompletableFuture<MessageChannel> again = setUp.acceptLater();
            try (MessageChannel client = MessageChannel.connect(setUp.address(), OPTIONS);
                 MessageChannel receiver = again.get(60, TimeUnit.SECONDS)) {
                for (int i = 0; i < 3 * OPTIONS.receiveBuffers(); i++) {
                    client.send(numbered(i));
                    ReceivedMessage message = receiver.receive(WAIT);
                    assertNotNull(message, "message " + i);
                    assertEquals(i, message.payload().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
                    message.release();
                }
                assertTrue(receiver.isOpen() && client.isOpen());
            }
        }
    }

    @DeviceTest
    void closingThePoolUnderALiveChannelFailsItAndItsPeerWithoutAHang(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        try (PooledServer setUp = PooledServer.open(ip, 1)) {
            CompletableFuture<MessageChannel> accepted = setUp.acceptLater();
            try (MessageChannel client = MessageChannel.connect(setUp.address(), OPTIONS);
                 MessageChannel pooled = accepted.get(60, TimeUnit.SECONDS)) {
                client.send(numbered(1));
                ReceivedMessage first = pooled.receive(WAIT);
                assertNotNull(first, "the channel works before the close");
                first.release();

                Future<ReceivedMessage> waiting = setUp.threads().submit(() -> pooled.receive(WAIT));
                setUp.pool().close();
                ExecutionException woken = assertThrows(ExecutionException.class, () -> waiting.get(30, TimeUnit.SECONDS),
                        "the waiter ends with the failure, long before its own 60 s");
                assertInstanceOf(MessagingException.class, woken.getCause());
                assertTrue(woken.getCause().getMessage().contains("shared receive pool"), woken.getCause().getMessage());
                MessagingException send = assertThrows(MessagingException.class, () -> pooled.send(numbered(2)));
                assertTrue(send.getMessage().contains("shared receive pool"), send.getMessage());
                assertFalse(pooled.isOpen());
                // The peer hears the disconnect: its receive fails instead of waiting out its time.
                long start = System.nanoTime();
                assertThrows(MessagingException.class, () -> client.receive(WAIT));
                assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(30), "the peer failed at the disconnect");
            }
            setUp.pool().close(); // idempotent
            MessagingException refused = assertThrows(MessagingException.class,
                    () -> MessageChannel.connect(setUp.address(), OPTIONS, setUp.pool()));
            assertTrue(refused.getMessage().contains("is closed"), refused.getMessage());
            assertEquals(0, setUp.pool().statistics().channels());
        }
    }

    /**
     * A pool on another device than the connection's is refused before any connect, naming both
     * devices, and the pool stays usable. Needs a second RDMA device with an IPv4 address (the
     * two-host VMs have rxe0 and the link's rxe1); skipped where there is none.
     */
    @DeviceTest
    void aPoolOnAnotherDeviceIsRefusedNamingBoth(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        Optional<TestDevice> other = Verbs.devices().stream().map(Device::name).filter(name -> !name.equals(device.name()))
                .map(name -> new TestDevice(name, device.port(), device.gidIndex())).findFirst();
        assumeTrue(other.isPresent(), "no second RDMA device beside " + device.name());
        InetAddress otherIp = RdmaCmSupport.deviceAddress(other.get());
        assumeFalse(otherIp.equals(ip), other.get().name() + " has " + device.name() + "'s address");
        try (SharedReceivePool pool = SharedReceivePool.create(anyPort(otherIp), OPTIONS, 1);
             MessageServer server = MessageServer.listen(anyPort(ip), OPTIONS)) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> MessageChannel.connect(server.localAddress(), OPTIONS, pool));
            assertTrue(refused.getMessage().contains(other.get().name()) && refused.getMessage().contains(device.name()),
                    refused.getMessage());
            assertEquals(0, pool.statistics().channels(), "nothing reserved");
            assertEquals(0, pool.statistics().reservedBuffers());
        }
    }

    /** A pool for {@code channels} channels on the device's address, a server on it, and virtual threads. */
    private record PooledServer(SharedReceivePool pool, MessageServer server, ExecutorService threads) implements AutoCloseable {
        static PooledServer open(InetAddress ip, int channels) {
            SharedReceivePool pool = SharedReceivePool.create(anyPort(ip), OPTIONS, channels);
            try {
                return new PooledServer(pool, MessageServer.listen(anyPort(ip), OPTIONS, pool),
                        Executors.newVirtualThreadPerTaskExecutor());
            } catch (RuntimeException e) {
                pool.close();
                throw e;
            }
        }

        /** {@return the server side of the next connection, accepted on a virtual thread} */
        CompletableFuture<MessageChannel> acceptLater() {
            return ChannelLoop.acceptLater(server, threads);
        }

        java.net.InetSocketAddress address() {
            return server.localAddress();
        }

        @Override
        public void close() {
            try (pool; server) {
                threads.close();
            }
        }
    }

    /** Receives {@link #MESSAGES} messages and sends each back; {@return how many} */
    private static int echo(MessageChannel channel) {
        for (int i = 0; i < MESSAGES; i++) {
            ReceivedMessage message = channel.receive(WAIT);
            assertNotNull(message, "message " + i + " on " + channel);
            try {
                channel.send(message.payload());
            } finally {
                message.release();
            }
        }
        return MESSAGES;
    }

    /** Sends numbered messages of the connection and checks each echo, two in flight; {@return echoes checked} */
    private static int sendAndCheckEchoes(MessageChannel channel, int connection) {
        int checked = 0;
        for (int i = 0; i < MESSAGES; i++) {
            channel.send(numbered(connection * 1000 + i));
            if (i >= 1) {
                checkEcho(channel, connection * 1000 + checked++);
            }
        }
        while (checked < MESSAGES) {
            checkEcho(channel, connection * 1000 + checked++);
        }
        return checked;
    }

    private static void checkEcho(MessageChannel channel, int expected) {
        ReceivedMessage echo = channel.receive(WAIT);
        assertNotNull(echo, "echo " + expected);
        try {
            assertEquals(64, echo.length());
            assertEquals(expected, echo.payload().get(ValueLayout.JAVA_INT_UNALIGNED, 0), "in order, intact");
            assertEquals(~expected, echo.payload().get(ValueLayout.JAVA_INT_UNALIGNED, 60), "its last word");
        } finally {
            echo.release();
        }
    }

    private static MemorySegment numbered(int i) {
        MemorySegment payload = MemorySegment.ofArray(new byte[64]);
        payload.set(ValueLayout.JAVA_INT_UNALIGNED, 0, i);
        payload.set(ValueLayout.JAVA_INT_UNALIGNED, 60, ~i);
        return payload;
    }
}
