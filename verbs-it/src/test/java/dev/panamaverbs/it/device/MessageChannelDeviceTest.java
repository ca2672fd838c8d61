package dev.panamaverbs.it.device;

import static dev.panamaverbs.it.support.RdmaCmSupport.WAIT;
import static dev.panamaverbs.it.support.RdmaCmSupport.anyPort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.panamaverbs.Context;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionRejectedException;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.it.support.DeviceScope;
import dev.panamaverbs.it.support.RdmaCmSupport;
import dev.panamaverbs.messaging.ChannelOptions;
import dev.panamaverbs.messaging.CreditTimeoutException;
import dev.panamaverbs.messaging.MessageChannel;
import dev.panamaverbs.messaging.MessageServer;
import dev.panamaverbs.messaging.MessagingException;
import dev.panamaverbs.messaging.ReceivedMessage;
import dev.panamaverbs.messaging.SendBuffer;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.PortCounters;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Message channels (verbs-messaging) over rxe through rdma_cm, client and server in one JVM on
 * the device's own address: messages of random sizes checked byte for byte with no RNR NAK in the
 * port counters, a receiver that stops reading (the sender times out or blocks, nothing overruns,
 * traffic resumes by itself), a peer that closes under a blocked sender, and a stranger rejected.
 * Message counts are small: the VM is about 1000x slower than a native host.
 */
class MessageChannelDeviceTest {
    /** The counters rxe moves on an RNR NAK (docs/observability.md). */
    private static final List<String> RNR_COUNTERS = List.of("rcvd_rnr_err", "send_rnr_err", "retry_rnr_exceeded_err");
    private static final int CONNECTIONS = 3;
    private static final int MESSAGES = 60;
    private static final int MAX = 64 * 1024;

