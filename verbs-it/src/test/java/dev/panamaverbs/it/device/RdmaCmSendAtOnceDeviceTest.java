package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.DeviceScope;
import dev.panamaverbs.it.support.InteropPeers;
import dev.panamaverbs.it.support.LocalPeerProcess;
import dev.panamaverbs.it.support.PeerProcess;
import dev.panamaverbs.it.support.RdmaCmSupport;
import static dev.panamaverbs.it.support.RdmaCmSupport.WAIT;
import static dev.panamaverbs.it.support.RdmaCmSupport.anyPort;
import static dev.panamaverbs.it.support.RdmaCmSupport.awaitOne;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.Completions;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.Context;
import dev.panamaverbs.cm.ConnectionException;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionRejectedException;
import dev.panamaverbs.cm.DatagramPeer;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.cm.RdmaDatagramSocket;
import dev.panamaverbs.cm.RdmaListener;
import dev.panamaverbs.cm.ResolutionRequest;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.values.TransportType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The rdma_cm API gaps of issue 21 on one host: receives posted before connect/accept (the
 * set-up step) catch a peer that sends at once with an RNR retry count of 0, C's
 * {@code rdma_client} included; two completion queues; a connect that waits for its listener;
 * the UD reply path.
 */
class RdmaCmSendAtOnceDeviceTest {
    private static final EnumSet<AccessFlag> LOCAL_WRITE = EnumSet.of(AccessFlag.LOCAL_WRITE);
    private static final int CLIENT_RUNS = 5;
    /** rdma_client's message size. */
    private static final int C_MESSAGE = 16;

    /**
     * rdma-core's {@code rdma_client} posts its send right after {@code rdma_connect} returns. Our
     * accept gives its queue pair an RNR retry count of 0 (the REP's {@code rnr_retry_count} is
     * the active side's {@code rnr_retry}), so a receive posted after accept could come too late:
     * the set-up step posts it before {@code rdma_accept}, and every message arrives.
     */
    @DeviceTest
    void theCClientSendsAtOnceAndEveryMessageArrivesWithRnrRetryZero(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        InteropPeers.c("rdma_client", "rdmacm-utils", List.of()); // skips (or in the VM fails) when missing
        ConnectionOptions noRnrRetry = ConnectionOptions.builder().rnrRetryCount(0).build();
        int received = 0;
        try (RdmaListener listener = RdmaListener.listen(anyPort(ip), noRnrRetry)) {
            InetSocketAddress server = listener.localAddress();
            for (int run = 0; run < CLIENT_RUNS; run++) {
                long wrId = run;
                List<String> command = InteropPeers.c("rdma_client", "rdmacm-utils",
                        List.of("-s", server.getAddress().getHostAddress(), "-p", Integer.toString(server.getPort())));
                try (PeerProcess client = LocalPeerProcess.start("C rdma_client " + run, command, () -> true)) {
                    AtomicReference<MemoryRegion> inbox = new AtomicReference<>();
                    try (RdmaConnection connection = listener.accept(WAIT, prepared -> {
                        MemoryRegion region = prepared.protectionDomain().allocateMemoryRegion(4096, LOCAL_WRITE);
                        inbox.set(region);
                        prepared.queuePair().postReceive(ReceiveWorkRequest.allocate(1).wrId(wrId).sge(0, region, 0, 64));
                    })) {
                        Completions wc = Completions.allocate(1);
                        awaitOne(connection.completionQueue(), wc, "the C client's message, run " + run);
                        assertEquals(CompletionOpcode.RECV, wc.opcode(0));
                        assertEquals(C_MESSAGE, wc.byteLength(0), "rdma_client sends 16 bytes");
                        received++;
                        // rdma_client waits for a 16-byte answer before it disconnects and exits.
                        connection.queuePair().postSend(SendWorkRequest.allocate(1).signaled(true).sge(inbox.get(), 1024, C_MESSAGE));
                        awaitOne(connection.completionQueue(), wc, "our answer, run " + run);
                        connection.awaitDisconnect(WAIT);
                    }
                    OptionalInt exit = client.awaitExit(Duration.ofSeconds(60));
                    assertTrue(exit.isPresent() && exit.getAsInt() == 0, "rdma_client ends well: " + client.describe());
                    assertTrue(client.output().contains("rdma_client: end 0"), client.output());
                }
            }
        }
        assertEquals(CLIENT_RUNS, received, "every message of every run arrived");
        System.out.println("rdma_client sending at once, RNR retry 0: " + received + "/" + CLIENT_RUNS + " messages received");
    }

