package dev.panamaverbs.it.twohost;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.Context;
import dev.panamaverbs.Device;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.values.TransportType;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.Completions;
import dev.panamaverbs.cm.ConnectionException;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionRejectedException;
import dev.panamaverbs.cm.RdmaDatagramSocket;
import dev.panamaverbs.cm.DatagramPeer;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.values.QueuePairState;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.it.support.KernelResources;
import dev.panamaverbs.testkit.CompletionWaiter;
import dev.panamaverbs.it.support.Peer;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.it.support.TwoHostExtension;
import dev.panamaverbs.it.support.TwoHostTest;
import dev.panamaverbs.it.support.TwoHosts;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * rdma_cm across two hosts: this test on host A connects to {@link CmPeer} on host B through
 * B's link address (198.18.0.2), each side on its own rxe1. Data both ways through the connected
 * queue pairs (SEND/RECV, RDMA WRITE, READ, fetch-and-add) checked byte for byte, a reject with
 * B's private data, a port on B where nothing listens, a UD datagram through RDMA_PS_UDP, host A's
 * kernel objects back to where they were, and, last, B's process killed under an open connection:
 * A learns of it through rdma_cm within a stated bound.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(TwoHostExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RdmaCmTwoHostTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** How soon host A must learn that B's process died (B's kernel tears its connection down). */
    private static final Duration DEATH_NOTICED_WITHIN = Duration.ofSeconds(30);

    private TwoHosts hosts;
    private Peer peer;
    private InetSocketAddress rcServer, udServer;
    /** What host A's link device reports (DeviceCapability): iWARP (siw) has neither. */
    private boolean atomics, ud;
    /** Host A's link device is iWARP (siw): connections and rejects go through MPA over TCP, not the IB CM. */
    private boolean iwarp;

    @BeforeAll
    void startServerOnHostB(TwoHosts hosts) {
        this.hosts = hosts;
        peer = hosts.startRdmaCmPeer(CmPeer.class);
        rcServer = hosts.peerServer(peer, "rc-port");
        int udPort = peer.awaitInt("ud-port", TwoHosts.PEER_START_TIMEOUT); // 0: B's device has no UD
        udServer = udPort == 0 ? null : new InetSocketAddress(hosts.peerAddress(), udPort);
        Device device = Verbs.device(hosts.device().name()).orElseThrow();
        iwarp = device.transportType() == TransportType.IWARP;
        try (Context context = device.open()) {
            atomics = DeviceCapability.ATOMICS.isSupportedBy(context);
            ud = DeviceCapability.UD.isSupportedBy(context);
        }
    }

    @AfterAll
    void stop() {
        if (peer != null) {
            peer.close();
        }
    }

    private static ConnectionOptions saying(String word) {
        return ConnectionOptions.builder().privateData(word.getBytes(StandardCharsets.US_ASCII)).build();
    }

    @TwoHostTest
    @Order(1)
    void connectSendWriteReadAtomicAndDisconnect() {
        exchangeData();
        // SEND, WRITE, READ and the disconnect passed; without atomics the test ends as a skip naming them.
        if (!atomics) {
            try (Context context = Verbs.device(hosts.device().name()).orElseThrow().open()) {
                DeviceCapability.ATOMICS.require(context);
            }
        }
    }

    /** One "data" connection to B, every transfer checked; returns after A's disconnect completed. */
    private void exchangeData() {
        // The receive for B's note is posted before rdma_connect: B sends at once, and iWARP has no RNR
        // retry (a SEND that finds no receive breaks the connection).
        AtomicReference<RegisteredBuffer> registered = new AtomicReference<>();
        try (RdmaConnection connection = RdmaConnection.connect(rcServer, saying("data"), made -> {
            registered.set(RegisteredBuffer.allocate(made.protectionDomain(), CmPeer.SIZE));
            made.queuePair().postReceive(ReceiveWorkRequest.allocate(1).wrId(1).sge(0, registered.get().region(), 0,
                    CmPeer.NOTE_LENGTH));
        })) {
            assertEquals(QueuePairState.RTS, connection.queuePair().state());
            assertEquals(rcServer, connection.remoteAddress());
            QueuePair qp = connection.queuePair();
            RegisteredBuffer buffer = registered.get();
            Completions wc = Completions.allocate(2);
            CompletionWaiter.awaitSuccess(connection.completionQueue(), wc);
            assertEquals(CompletionOpcode.RECV, wc.opcode(0));
            long remote = buffer.memory().get(ValueLayout.JAVA_LONG, 0);
            int rkey = buffer.memory().get(ValueLayout.JAVA_INT, 8);
            assertEquals(CmPeer.SIZE, buffer.memory().get(ValueLayout.JAVA_INT, 12), "B's note names its region's size");

            buffer.fillPattern(CmPeer.WRITE_SEED, 0, CmPeer.WRITE_LENGTH);
            post(connection, wc, SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.RDMA_WRITE)
                    .sge(buffer.region(), 0, CmPeer.WRITE_LENGTH).rdma(remote, rkey), CompletionOpcode.RDMA_WRITE);
            qp.postReceive(ReceiveWorkRequest.allocate(1).wrId(2).sge(0, buffer.region(), 60000, CmPeer.MESSAGE_LENGTH));
            post(connection, wc, SendWorkRequest.allocate(1).sge(buffer.region(), 0, 4), CompletionOpcode.SEND);
            CompletionWaiter.awaitSuccess(connection.completionQueue(), wc);
            String reply = new String(buffer.memory().asSlice(60000, wc.byteLength(0)).toArray(ValueLayout.JAVA_BYTE),
                    StandardCharsets.US_ASCII);
            assertEquals("ok", reply, "B's check of the RDMA WRITE");

            buffer.fill((byte) 0);
            post(connection, wc, SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.RDMA_READ)
                    .sge(buffer.region(), 100, CmPeer.READ_LENGTH).rdma(remote + CmPeer.READ_AT, rkey), CompletionOpcode.RDMA_READ);
            buffer.assertPattern(CmPeer.READ_SEED, 100, CmPeer.READ_LENGTH);
            buffer.assertFilled((byte) 0, 0, 100);

            if (atomics) {
                post(connection, wc, SendWorkRequest.allocate(1).sge(buffer.region(), 0, 8)
                        .atomicFetchAndAdd(remote + CmPeer.WORD_AT, rkey, 5), CompletionOpcode.FETCH_ADD);
                assertEquals(CmPeer.WORD_START, buffer.getLong(0), "fetch-and-add returns B's old value");
                post(connection, wc, SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.RDMA_READ)
                        .sge(buffer.region(), 8, 8).rdma(remote + CmPeer.WORD_AT, rkey), CompletionOpcode.RDMA_READ);
                assertEquals(CmPeer.WORD_START + 5, buffer.getLong(8), "B's word after the add");
            }

            assertTrue(connection.disconnect(WAIT), "DISCONNECTED after rdma_disconnect");
            assertEquals(QueuePairState.ERROR, qp.state());
            buffer.close();
        }
    }

    private static void post(RdmaConnection connection, Completions wc, SendWorkRequest request, CompletionOpcode expected) {
        RcConnection.post(connection.queuePair(), connection.completionQueue(), wc, request, expected);
    }

    @TwoHostTest
    @Order(2)
    void aRejectFromHostBCarriesItsPrivateData() {
        ConnectionRejectedException rejected = assertThrows(ConnectionRejectedException.class,
                () -> RdmaConnection.connect(rcServer, saying("reject")));
        if (iwarp) {
            // siw reports B's MPA reject as REJECTED with status -ECONNRESET (siw_proc_mpareply); the kernel's
            // rdma_is_consumer_reject rule for iWARP is -ECONNREFUSED: rejectedByPeer() answers true for both there.
            System.out.println("iWARP reject: " + rejected.getMessage());
            assertTrue(rejected.status() == -Errno.ECONNRESET || rejected.status() == -Errno.ECONNREFUSED, rejected.getMessage());
        }
        assertTrue(rejected.rejectedByPeer(), rejected.getMessage());
        assertArrayEquals(CmPeer.REJECT_REASON, java.util.Arrays.copyOf(rejected.privateData(), CmPeer.REJECT_REASON.length));
        assertTrue(rejected.getMessage().contains(rcServer.getAddress().getHostAddress()), rejected.getMessage());
    }

    @TwoHostTest
    @Order(3)
    void aConnectToAPortWhereNothingListensOnHostBFailsFast() {
        InetSocketAddress nobody = new InetSocketAddress(hosts.peerAddress(), 7999);
        long start = System.nanoTime();
        ConnectionException failed = assertThrows(ConnectionException.class,
                () -> RdmaConnection.connect(nobody, ConnectionOptions.defaults()));
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println("connect to " + nobody + " (nothing listens): " + failed.getMessage() + " after " + millis + " ms");
        assertTrue(failed.getMessage().contains(hosts.peerAddress().getHostAddress() + ":7999"), failed.getMessage());
        assertTrue(millis < 15_000, "reported in " + millis + " ms");
    }

    @TwoHostTest
    @Order(4)
    void aDatagramReachesHostBThroughRdmaCmResolution() {
        if (!ud) {
            try (Context context = Verbs.device(hosts.device().name()).orElseThrow().open()) {
                DeviceCapability.UD.require(context);
            }
        }
        byte[] message = "a datagram from host A".getBytes(StandardCharsets.US_ASCII);
        try (RdmaDatagramSocket client = RdmaDatagramSocket.connect(udServer, saying("ud"));
             MemoryRegion outbox = client.protectionDomain().allocateMemoryRegion(4096, EnumSet.of(AccessFlag.LOCAL_WRITE))) {
            DatagramPeer server = client.peer().orElseThrow();
            outbox.memory().asSlice(0, message.length).copyFrom(MemorySegment.ofArray(message));
            Completions wc = Completions.allocate(1);
            client.queuePair().postSend(SendWorkRequest.allocate(1).signaled(true).sge(outbox, 0, message.length)
                    .ud(server.addressHandle(), server.queuePairNumber(), server.qkey()));
            CompletionWaiter.awaitSuccess(client.completionQueue(), wc);
            assertEquals("a datagram from host A (from QP " + client.queuePair().number() + ")",
                    peer.awaitValue("datagram", Duration.ofSeconds(60)));
        }
    }

    @TwoHostTest
    @Order(5)
    void hostAsKernelObjectsReturnToWhereTheyWere() {
        String device = hosts.device().name();
        Map<String, Integer> before = KernelResources.count(device); // librdmacm's own ctx is open by now
        exchangeData();
        assertThrows(ConnectionRejectedException.class, () -> RdmaConnection.connect(rcServer, saying("reject")));
        assertEquals(before, KernelResources.count(device), "rdma resource show on host A (cm_id included)");
    }

    @TwoHostTest
    @Order(6)
    void hostBsProcessKilledMidTransferIsNoticed() throws Exception {
        try (RdmaConnection connection = RdmaConnection.connect(rcServer, saying("hold"))) {
            RegisteredBuffer buffer = RegisteredBuffer.allocate(connection.protectionDomain(), 4096);
            CompletableFuture<CompletionStatus> writer = CompletableFuture.supplyAsync(() -> sendUntilFailure(connection, buffer),
                    Executors.newVirtualThreadPerTaskExecutor());
            Thread.sleep(1000); // B posts no receive: the SEND waits in RNR retries (7: for ever) until B dies
            long killed = System.nanoTime();
            peer.kill(); // SIGKILL from B's peer agent; returns once B reported the exit
            boolean disconnected = connection.awaitDisconnect(DEATH_NOTICED_WITHIN);
            long millis = (System.nanoTime() - killed) / 1_000_000;
            CompletionStatus last = writer.get(DEATH_NOTICED_WITHIN.toSeconds(), TimeUnit.SECONDS);
            System.out.println("host B's process killed: DISCONNECTED on host A " + (disconnected ? "after " + millis + " ms" : "never")
                    + "; the outstanding SEND completed with " + last);
            assertTrue(disconnected, "host A saw no DISCONNECTED within " + DEATH_NOTICED_WITHIN);
            assertTrue(last != CompletionStatus.SUCCESS, "the SEND outstanding when B died failed: " + last);
            buffer.close();
        }
    }

    /**
     * Posts SENDs (B has no receive posted: each waits in RNR retries) until one completes with an
     * error, and returns that status; bounded by {@link #DEATH_NOTICED_WITHIN} after the first post.
     */
    private static CompletionStatus sendUntilFailure(RdmaConnection connection, RegisteredBuffer buffer) {
        Completions wc = Completions.allocate(1);
        long deadline = System.nanoTime() + 2 * DEATH_NOTICED_WITHIN.toNanos();
        connection.queuePair().postSend(SendWorkRequest.allocate(1).signaled(true).sge(buffer.region(), 0, 64));
        while (System.nanoTime() < deadline) {
            if (connection.completionQueue().poll(wc) > 0) {
                if (wc.status(0) != CompletionStatus.SUCCESS) {
                    return wc.status(0);
                }
                connection.queuePair().postSend(SendWorkRequest.allocate(1).signaled(true).sge(buffer.region(), 0, 64));
            }
            Thread.onSpinWait();
        }
        return CompletionStatus.SUCCESS;
    }
}