    @DeviceTest
    void messagesOfRandomSizesArriveIntactWithoutAnyRnrNak(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        long seed = System.nanoTime();
        System.out.println("MessageChannelDeviceTest seed: " + seed);
        // A window of 8 against 60 messages: credits must come back, by CREDIT messages on the
        // one-way connections and piggy-backed on the acknowledgements of connection 0.
        ChannelOptions options = ChannelOptions.builder().receiveCredits(8).sendBuffers(4).maxMessageSize(MAX).build();
        try (Context counters = DeviceScope.openContext(device);
             MessageServer server = MessageServer.listen(anyPort(ip), options);
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            PortCounters before = counters.portCounters(device.port());
            List<Future<Integer>> receivers = new ArrayList<>();
            List<MessageChannel> serverSides = new ArrayList<>();
            List<MessageChannel> clients = new ArrayList<>();
            try {
                for (int c = 0; c < CONNECTIONS; c++) {
                    CompletableFuture<MessageChannel> accepted = ChannelLoop.acceptLater(server, threads);
                    clients.add(MessageChannel.connect(server.localAddress(), options));
                    MessageChannel serverSide = accepted.get(60, TimeUnit.SECONDS);
                    serverSides.add(serverSide);
                    int connection = c;
                    receivers.add(threads.submit(() -> receiveAndCheck(serverSide, connection, seed)));
                }
                AtomicInteger acks = new AtomicInteger();
                clients.get(0).setMessageHandler(message -> {
                    acks.incrementAndGet();
                    message.release();
                });
                List<Future<Long>> senders = new ArrayList<>();
                for (int c = 0; c < CONNECTIONS; c++) {
                    MessageChannel client = clients.get(c);
                    int connection = c;
                    senders.add(threads.submit(() -> sendAll(client, connection, seed)));
                }
                long bytes = 0;
                for (int c = 0; c < CONNECTIONS; c++) {
                    bytes += senders.get(c).get(300, TimeUnit.SECONDS);
                    assertEquals(MESSAGES, receivers.get(c).get(300, TimeUnit.SECONDS), "connection " + c);
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (acks.get() < MESSAGES && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                assertEquals(MESSAGES, acks.get(), "every acknowledgement of connection 0 arrived");
                for (int c = 1; c < CONNECTIONS; c++) {
                    MessageChannel serverSide = serverSides.get(c);
                    MessageChannel client = clients.get(c);
                    assertTrue(serverSide.statistics().creditMessagesSent() > 0,
                            "one-way traffic returns its credits in CREDIT messages: " + serverSide);
                    // The receiver's last release may post a CREDIT message that is still on the wire
                    // when its count of messages is done: wait for it (bounded) before comparing.
                    while (client.statistics().creditMessagesReceived() < serverSide.statistics().creditMessagesSent()
                            && System.nanoTime() < deadline) {
                        Thread.sleep(10);
                    }
                    assertEquals(serverSide.statistics().creditMessagesSent(),
                            client.statistics().creditMessagesReceived(), "every CREDIT message arrived");
                }
                for (MessageChannel channel : clients) {
                    assertTrue(channel.isOpen(), channel + " " + channel.failure());
                }
                PortCounters after = counters.portCounters(device.port());
                Map<String, Long> moved = after.changesSince(before);
                System.out.println("messages: " + CONNECTIONS + " x " + MESSAGES + ", " + bytes + " payload bytes; credit messages "
                        + serverSides.stream().mapToLong(channel -> channel.statistics().creditMessagesSent()).sum() + "; counters moved: " + moved);
                assertNoRnr(counters, before, moved);
            } finally {
                clients.forEach(MessageChannel::close);
                serverSides.forEach(MessageChannel::close);
            }
        }
    }

    @DeviceTest
    void aReceiverThatStopsReadingStopsTheSenderAndTrafficResumesByItself(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        int window = 4;
        int total = 24;
        ChannelOptions serverOptions = ChannelOptions.builder().receiveCredits(window).maxMessageSize(1024).build();
        ChannelOptions failFast = ChannelOptions.builder().receiveCredits(window).maxMessageSize(1024)
                .sendTimeout(Duration.ZERO).build();
        try (Context counters = DeviceScope.openContext(device);
             MessageServer server = MessageServer.listen(anyPort(ip), serverOptions);
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            PortCounters before = counters.portCounters(device.port());
            CompletableFuture<MessageChannel> accepted = ChannelLoop.acceptLater(server, threads);
            try (MessageChannel client = MessageChannel.connect(server.localAddress(), failFast);
                 MessageChannel receiver = accepted.get(60, TimeUnit.SECONDS)) {
                assertEquals(window, client.statistics().peerCredits());
                // The receiver reads nothing: the window fills, then a fail-fast send is refused.
                for (int i = 0; i < window; i++) {
                    client.send(numbered(i));
                }
                assertEquals(0, client.statistics().availableCredits());
                assertThrows(CreditTimeoutException.class, () -> client.send(numbered(window)));
                long start = System.nanoTime();
                CreditTimeoutException timedOut = assertThrows(CreditTimeoutException.class,
                        () -> client.send(numbered(window), Duration.ofMillis(300)));
                long tookMillis = (System.nanoTime() - start) / 1_000_000;
                assertTrue(tookMillis >= 250 && tookMillis < 20_000, "a 300 ms deadline: " + tookMillis + " ms");
                assertTrue(timedOut.getMessage().contains("no credit"), timedOut.getMessage());
                assertTrue(client.isOpen(), "a timeout leaves the channel usable");

                // A sender that blocks: it waits for credits while the receiver sleeps 5 s.
                Future<Integer> blocked = threads.submit(() -> {
                    for (int i = window; i < total; i++) {
                        client.send(numbered(i), Duration.ofSeconds(120));
                    }
                    return total - window;
                });
                Thread.sleep(5_000);
                assertFalse(blocked.isDone(), "the sender is still waiting for credits");
                assertEquals(0, client.statistics().availableCredits());
                assertEquals(window, client.statistics().messagesSent(), "nothing beyond the window was sent");

                // The receiver reads again: everything arrives, in order, by itself.
                for (int i = 0; i < total; i++) {
                    ReceivedMessage message = receiver.receive(Duration.ofSeconds(60));
                    assertNotNull(message, "message " + i);
                    assertEquals(i, message.payload().get(ValueLayout.JAVA_INT_UNALIGNED, 0), "in order");
                    message.release();
                    assertThrows(IllegalStateException.class, message::payload, "a released message is gone");
                }
                assertEquals(total - window, blocked.get(120, TimeUnit.SECONDS));
                assertNull(receiver.receive(Duration.ofMillis(100)), "nothing more");
                Map<String, Long> moved = counters.portCounters(device.port()).changesSince(before);
                System.out.println("blocked receiver: " + total + " messages through a window of " + window
                        + ", credit messages " + receiver.statistics().creditMessagesSent() + "; counters moved: " + moved);
                assertNoRnr(counters, before, moved);
            }
        }
    }

    @DeviceTest
    void aPeerThatClosesFailsABlockedSenderAndTheReceiver(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        ChannelOptions options = ChannelOptions.builder().receiveCredits(2).maxMessageSize(256).build();
        try (ChannelLoop loop = ChannelLoop.open(ip, options, options)) {
            MessageChannel client = loop.client;
            MessageChannel serverSide = loop.serverSide;
            ExecutorService threads = loop.threads;
            try (SendBuffer buffer = client.sendBuffer()) {
                buffer.segment().setString(0, "zero copy", StandardCharsets.UTF_8);
                buffer.send(10);
            }
            client.send(ByteBuffer.wrap("copied".getBytes(StandardCharsets.UTF_8)));
            ReceivedMessage first = serverSide.receive(Duration.ofSeconds(60));
            assertEquals("zero copy", first.payload().getString(0, StandardCharsets.UTF_8));
            // Keep both: the window (2) is spent, the next send blocks until the peer goes away.
            Future<?> blocked = threads.submit(() -> client.send(MemorySegment.ofArray(new byte[8]), Duration.ofSeconds(120)));
            Thread.sleep(1_000);
            assertFalse(blocked.isDone());
            long start = System.nanoTime();
            serverSide.close();
            Exception failure = assertThrows(Exception.class, () -> blocked.get(60, TimeUnit.SECONDS));
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertInstanceOf(MessagingException.class, failure.getCause(), failure.toString());
            assertFalse(failure.getCause() instanceof CreditTimeoutException, "the peer's loss, not a timeout: " + failure);
            String why = failure.getCause().getMessage();
            assertTrue(why.contains("the peer disconnected") || why.contains("the connection was lost")
                    || why.contains("the connection failed"), "names the lost connection: " + why);
            System.out.println("peer closed: the blocked send failed after " + tookMillis + " ms: " + failure.getCause().getMessage());
            assertFalse(client.isOpen());
            assertThrows(MessagingException.class, () -> client.send(MemorySegment.ofArray(new byte[1])));
            assertThrows(MessagingException.class, () -> client.receive(Duration.ofSeconds(1)));
            assertThrows(IllegalStateException.class, first::payload, "closed with its channel");
            first.release(); // after close: only marks it released
        }
    }

    /**
     * The copying receive: many windows' worth of messages through a window of 2, so every
     * buffer it copied out must have been re-posted and its credit returned, each message checked
     * in the caller's buffer; one longer than that buffer cut, its full length returned; a
     * read-only destination refused before anything is taken.
     */
    @DeviceTest
    void theCopyingReceiveRepostsEachBufferAndReportsACutMessage(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        ChannelOptions options = ChannelOptions.builder().receiveCredits(2).maxMessageSize(256).build();
        try (ChannelLoop loop = ChannelLoop.open(ip, options, options); Arena arena = Arena.ofConfined()) {
            MemorySegment destination = arena.allocate(256);
            Future<?> sending = loop.threads.submit(() -> {
                for (int i = 0; i < 20; i++) {
                    loop.client.send(wide(i), Duration.ofSeconds(60));
                }
            });
            for (int i = 0; i < 20; i++) {
                assertEquals(64, loop.serverSide.receive(destination, Duration.ofSeconds(60)), "message " + i);
                assertEquals(i, destination.get(ValueLayout.JAVA_INT_UNALIGNED, 0), "in order, in the caller's buffer");
                assertEquals(~i, destination.get(ValueLayout.JAVA_INT_UNALIGNED, 60));
            }
            sending.get(60, TimeUnit.SECONDS);

            assertThrows(IllegalArgumentException.class, () -> loop.serverSide.receive(destination.asReadOnly(), Duration.ZERO));
            loop.client.send(wide(77));
            MemorySegment small = arena.allocate(8);
            assertEquals(64, loop.serverSide.receive(small, Duration.ofSeconds(60)), "the full length of a cut message");
            assertEquals(77, small.get(ValueLayout.JAVA_INT_UNALIGNED, 0));
            assertEquals(-1, loop.serverSide.receive(destination, Duration.ofMillis(100)), "nothing more came");
            assertTrue(loop.serverSide.isOpen() && loop.client.isOpen());
        }
    }

    /** 64 bytes: {@code i}, then {@code ~i} in the last word. */
    private static MemorySegment wide(int i) {
        MemorySegment segment = MemorySegment.ofArray(new byte[64]);
        segment.set(ValueLayout.JAVA_INT_UNALIGNED, 0, i);
        segment.set(ValueLayout.JAVA_INT_UNALIGNED, 60, ~i);
        return segment;
    }

    @DeviceTest
    void tooLargeMessagesAndStrangersAreRefused(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        ChannelOptions small = ChannelOptions.builder().maxMessageSize(100).receiveCredits(2).build();
        ChannelOptions large = ChannelOptions.builder().maxMessageSize(200).receiveCredits(2).build();
        try (MessageServer server = MessageServer.listen(anyPort(ip), small);
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            // A plain rdma_cm client without the handshake: rejected with the reason.
            CompletableFuture<MessageChannel> refused = CompletableFuture.supplyAsync(
                    () -> server.accept(WAIT).orElseThrow(), threads);
            ConnectionRejectedException rejected = assertThrows(ConnectionRejectedException.class,
                    () -> RdmaConnection.connect(server.localAddress(), ConnectionOptions.defaults()).close());
            assertTrue(rejected.rejectedByPeer());
            String reason = new String(rejected.privateData(), StandardCharsets.UTF_8);
            assertTrue(reason.contains("PVMC"), reason);
            Exception e = assertThrows(Exception.class, () -> refused.get(60, TimeUnit.SECONDS));
            assertInstanceOf(MessagingException.class, e.getCause());

            // The sender's limit is the smaller of both sides' buffers.
            CompletableFuture<MessageChannel> accepted = CompletableFuture.supplyAsync(
                    () -> server.accept(WAIT).orElseThrow(), threads);
            try (MessageChannel client = MessageChannel.connect(server.localAddress(), large);
                 MessageChannel serverSide = accepted.get(60, TimeUnit.SECONDS)) {
                assertEquals(100, client.maxMessageSize());
                assertEquals(100, serverSide.maxMessageSize());
                assertEquals(100, client.rendezvousThreshold());
                IllegalArgumentException tooLarge = assertThrows(IllegalArgumentException.class, () -> {
                    try (SendBuffer buffer = client.sendBuffer()) {
                        buffer.send(101);
                    }
                });
                assertTrue(tooLarge.getMessage().contains("101 bytes exceeds the channel's 100-byte"), tooLarge.getMessage());
                client.send(MemorySegment.ofArray(new byte[100]));
                ReceivedMessage message = serverSide.receive(Duration.ofSeconds(60));
                assertEquals(100, message.length());
                message.release();
                // One byte more than a buffer holds goes by rendezvous instead (RendezvousDeviceTest has more).
                Future<?> rendezvous = threads.submit(() -> client.send(MemorySegment.ofArray(new byte[101])));
                message = serverSide.receive(Duration.ofSeconds(60));
                rendezvous.get(60, TimeUnit.SECONDS);
                assertEquals(101, message.length());
                message.release();
                assertTrue(client.isOpen());
            }
        }
    }

    @DeviceTest
    void requestsGetTheirOwnResponsesTimeOutAndFailWhenThePeerIsLost(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        int requests = 50;
        ChannelOptions options = ChannelOptions.builder().receiveCredits(8).maxMessageSize(1024).build();
        try (ChannelLoop loop = ChannelLoop.open(ip, options, options)) {
            MessageChannel client = loop.client;
            MessageChannel serverSide = loop.serverSide;
            ExecutorService threads = loop.threads;
            // The server answers each request later, from another thread, with its number + 1000;
            // the number -1 it never answers.
            serverSide.setMessageHandler(message -> {
                long id = message.correlation();
                int number = message.payload().get(ValueLayout.JAVA_INT_UNALIGNED, 0);
                assertEquals(dev.panamaverbs.messaging.MessageType.REQUEST, message.type());
                message.release();
                if (number >= 0) {
                    threads.submit(() -> serverSide.respond(id, numbered(number + 1000)));
                }
            });
            // Each response is read and released as it arrives (a held one keeps its credit).
            List<CompletableFuture<Integer>> responses = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                responses.add(client.request(numbered(i), Duration.ofSeconds(120)).thenApply(response -> {
                    int value = response.type() == dev.panamaverbs.messaging.MessageType.RESPONSE
                            ? response.payload().get(ValueLayout.JAVA_INT_UNALIGNED, 0) : -2;
                    response.release();
                    return value;
                }));
            }
            for (int i = 0; i < requests; i++) {
                assertEquals(i + 1000, responses.get(i).get(120, TimeUnit.SECONDS), "response " + i);
            }
            assertEquals(0, client.statistics().pendingRequests());

            CompletableFuture<ReceivedMessage> unanswered = client.request(numbered(-1), Duration.ofMillis(500));
            Exception timedOut = assertThrows(Exception.class, () -> unanswered.get(60, TimeUnit.SECONDS));
            assertInstanceOf(dev.panamaverbs.messaging.RequestTimeoutException.class, timedOut.getCause());
            assertTrue(client.isOpen(), "a timed-out request leaves the channel usable");

            List<CompletableFuture<ReceivedMessage>> lost = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                lost.add(client.request(numbered(-1), Duration.ofSeconds(120)));
            }
            long start = System.nanoTime();
            serverSide.close();
            for (CompletableFuture<ReceivedMessage> future : lost) {
                Exception failure = assertThrows(Exception.class, () -> future.get(60, TimeUnit.SECONDS));
                assertInstanceOf(MessagingException.class, failure.getCause());
                assertFalse(failure.getCause() instanceof dev.panamaverbs.messaging.RequestTimeoutException, failure.toString());
            }
            System.out.println("request/response: " + requests + " answered later; pending futures failed "
                    + (System.nanoTime() - start) / 1_000_000 + " ms after the peer closed");
        }
    }

