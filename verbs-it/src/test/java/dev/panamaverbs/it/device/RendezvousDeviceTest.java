package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.Context;
import dev.panamaverbs.it.support.DeviceScope;
import dev.panamaverbs.it.support.RdmaCmSupport;
import dev.panamaverbs.messaging.ChannelOptions;
import dev.panamaverbs.messaging.MessageChannel;
import dev.panamaverbs.messaging.MessageType;
import dev.panamaverbs.messaging.MessagingException;
import dev.panamaverbs.messaging.ReceivedMessage;
import dev.panamaverbs.messaging.RendezvousAllocator;
import dev.panamaverbs.messaging.RendezvousException;
import dev.panamaverbs.messaging.RendezvousStatus;
import dev.panamaverbs.messaging.registration.RegistrationBudget;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.AccessFlag;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Large messages by rendezvous (verbs-messaging) over rxe through rdma_cm, both ends in one JVM:
 * a 64 MiB message checked byte for byte, messages of mixed sizes across the threshold (native and
 * heap sources, in both directions), an offer above the receiver's maxRendezvousSize failing
 * that message on both sides while the channel keeps working, an RDMA READ that fails (failing
 * that message on both sides and ending both channels, its destination given back), and large
 * requests and responses. Times are printed, not asserted.
 */
class RendezvousDeviceTest {
    private static final Duration LONG = Duration.ofSeconds(120);

    private static ChannelOptions.Builder options() {
        // An unlimited cache budget: the VM's memlock soft limit would otherwise make the 64 MiB
        // registration exceed the default half-of-the-limit budget (the kernel lets root pin it).
        return ChannelOptions.builder().receiveCredits(8).sendBuffers(4).maxMessageSize(4096)
                .rendezvousRegistrationBudget(RegistrationBudget.unlimited());
    }

