package dev.panamaverbs.it.twohost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.Context;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.it.support.Peer;
import dev.panamaverbs.it.support.TwoHostExtension;
import dev.panamaverbs.it.support.TwoHostTest;
import dev.panamaverbs.it.support.TwoHosts;
import dev.panamaverbs.messaging.ChannelOptions;
import dev.panamaverbs.messaging.MessageChannel;
import dev.panamaverbs.messaging.MessagingException;
import dev.panamaverbs.messaging.ReceivedMessage;
import dev.panamaverbs.messaging.RequestTimeoutException;
import dev.panamaverbs.messaging.SendBuffer;
import dev.panamaverbs.messaging.registration.RegistrationBudget;
import dev.panamaverbs.values.PortCounters;
import dev.panamaverbs.values.TransportType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Message channels between two hosts: host A connects {@link #CONNECTIONS} channels to
 * {@link MessagePeer} on host B and sends messages of seeded random sizes (1 B..64 KiB) on each at
 * once; B checks every byte and answers with its verdict, and A's RNR counters do not move. B's
 * channels all receive from one shared receive pool (an SRQ). Then a 64 MiB message goes by
 * rendezvous (B reads it with RDMA READ) and B checks it, and {@link #REQUESTS} requests get
 * their own payloads back, {@link #REQUESTS_IN_FLIGHT} at a time. Last,
 * B's process is killed while requests wait for answers: every pending future fails within a
 * bound. Sized for the TCG VMs (about 1000x slower than native): 8 channels x 25 messages by
 * default; {@code VERBS_MESSAGING_CONNECTIONS} and {@code VERBS_MESSAGING_MESSAGES} (passed into
 * both VMs by {@code ./verbs test --device}) scale the first test up, to the 100 x 10,000
 * on real hosts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(TwoHostExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MessageChannelTwoHostTest {
    private static final int CONNECTIONS = MessagePeer.CONNECTIONS;
    private static final int MESSAGES = Integer.parseInt(System.getenv().getOrDefault("VERBS_MESSAGING_MESSAGES", "25"));
    /** How long host B may take to check one connection's messages: 600 s, and 50 ms a message beyond 25 per channel. */
    private static final long VERDICT_SECONDS = 600 + Math.max(0, (long) CONNECTIONS * MESSAGES - 25L * CONNECTIONS) / 20;
    private static final int REQUESTS = 10_000;
    private static final int REQUESTS_IN_FLIGHT = 8;
    private static final Duration LOSS_NOTICED_WITHIN = Duration.ofSeconds(60);
    private static final List<String> RNR_COUNTERS = List.of("rcvd_rnr_err", "send_rnr_err", "retry_rnr_exceeded_err");
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private TwoHosts hosts;
    private Peer peer;
    private InetSocketAddress server;

    @BeforeAll
    void startServerOnHostB(TwoHosts hosts) {
        this.hosts = hosts;
        peer = hosts.startRdmaCmPeer(MessagePeer.class);
        server = hosts.peerServer(peer, "port");
    }

    @AfterAll
    void stop() {
        if (peer != null) {
            peer.close();
        }
    }

    @TwoHostTest
    @Order(1)
    void manyChannelsCarryRandomSizesCheckedByteForByteWithoutAnyRnrNak() throws Exception {
        long seed = System.nanoTime();
        System.out.println("MessageChannelTwoHostTest seed: " + seed);
        try (Context counters = Verbs.device(hosts.device().name()).orElseThrow().open();
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            PortCounters before = counters.portCounters(hosts.device().port());
            List<MessageChannel> channels = new ArrayList<>();
            try {
                for (int c = 0; c < CONNECTIONS; c++) {
                    channels.add(MessageChannel.connect(server, MessagePeer.OPTIONS));
                }
                List<Future<String>> verdicts = new ArrayList<>();
                for (int c = 0; c < CONNECTIONS; c++) {
                    MessageChannel channel = channels.get(c);
                    int connection = c;
                    verdicts.add(threads.submit(() -> sendAndAwaitVerdict(channel, connection, seed)));
                }
                for (int c = 0; c < CONNECTIONS; c++) {
                    assertEquals("ok " + MESSAGES, verdicts.get(c).get(VERDICT_SECONDS, TimeUnit.SECONDS), "connection " + c + " (seed " + seed + ")");
                }
                Map<String, Long> moved = counters.portCounters(hosts.device().port()).changesSince(before);
                List<String> present = RNR_COUNTERS.stream().filter(name -> before.get(name).isPresent()).toList();
                System.out.println(CONNECTIONS + " channels x " + MESSAGES + " messages checked on host B; credit messages received "
                        + channels.stream().mapToLong(channel -> channel.statistics().creditMessagesReceived()).sum()
                        + "; RNR counters " + present + "; host A's counters moved: " + moved);
                // iWARP has no RNR NAK (nor its counters): a SEND that found no receive there would have broken
                // its connection, which the verdicts above rule out.
                if (counters.device().transportType() != TransportType.IWARP) {
                    assertFalse(present.isEmpty(), "none of the RNR counters " + RNR_COUNTERS + " on " + hosts.device().name());
                }
                for (String name : present) {
                    assertEquals(0L, moved.getOrDefault(name, 0L), name + " moved: an RNR NAK happened");
                }
            } finally {
                channels.forEach(MessageChannel::close);
            }
        }
    }

    private static String sendAndAwaitVerdict(MessageChannel channel, int connection, long seed) {
        MemorySegment hello = Arena.ofAuto().allocate(17);
        hello.set(ValueLayout.JAVA_BYTE, 0, (byte) 'C');
        hello.set(INT, 1, connection);
        hello.set(LONG, 5, seed);
        hello.set(INT, 13, MESSAGES);
        channel.send(hello);
        MessagePattern pattern = new MessagePattern(seed, connection);
        for (int i = 0; i < MESSAGES; i++) {
            int size = pattern.nextSize(i);
            try (SendBuffer buffer = channel.sendBuffer()) {
                pattern.fill(buffer.segment(), i, size);
                buffer.send(size);
            }
        }
        ReceivedMessage verdict = channel.receive(MessagePeer.WAIT);
        assertNotNull(verdict, "host B's verdict on connection " + connection);
        String text = new String(verdict.payload().toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
        verdict.release();
        return text;
    }

    @TwoHostTest
    @Order(2)
    void a64MiBMessageGoesByRendezvousCheckedByteForByteOnHostB() throws Exception {
        int size = 64 << 20;
        long seed = System.nanoTime();
        // An unlimited cache budget: the memlock soft limit's half would refuse 64 MiB (root may pin it).
        // The send's timeout bounds the wait for B's DONE too: 64 MiB between two TCG VMs took about
        // 20 s (3 MB/s), within reach of the 30 s default on a loaded host, so it gets 5 minutes.
        ChannelOptions options = ChannelOptions.builder().receiveCredits(16).sendBuffers(4)
                .sendTimeout(Duration.ofMinutes(5))
                .rendezvousRegistrationBudget(RegistrationBudget.unlimited()).build();
        try (MessageChannel channel = MessageChannel.connect(server, options);
             Arena arena = Arena.ofShared()) {
            MemorySegment hello = arena.allocate(13);
            hello.set(ValueLayout.JAVA_BYTE, 0, (byte) 'R');
            hello.set(LONG, 1, seed);
            hello.set(INT, 9, size);
            channel.send(hello);
            MemorySegment data = arena.allocate(size, 8);
            MessagePattern.fillLarge(data, seed);
            long start = System.nanoTime();
            channel.send(data);
            long doneMillis = (System.nanoTime() - start) / 1_000_000;
            ReceivedMessage verdict = channel.receive(MessagePeer.WAIT);
            assertNotNull(verdict, "host B's verdict");
            String text = new String(verdict.payload().toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
            verdict.release();
            System.out.printf("two hosts: 64 MiB by rendezvous, DONE after %d ms (%.1f MB/s), read depth %d, chunk %d: %s%n",
                    doneMillis, size / 1e3 / Math.max(1, doneMillis), channel.rendezvousReadDepth(),
                    channel.rendezvousChunkSize(), text);
            assertEquals("ok " + size, text);
        }
    }

    @TwoHostTest
    @Order(3)
    void tenThousandRequestsGetTheirOwnResponses() throws Exception {
        try (MessageChannel channel = MessageChannel.connect(server, MessagePeer.OPTIONS)) {
            channel.send(MemorySegment.ofArray(new byte[] {'Q'}));
            ArrayDeque<CompletableFuture<ReceivedMessage>> inFlight = new ArrayDeque<>();
            ArrayDeque<Long> sent = new ArrayDeque<>();
            long start = System.nanoTime();
            int checked = 0;
            for (int i = 0; i < REQUESTS || !inFlight.isEmpty(); ) {
                if (i < REQUESTS && inFlight.size() < REQUESTS_IN_FLIGHT) {
                    long value = 0x5EED_0000_0000L + i++;
                    MemorySegment request = MemorySegment.ofArray(new long[] {value, ~value});
                    inFlight.add(channel.request(request, MessagePeer.WAIT));
                    sent.add(value);
                    continue;
                }
                ReceivedMessage response = inFlight.poll().get(300, TimeUnit.SECONDS);
                long expected = sent.poll();
                try {
                    assertEquals(16, response.length(), "response " + checked);
                    assertEquals(expected, response.payload().get(LONG, 0), "response " + checked + " is its request's");
                    assertEquals(~expected, response.payload().get(LONG, 8), "response " + checked + " intact");
                } finally {
                    response.release();
                }
                checked++;
            }
            long millis = Math.max(1, (System.nanoTime() - start) / 1_000_000);
            System.out.printf("two hosts: %d requests answered and checked in %d ms (%.0f/s, %d in flight)%n",
                    checked, millis, checked * 1000.0 / millis, REQUESTS_IN_FLIGHT);
            assertEquals(REQUESTS, checked);
            assertEquals(0, channel.statistics().pendingRequests());
            assertTrue(channel.isOpen(), channel.failure().map(Throwable::toString).orElse(""));
        }
    }

    @TwoHostTest
    @Order(4)
    void killingHostBsProcessFailsEveryPendingRequest() throws Exception {
        try (MessageChannel channel = MessageChannel.connect(server, MessagePeer.OPTIONS)) {
            channel.send(MemorySegment.ofArray(new byte[] {'H'}));
            CompletableFuture<ReceivedMessage> early = channel.request(MemorySegment.ofArray(new byte[8]), Duration.ofMillis(500));
            Exception timedOut = assertThrows(Exception.class, () -> early.get(60, TimeUnit.SECONDS));
            assertInstanceOf(RequestTimeoutException.class, timedOut.getCause());
            List<CompletableFuture<ReceivedMessage>> pending = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                pending.add(channel.request(MemorySegment.ofArray(new byte[8]), Duration.ofSeconds(600)));
            }
            assertEquals(5, channel.statistics().pendingRequests());
            long start = System.nanoTime();
            peer.kill();
            for (CompletableFuture<ReceivedMessage> future : pending) {
                Exception failure = assertThrows(Exception.class,
                        () -> future.get(LOSS_NOTICED_WITHIN.toSeconds(), TimeUnit.SECONDS));
                assertInstanceOf(MessagingException.class, failure.getCause(), failure.toString());
                assertFalse(failure.getCause() instanceof RequestTimeoutException, failure.toString());
            }
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            System.out.println("host B killed: " + pending.size() + " pending requests failed within " + tookMillis + " ms: "
                    + channel.failure().map(Throwable::getMessage).orElse("?"));
            assertTrue(tookMillis < LOSS_NOTICED_WITHIN.toMillis(), tookMillis + " ms");
            assertFalse(channel.isOpen());
        }
    }
}