    /** Sends {@link #MESSAGES} of seeded random sizes, alternating zero-copy, segment and ByteBuffer sends. */
    private static long sendAll(MessageChannel channel, int connection, long seed) {
        Random sizes = new Random(seed + connection);
        long bytes = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment scratch = arena.allocate(MAX);
            for (int i = 0; i < MESSAGES; i++) {
                int size = size(sizes, i);
                switch (i % 3) {
                    case 0 -> {
                        try (SendBuffer buffer = channel.sendBuffer()) {
                            fill(buffer.segment(), connection, i, size);
                            buffer.send(size);
                        }
                    }
                    case 1 -> {
                        fill(scratch, connection, i, size);
                        channel.send(scratch.asSlice(0, size));
                    }
                    default -> {
                        ByteBuffer heap = ByteBuffer.allocate(size);
                        fill(MemorySegment.ofBuffer(heap), connection, i, size);
                        channel.send(heap);
                    }
                }
                bytes += size;
            }
        }
        return bytes;
    }

    /** Receives {@link #MESSAGES}, checks every byte, acknowledges on connection 0 (two-way traffic). */
    private static int receiveAndCheck(MessageChannel channel, int connection, long seed) {
        Random sizes = new Random(seed + connection);
        MemorySegment expected = Arena.ofAuto().allocate(MAX);
        for (int i = 0; i < MESSAGES; i++) {
            ReceivedMessage message = channel.receive(Duration.ofSeconds(120));
            if (message == null) {
                fail("connection " + connection + ": message " + i + " did not arrive within 120 s");
            }
            int size = size(sizes, i);
            assertEquals(size, message.length(), "connection " + connection + ", message " + i);
            fill(expected, connection, i, size);
            long mismatch = message.payload().mismatch(expected.asSlice(0, size));
            assertEquals(-1, mismatch, "connection " + connection + ", message " + i + ": first wrong byte");
            message.release();
            if (connection == 0) {
                channel.send(numbered(i));
            }
        }
        return MESSAGES;
    }

    /** Sizes 1 and 64 KiB first, then seeded random ones. */
    private static int size(Random sizes, int i) {
        int random = 1 + sizes.nextInt(MAX);
        return i == 0 ? 1 : i == 1 ? MAX : random;
    }

    private static void fill(MemorySegment target, int connection, int message, int size) {
        byte base = (byte) (connection * 31 + message * 7);
        for (int p = 0; p < size; p++) {
            target.set(ValueLayout.JAVA_BYTE, p, (byte) (base + p * 13 + (p >>> 8)));
        }
    }

    private static MemorySegment numbered(int i) {
        MemorySegment segment = MemorySegment.ofArray(new byte[4]);
        segment.set(ValueLayout.JAVA_INT_UNALIGNED, 0, i);
        return segment;
    }

    /**
     * No RNR counter moved. Checked last: on a device without {@link DeviceCapability#RNR_NAKS}
     * (nothing to count) the test ends here as that skip, after everything else passed.
     */
    private static void assertNoRnr(Context device, PortCounters before, Map<String, Long> moved) {
        DeviceCapability.RNR_NAKS.require(device);
        List<String> present = RNR_COUNTERS.stream().filter(name -> before.get(name).isPresent()).toList();
        System.out.println("RNR counters on this device: " + present + " (of " + RNR_COUNTERS + ")");
        assertFalse(present.isEmpty(), "the device has none of the RNR counters " + RNR_COUNTERS + ": " + before.counters().keySet());
        for (String name : present) {
            assertEquals(0L, moved.getOrDefault(name, 0L), name + " moved: an RNR NAK happened");
        }
    }
}
