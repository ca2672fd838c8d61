package dev.panamaverbs.it.twohost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.cm.EndpointExchange;
import dev.panamaverbs.cm.EndpointInfo;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.RemoteRegion;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.CompletionWaiter;
import dev.panamaverbs.it.support.Peer;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.it.support.TwoHostExtension;
import dev.panamaverbs.it.support.TwoHostTest;
import dev.panamaverbs.it.support.TwoHosts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * RC across two hosts: this test on host A, {@link RcPeer} in its own JVM on host B, each with a
 * queue pair on its rxe1, connected through {@link EndpointExchange} over a TCP connection on the
 * 198.18.0.0/24 link that then carries the test's requests. One peer serves every test here;
 * every transfer is checked byte for byte on the side that received it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(TwoHostExtension.class)
class RcTwoHostTest {
    private static final int PSN = 0x00A0A0;
    private static final Duration EXCHANGE_TIMEOUT = Duration.ofSeconds(60);

    private Peer peer;
    private Context context;
    private CompletionQueue cq;
    private QueuePair qp;
    private RegisteredBuffer buffer;
    private Socket socket;
    private Control control;
    private RemoteRegion remote;
    private final Completions wc = Completions.allocate(4);

    @BeforeAll
    void connect(TwoHosts hosts) throws IOException {
        TestDevice device = hosts.device();
        context = Verbs.device(device.name()).orElseThrow().open();
        // Endpoints exchanged out of band, then ibv_modify_qp: not on iWARP (a skip naming it).
        DeviceCapability.CONNECT_WITHOUT_CM.require(context);
        ProtectionDomain pd = context.allocateProtectionDomain();
        cq = context.createCompletionQueue(64);
        qp = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq)
                .maxSendWorkRequests(16).maxReceiveWorkRequests(16).maxSendSge(1).maxReceiveSge(1).build());
        buffer = RegisteredBuffer.allocate(pd, RcPeer.BUFFER_SIZE);
        GidEntry gid = context.queryGid(device.port(), device.gidIndex()).orElseThrow();
        EndpointInfo mine = EndpointInfo.of(qp, PSN, gid.gid(), context.queryPort(device.port()).activeMtu())
                .withRegion(buffer.region());

        peer = hosts.startPeer(RcPeer.class);
        int port = peer.awaitInt("port", TwoHosts.PEER_START_TIMEOUT);
        socket = EndpointExchange.connectSocket(new InetSocketAddress(hosts.peerAddress(), port), EXCHANGE_TIMEOUT);
        EndpointInfo theirs = EndpointExchange.exchange(socket, mine, EXCHANGE_TIMEOUT);
        remote = theirs.region().orElseThrow();
        RcConnection.connect(qp, device, mine, theirs);
        control = new Control(socket, RcPeer.TIMEOUT_MILLIS);
        assertEquals("rts", control.receive(), "the peer's queue pair is ready");
    }

    @AfterAll
    void disconnect() throws Exception {
        try {
            if (control != null) {
                assertEquals("bye", control.ask("quit"));
                peer.assertSucceeded(Duration.ofSeconds(60));
            }
        } finally {
            // socket, buffer, then context (reverse order of declaration), each even when one before failed
            try (Context c = context; RegisteredBuffer b = buffer; Socket s = socket) {
                // nothing: only the closing
            }
        }
    }

    private void post(SendWorkRequest request, CompletionOpcode expected) {
        RcConnection.post(qp, cq, wc, request, expected);
    }

    @TwoHostTest
    void sendFromAIsReceivedOnB() throws IOException {
        buffer.fillPattern(11, 0, 4096);
        assertEquals("posted", control.ask("recv 4096 11"));
        post(SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.SEND).sge(buffer.region(), 0, 4096), CompletionOpcode.SEND);
        assertEquals("ok", control.receive(), "what B received");
    }

    @TwoHostTest
    void sendFromBIsReceivedOnA() throws IOException {
        buffer.fill((byte) 0);
        qp.postReceive(ReceiveWorkRequest.allocate(1).wrId(5).sge(0, buffer.region(), 8192, 4096));
        assertEquals("ok", control.ask("send 3000 12"));
        CompletionWaiter.awaitSuccess(cq, wc);
        assertEquals(CompletionOpcode.RECV, wc.opcode(0));
        assertEquals(3000, wc.byteLength(0));
        buffer.assertPattern(12, 8192, 3000);
        buffer.assertFilled((byte) 0, 8192 + 3000, 1096);
    }

    @TwoHostTest
    void rdmaWriteLandsInBsRegion() throws IOException {
        buffer.fillPattern(13, 0, 16384);
        post(SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.RDMA_WRITE).sge(buffer.region(), 0, 16384)
                .rdma(remote.addressAt(1000, 16384), remote.rkey()), CompletionOpcode.RDMA_WRITE);
        assertEquals("ok", control.ask("check 1000 16384 13"));
    }

    @TwoHostTest
    void rdmaWriteWithImmediateLandsAndNotifiesB() throws IOException {
        buffer.fillPattern(14, 0, 3000);
        assertEquals("posted", control.ask("recv-imm 20000 3000 14 " + 0x12345678));
        post(SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.RDMA_WRITE_WITH_IMM).immediateData(0x12345678)
                .sge(buffer.region(), 0, 3000).rdma(remote.addressAt(20000, 3000), remote.rkey()), CompletionOpcode.RDMA_WRITE);
        assertEquals("ok", control.receive(), "what B received");
    }

    @TwoHostTest
    void rdmaReadFetchesBsRegion() throws IOException {
        assertEquals("ok", control.ask("fill 30000 20000 15"));
        buffer.fill((byte) 0);
        post(SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.RDMA_READ).sge(buffer.region(), 64, 20000)
                .rdma(remote.addressAt(30000, 20000), remote.rkey()), CompletionOpcode.RDMA_READ);
        buffer.assertPattern(15, 64, 20000);
        buffer.assertFilled((byte) 0, 0, 64);
    }

    @TwoHostTest
    void fetchAndAddOnBsWord() throws IOException {
        assertEquals("ok", control.ask("set-long 60000 100"));
        buffer.putLong(0, -1);
        post(SendWorkRequest.allocate(1).sge(buffer.region(), 0, 8).atomicFetchAndAdd(remote.addressAt(60000, 8), remote.rkey(), 5),
                CompletionOpcode.FETCH_ADD);
        assertEquals(100, buffer.getLong(0), "fetch-and-add returns the old value");
        assertEquals("105", control.ask("get-long 60000"));
    }

    @TwoHostTest
    void compareAndSwapOnBsWord() throws IOException {
        assertEquals("ok", control.ask("set-long 60008 105"));
        long word = remote.addressAt(60008, 8);
        post(SendWorkRequest.allocate(1).sge(buffer.region(), 0, 8).atomicCompareAndSwap(word, remote.rkey(), 105, 7),
                CompletionOpcode.COMP_SWAP);
        assertEquals(105, buffer.getLong(0));
        assertEquals("7", control.ask("get-long 60008"), "swapped");
        post(SendWorkRequest.allocate(1).sge(buffer.region(), 0, 8).atomicCompareAndSwap(word, remote.rkey(), 999, 1),
                CompletionOpcode.COMP_SWAP);
        assertEquals(7, buffer.getLong(0), "a failed compare returns the current value");
        assertEquals("7", control.ask("get-long 60008"), "a failed compare leaves the word alone");
    }
}