    /**
     * Our client posts its receives before {@code rdma_connect} and asks the server's queue pair
     * for an RNR retry count of 0 (the REQ's); the server sends at once after accept; the client
     * has a send and a receive completion queue of their own.
     */
    @DeviceTest
    void receivesPostedBeforeConnectCatchAServerThatSendsAtOnce(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        int messages = 8;
        try (RdmaListener listener = RdmaListener.listen(anyPort(ip), ConnectionOptions.defaults());
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Integer> serverSide = threads.submit(() -> {
                try (RdmaConnection connection = listener.accept(WAIT);
                     MemoryRegion outbox = connection.protectionDomain().allocateMemoryRegion(4096, LOCAL_WRITE)) {
                    Completions wc = Completions.allocate(1);
                    for (int i = 0; i < messages; i++) {
                        outbox.memory().set(ValueLayout.JAVA_INT, i * 64L, i);
                        connection.queuePair().postSend(SendWorkRequest.allocate(1).wrId(i).signaled(true).sge(outbox, i * 64L, 4));
                        awaitOne(connection.completionQueue(), wc, "server send " + i);
                    }
                    connection.awaitDisconnect(WAIT);
                    return messages;
                }
            });
            ConnectionOptions options = ConnectionOptions.builder().rnrRetryCount(0).separateCompletionQueues(true).build();
            AtomicReference<MemoryRegion> inbox = new AtomicReference<>();
            try (RdmaConnection client = RdmaConnection.connect(listener.localAddress(), options, prepared -> {
                MemoryRegion region = prepared.protectionDomain().allocateMemoryRegion(4096, LOCAL_WRITE);
                inbox.set(region);
                for (int i = 0; i < messages; i++) {
                    prepared.queuePair().postReceive(ReceiveWorkRequest.allocate(1).wrId(i).sge(0, region, i * 64L, 64));
                }
            })) {
                assertFalse(client.sendCompletionQueue() == client.receiveCompletionQueue(), "two completion queues");
                assertThrows(IllegalStateException.class, client::completionQueue);
                Completions wc = Completions.allocate(1);
                for (int i = 0; i < messages; i++) {
                    awaitOne(client.receiveCompletionQueue(), wc, "receive " + i);
                    assertEquals(i, (int) wc.wrId(0));
                    assertEquals(i, inbox.get().memory().get(ValueLayout.JAVA_INT, i * 64L));
                }
                assertEquals(0, client.sendCompletionQueue().poll(wc), "receives do not complete on the send queue");
                assertTrue(client.disconnect(WAIT));
            }
            assertEquals(messages, serverSide.get(60, TimeUnit.SECONDS));
        }
    }