    @DeviceTest
    void a64MiBMessageArrivesByteForByte(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        int size = 64 << 20;
        try (Arena arena = Arena.ofShared();
             ChannelLoop loop = ChannelLoop.open(ip, options().build(), options().build())) {
            MessageChannel client = loop.client;
            MessageChannel serverSide = loop.serverSide;
            ExecutorService threads = loop.threads;
            System.out.println("rendezvous: read depth " + serverSide.rendezvousReadDepth() + ", chunk "
                    + serverSide.rendezvousChunkSize() + " bytes, threshold " + client.rendezvousThreshold());
            assertTrue(serverSide.rendezvousReadDepth() >= 1);
            MemorySegment data = arena.allocate(size, 8);
            fill(data, 64);
            long start = System.nanoTime();
            CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> client.send(data), threads);
            CompletableFuture<ReceivedMessage> received = CompletableFuture.supplyAsync(() -> serverSide.receive(LONG), threads);
            // Whichever ends first: a send that failed (its 64 MiB registration refused, say) fails
            // the test with its cause at once, not as a receive that found nothing after LONG.
            CompletableFuture.anyOf(sent, received).get(LONG.toSeconds() + 10, TimeUnit.SECONDS);
            ReceivedMessage message = received.get(LONG.toSeconds() + 10, TimeUnit.SECONDS);
            long arrivedMillis = (System.nanoTime() - start) / 1_000_000;
            assertNotNull(message, "the 64 MiB message arrived");
            sent.get(120, TimeUnit.SECONDS);
            long sentMillis = (System.nanoTime() - start) / 1_000_000;
            assertEquals(size, message.length());
            assertEquals(-1, check(message.payload(), 64), "first wrong byte");
            message.release();
            System.out.printf("rendezvous 64 MiB: received after %d ms, send returned (DONE) after %d ms, %.1f MB/s%n",
                    arrivedMillis, sentMillis, size / 1e3 / Math.max(1, arrivedMillis));
            // The channel carries on, small and large.
            assertCarriesOn(client, serverSide, new byte[] {7});
        }
    }

    @DeviceTest
    void mixedSizesAcrossTheThresholdArriveInOrder(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        // 4096 fits a buffer, 4097 is the first rendezvous size; 3 MiB + 5 takes 4 READs of 1 MiB at most.
        int[] sizes = {1, 4096, 4097, 100_000, 3, (3 << 20) + 5, 4095, 65_536, 1 << 20};
        try (Arena arena = Arena.ofShared();
             ChannelLoop loop = ChannelLoop.open(ip, options().build(), options().build())) {
            MessageChannel client = loop.client;
            MessageChannel serverSide = loop.serverSide;
            ExecutorService threads = loop.threads;
            long start = System.nanoTime();
            Future<?> sender = threads.submit(() -> {
                for (int i = 0; i < sizes.length; i++) {
                    // Alternate native memory (registered through the cache) and heap (staged).
                    MemorySegment data = i % 2 == 0 ? arena.allocate(sizes[i], 8) : MemorySegment.ofArray(new byte[sizes[i]]);
                    fill(data, i);
                    client.send(data);
                }
                return null;
            });
            for (int i = 0; i < sizes.length; i++) {
                ReceivedMessage message = serverSide.receive(LONG);
                assertNotNull(message, "message " + i + " arrived");
                assertEquals(sizes[i], message.length(), "message " + i);
                assertEquals(-1, check(message.payload(), i), "message " + i + ": first wrong byte");
                message.release();
                // And the other way: a large answer from the accepting side.
                if (i == 5) {
                    MemorySegment answer = arena.allocate(200_000, 8);
                    fill(answer, 99);
                    Future<?> answered = threads.submit(() -> serverSide.send(answer));
                    ReceivedMessage back = client.receive(LONG);
                    answered.get(120, TimeUnit.SECONDS);
                    assertEquals(200_000, back.length());
                    assertEquals(-1, check(back.payload(), 99), "the answer's first wrong byte");
                    back.release();
                }
            }
            sender.get(120, TimeUnit.SECONDS);
            System.out.println("rendezvous mixed sizes: " + sizes.length + " messages + 1 answer in "
                    + (System.nanoTime() - start) / 1_000_000 + " ms; " + client.statistics());
            assertTrue(client.isOpen() && serverSide.isOpen());
        }
    }

    @DeviceTest
    void anOfferAboveTheReceiversMaximumFailsThatMessageOnly(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        ChannelOptions receiver = options().maxRendezvousSize(1 << 20).build();
        try (Arena arena = Arena.ofShared();
             ChannelLoop loop = ChannelLoop.open(ip, receiver, options().build())) {
            MessageChannel client = loop.client;
            MessageChannel serverSide = loop.serverSide;
            ExecutorService threads = loop.threads;
            MemorySegment tooLarge = arena.allocate((1 << 20) + 1, 8);
            Future<?> refused = threads.submit(() -> client.send(tooLarge));
            RendezvousException onReceiver = assertThrows(RendezvousException.class, () -> serverSide.receive(LONG));
            assertEquals(RendezvousStatus.TOO_LARGE, onReceiver.status());
            assertTrue(onReceiver.getMessage().contains("maxRendezvousSize 1048576"), onReceiver.getMessage());
            ExecutionException onSender = assertThrows(ExecutionException.class, () -> refused.get(120, TimeUnit.SECONDS));
            RendezvousException cause = assertInstanceOf(RendezvousException.class, onSender.getCause());
            assertEquals(RendezvousStatus.TOO_LARGE, cause.status());
            assertTrue(cause.getMessage().contains("TOO_LARGE"), cause.getMessage());
            System.out.println("refused offer: sender " + cause.getMessage() + " / receiver " + onReceiver.getMessage());
            // The channel keeps working: the largest accepted size, then a small one.
            MemorySegment fits = arena.allocate(1 << 20, 8);
            fill(fits, 5);
            Future<?> sent = threads.submit(() -> client.send(fits));
            ReceivedMessage message = serverSide.receive(LONG);
            sent.get(120, TimeUnit.SECONDS);
            assertEquals(1 << 20, message.length());
            assertEquals(-1, check(message.payload(), 5));
            message.release();
            assertCarriesOn(client, serverSide, new byte[] {1, 2});
        }
    }

    @DeviceTest
    void aFailedReadFailsThatMessageOnBothSidesAndEndsTheChannelCleanly(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        // The receiver's destinations lack LOCAL_WRITE: its RDMA READ into one completes with an
        // error, which takes its queue pair to the error state.
        CountingAllocator unwritable = new CountingAllocator(EnumSet.of(AccessFlag.REMOTE_READ));
        ChannelOptions receiver = options().rendezvousAllocator(unwritable).build();
        try (Arena arena = Arena.ofShared();
             ChannelLoop loop = ChannelLoop.open(ip, receiver, options().build())) {
            MessageChannel client = loop.client;
            MessageChannel serverSide = loop.serverSide;
            MemorySegment data = arena.allocate(100_000, 8);
            fill(data, 3);
            CompletableFuture<Void> sent = client.sendAsync(data, LONG);
            MessagingException onReceiver = assertThrows(MessagingException.class, () -> serverSide.receive(LONG));
            assertEquals(1, unwritable.allocated.get(), "one destination");
            if (onReceiver instanceof RendezvousException || !lostTheConnectionFirst(device, onReceiver)) {
                RendezvousException failedRead = assertInstanceOf(RendezvousException.class, onReceiver);
                assertEquals(RendezvousStatus.READ_FAILED, failedRead.status());
                assertTrue(failedRead.getMessage().contains("RDMA READ (ibv_post_send, IBV_WR_RDMA_READ) of chunk 0")
                        && failedRead.getMessage().contains("completed with status"), failedRead.getMessage());
                assertEquals(1, unwritable.released.get(), "the destination went back to the allocator");
            }
            // The sender's message fails, bounded: the receiver's queue pair cannot carry a DONE any
            // more, so its channel disconnects and the sender hears of the loss.
            ExecutionException onSender = assertThrows(ExecutionException.class, () -> sent.get(120, TimeUnit.SECONDS));
            MessagingException cause = assertInstanceOf(MessagingException.class, onSender.getCause());
            assertTrue(cause.getMessage().contains("did not complete") || cause instanceof RendezvousException,
                    cause.getMessage());
            System.out.println("failed READ: receiver " + onReceiver.getMessage() + " / sender " + cause.getMessage());
            assertFalse(serverSide.isOpen());
            assertTrue(serverSide.failure().isPresent(), "the receiver's queue pair is in the error state");
            assertFalse(client.isOpen(), "the sender's channel failed too: " + client);
            assertThrows(MessagingException.class, () -> client.send(MemorySegment.ofArray(new byte[] {1})));
            assertThrows(MessagingException.class, () -> serverSide.receive(Duration.ZERO));
            serverSide.close();
            client.close();
            assertEquals(unwritable.allocated.get(), unwritable.released.get(), "no destination kept");
        }
    }

    /**
     * Whether the receiver's failure is the loss of the connection its failed READ caused, which a
     * device without {@link DeviceCapability#ERRORS_KEEP_THE_CONNECTION} (iWARP: the READ's error
     * ends the connection itself) may report before the READ's completion. Elsewhere the READ's
     * failure comes first, so this answers false there and the caller asserts the READ_FAILED.
     */
    private static boolean lostTheConnectionFirst(TestDevice device, MessagingException onReceiver) {
        try (Context context = DeviceScope.openContext(device)) {
            if (DeviceCapability.ERRORS_KEEP_THE_CONNECTION.isSupportedBy(context)) {
                return false;
            }
        }
        assertTrue(onReceiver.getMessage().contains("disconnected"), onReceiver.getMessage());
        System.out.println("failed READ: the receiver heard of the connection's loss first: " + onReceiver.getMessage());
        return true;
    }

    @DeviceTest
    void largeRequestsAndResponsesGoByRendezvous(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        ChannelOptions requester = options().maxRendezvousSize(1 << 20).build();
        try (Arena arena = Arena.ofShared();
             ChannelLoop loop = ChannelLoop.open(ip, options().build(), requester)) {
            MessageChannel client = loop.client;
            MessageChannel serverSide = loop.serverSide;
            MemorySegment request = arena.allocate(200_000, 8);
            fill(request, 11);
            CompletableFuture<ReceivedMessage> response = client.request(request, LONG);
            ReceivedMessage arrived = serverSide.receive(LONG);
            assertNotNull(arrived, "the large request arrived");
            assertEquals(MessageType.REQUEST, arrived.type());
            long id = arrived.correlation();
            assertNotEquals(0, id);
            assertEquals(200_000, arrived.length());
            assertEquals(-1, check(arrived.payload(), 11), "the request's first wrong byte");
            arrived.release();
            assertFalse(response.isDone(), "no response yet");
            MemorySegment answer = MemorySegment.ofArray(new byte[300_000]); // heap: staged
            fill(answer, 12);
            Future<?> answered = loop.threads.submit(() -> serverSide.respond(id, answer));
            ReceivedMessage back = response.get(120, TimeUnit.SECONDS);
            answered.get(120, TimeUnit.SECONDS);
            assertEquals(MessageType.RESPONSE, back.type());
            assertEquals(id, back.correlation());
            assertEquals(300_000, back.length());
            assertEquals(-1, check(back.payload(), 12), "the response's first wrong byte");
            back.release();
            // A small request whose large response the requester refuses: both sides hear TOO_LARGE.
            CompletableFuture<ReceivedMessage> refused = client.request(MemorySegment.ofArray(new byte[] {1}), LONG);
            ReceivedMessage small = serverSide.receive(LONG);
            long smallId = small.correlation();
            small.release();
            MemorySegment tooLarge = arena.allocate((1 << 20) + 1, 8);
            RendezvousException onResponder = assertThrows(RendezvousException.class,
                    () -> serverSide.respond(smallId, tooLarge));
            assertEquals(RendezvousStatus.TOO_LARGE, onResponder.status());
            ExecutionException onRequester = assertThrows(ExecutionException.class,
                    () -> refused.get(120, TimeUnit.SECONDS));
            RendezvousException cause = assertInstanceOf(RendezvousException.class, onRequester.getCause());
            assertEquals(RendezvousStatus.TOO_LARGE, cause.status());
            assertEquals(0, client.statistics().pendingRequests(), "the refused request is forgotten");
            assertTrue(client.isOpen() && serverSide.isOpen(), client + " " + serverSide);
        }
    }

    /** The default allocation with other access flags, counting allocations and releases. */
    private static final class CountingAllocator implements RendezvousAllocator {
        final AtomicInteger allocated = new AtomicInteger();
        final AtomicInteger released = new AtomicInteger();
        private final Set<AccessFlag> access;

        CountingAllocator(Set<AccessFlag> access) {
            this.access = access;
        }

        @Override
        public MemoryRegion allocate(ProtectionDomain pd, long length) {
            MemoryRegion region = pd.allocateMemoryRegion(length, access);
            allocated.incrementAndGet();
            return region;
        }

        @Override
        public void release(MemoryRegion region) {
            released.incrementAndGet();
            region.close();
        }
    }

    /** A pattern of longs (the tail bytes too) that differs per message and per position. */
    private static void fill(MemorySegment target, int seed) {
        long words = target.byteSize() / 8;
        for (long i = 0; i < words; i++) {
            target.set(ValueLayout.JAVA_LONG_UNALIGNED, i * 8, pattern(seed, i));
        }
        for (long p = words * 8; p < target.byteSize(); p++) {
            target.set(ValueLayout.JAVA_BYTE, p, (byte) pattern(seed, p));
        }
    }

    /** {@return the offset of the first byte that differs from {@link #fill}'s pattern, or -1} */
    private static long check(MemorySegment payload, int seed) {
        long words = payload.byteSize() / 8;
        for (long i = 0; i < words; i++) {
            if (payload.get(ValueLayout.JAVA_LONG_UNALIGNED, i * 8) != pattern(seed, i)) {
                return i * 8;
            }
        }
        for (long p = words * 8; p < payload.byteSize(); p++) {
            if (payload.get(ValueLayout.JAVA_BYTE, p) != (byte) pattern(seed, p)) {
                return p;
            }
        }
        return -1;
    }

    private static long pattern(int seed, long i) {
        return (i + 1) * 0x9E3779B97F4A7C15L ^ (long) seed << 32;
    }

    /** A small message still goes from {@code client} to {@code serverSide}, whole, and both stay open. */
    private static void assertCarriesOn(MessageChannel client, MessageChannel serverSide, byte[] payload) {
        client.send(MemorySegment.ofArray(payload));
        ReceivedMessage small = serverSide.receive(LONG);
        assertEquals(payload.length, small.length());
        small.release();
        assertTrue(client.isOpen() && serverSide.isOpen(), client + " " + serverSide);
    }
}