    @DeviceTest
    void aConnectWaitsForItsListenerWithinItsDeadline(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        InetSocketAddress free;
        try (RdmaListener probe = RdmaListener.listen(anyPort(ip), ConnectionOptions.defaults())) {
            free = probe.localAddress();
        }
        // Nobody ever listens: refused once the deadline has passed, not long after. By the
        // transport: IB and RoCE reject with reason 8; on iWARP rdma_connect's TCP connect is refused.
        boolean iwarp;
        try (Context context = DeviceScope.openContext(device)) {
            iwarp = context.device().transportType() == TransportType.IWARP;
        }
        Duration deadline = Duration.ofSeconds(2);
        long start = System.nanoTime();
        Class<? extends ConnectionException> expected = iwarp ? ConnectionException.class : ConnectionRejectedException.class;
        ConnectionException nobody = assertThrows(expected, () ->
                RdmaConnection.connect(free, ConnectionOptions.builder().listenerWait(deadline).build()).close());
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        if (iwarp) {
            assertFalse(nobody instanceof ConnectionRejectedException, nobody.toString());
            assertEquals("rdma_connect", nobody.verb(), nobody.toString());
            assertEquals(Errno.ECONNREFUSED, nobody.errno(), nobody.toString());
        } else {
            assertFalse(((ConnectionRejectedException) nobody).rejectedByPeer(), nobody.toString());
        }
        assertTrue(tookMillis >= 1_000 && tookMillis < 30_000, "retried until about the deadline: " + tookMillis + " ms");

        // The listener comes late: the connect waits for it.
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<RdmaConnection> client = threads.submit(() -> RdmaConnection.connect(free,
                    ConnectionOptions.builder().listenerWait(Duration.ofSeconds(60)).build()));
            Thread.sleep(500);
            try (RdmaListener late = RdmaListener.listen(free, ConnectionOptions.defaults());
                 RdmaConnection server = late.accept(WAIT);
                 RdmaConnection connected = client.get(60, TimeUnit.SECONDS)) {
                assertEquals(connected.localAddress().getPort(), server.remoteAddress().getPort());
            }
        }
    }

    /** A UD server answers the sender of a datagram: address handle from the completion and {@link RdmaDatagramSocket#portNumber()}, Q_Key {@link RdmaDatagramSocket#RDMA_UDP_QKEY}. */
    @DeviceTest
    void aDatagramServerRepliesToWhoeverSent(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        int grh = 40;
        try (RdmaDatagramSocket server = RdmaDatagramSocket.bind(anyPort(ip), ConnectionOptions.defaults());
             MemoryRegion serverBox = server.protectionDomain().allocateMemoryRegion(4096, LOCAL_WRITE)) {
            server.queuePair().postReceive(ReceiveWorkRequest.allocate(1).sge(0, serverBox, 0, grh + 256));
            CompletableFuture<ResolutionRequest> asked = CompletableFuture.supplyAsync(() -> server.answerResolution(WAIT).orElseThrow());
            try (RdmaDatagramSocket client = RdmaDatagramSocket.connect(server.localAddress(), ConnectionOptions.defaults());
                 MemoryRegion clientBox = client.protectionDomain().allocateMemoryRegion(4096, LOCAL_WRITE)) {
                assertEquals(client.localAddress().getAddress(), asked.get(30, TimeUnit.SECONDS).requester().getAddress());
                assertEquals(RdmaDatagramSocket.RDMA_UDP_QKEY, client.qkey());
                DatagramPeer peer = client.peer().orElseThrow();
                assertEquals(server.qkey(), peer.qkey());
                client.queuePair().postReceive(ReceiveWorkRequest.allocate(1).sge(0, clientBox, 0, grh + 256));
                byte[] ping = "ping".getBytes();
                clientBox.memory().asSlice(1024, ping.length).copyFrom(MemorySegment.ofArray(ping));
                Completions wc = Completions.allocate(1);
                client.queuePair().postSend(SendWorkRequest.allocate(1).signaled(true).sge(clientBox, 1024, ping.length)
                        .ud(peer.addressHandle(), peer.queuePairNumber(), peer.qkey()));
                awaitOne(client.completionQueue(), wc, "UD ping sent");
                awaitOne(server.completionQueue(), wc, "UD ping received");
                int senderQp = wc.sourceQp(0);
                assertEquals(client.queuePair().number(), senderQp);
                byte[] pong = "pong".getBytes();
                serverBox.memory().asSlice(2048, pong.length).copyFrom(MemorySegment.ofArray(pong));
                try (AddressHandle back = server.protectionDomain().createAddressHandle(wc, 0,
                        serverBox.memory().asSlice(0, grh), server.portNumber())) {
                    server.queuePair().postSend(SendWorkRequest.allocate(1).signaled(true).sge(serverBox, 2048, pong.length)
                            .ud(back, senderQp, RdmaDatagramSocket.RDMA_UDP_QKEY));
                    awaitOne(server.completionQueue(), wc, "UD pong sent");
                    awaitOne(client.completionQueue(), wc, "UD pong received");
                    assertArrayEquals(pong, clientBox.memory().asSlice(grh, pong.length).toArray(ValueLayout.JAVA_BYTE));
                }
            }
        }
    }
}
