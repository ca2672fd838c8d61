package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.RdmaCmSupport;
import static dev.panamaverbs.it.support.RdmaCmSupport.WAIT;
import static dev.panamaverbs.it.support.RdmaCmSupport.anyPort;
import static dev.panamaverbs.it.support.RdmaCmSupport.awaitOne;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.Completions;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.values.QueuePairState;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.cm.RdmaListener;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * rdma_cm on one host, two endpoints in one JVM: connect/accept/disconnect with RC SEND/RECV and
 * RDMA WRITE verified, private data both ways, sequential and concurrent accepts.
 */
class RdmaCmConnectDeviceTest {
    @DeviceTest
    void connectAcceptSendReceiveWriteAndDisconnect(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        EnumSet<AccessFlag> remoteWrite = EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE);
        try (RdmaListener listener = RdmaListener.listen(anyPort(ip), ConnectionOptions.defaults())) {
            InetSocketAddress server = listener.localAddress();
            assertTrue(server.getPort() > 0, "a port was picked: " + server);
            CompletableFuture<String> serverSide = CompletableFuture.supplyAsync(() -> {
                var request = listener.awaitRequest(WAIT).orElseThrow();
                String hello = new String(request.event().privateData(5));
                try (RdmaConnection connection = request.accept(ConnectionOptions.defaults());
                     MemoryRegion target = connection.protectionDomain().allocateMemoryRegion(4096, remoteWrite)) {
                    // Receive posted before the client writes: the client's SEND comes after its WRITE.
                    connection.queuePair().postReceive(ReceiveWorkRequest.allocate(1).wrId(7).sge(0, target, 2048, 64));
                    // Tell the client where to write, through a SEND it receives (no private data needed).
                    try (MemoryRegion note = connection.protectionDomain().allocateMemoryRegion(64, remoteWrite)) {
                        note.memory().set(ValueLayout.JAVA_LONG, 0, target.iova());
                        note.memory().set(ValueLayout.JAVA_INT, 8, target.rkey());
                        Completions wc = Completions.allocate(4);
                        connection.queuePair().postSend(SendWorkRequest.allocate(1).wrId(1).signaled(true).sge(note, 0, 12));
                        awaitOne(connection.completionQueue(), wc, "server SEND");
                        awaitOne(connection.completionQueue(), wc, "server RECV");
                        assertEquals(CompletionOpcode.RECV, wc.opcode(0));
                        byte[] written = target.memory().asSlice(0, 64).toArray(ValueLayout.JAVA_BYTE);
                        byte[] sent = target.memory().asSlice(2048, 5).toArray(ValueLayout.JAVA_BYTE);
                        assertTrue(connection.awaitDisconnect(WAIT), "the client's disconnect arrives");
                        return hello + "|" + written[0] + "," + written[63] + "|" + new String(sent);
                    }
                }
            }, Executors.newVirtualThreadPerTaskExecutor());

            ConnectionOptions options = ConnectionOptions.builder().privateData("hello".getBytes()).build();
            // The receive for the server's note is posted before rdma_connect: the server sends at once, and
            // iWARP has no RNR retry (a SEND that finds no receive breaks the connection).
            AtomicReference<MemoryRegion> registered = new AtomicReference<>();
            try (RdmaConnection client = RdmaConnection.connect(server, options, connection -> {
                     registered.set(connection.protectionDomain().allocateMemoryRegion(4096, remoteWrite));
                     connection.queuePair().postReceive(ReceiveWorkRequest.allocate(1).wrId(3).sge(0, registered.get(), 0, 64));
                 });
                 MemoryRegion local = registered.get()) {
                assertEquals(QueuePairState.RTS, client.queuePair().state());
                assertTrue(client.context().isOwnedByConnectionManager());
                Completions wc = Completions.allocate(4);
                awaitOne(client.completionQueue(), wc, "client RECV of the server's note");
                long remoteAddress = local.memory().get(ValueLayout.JAVA_LONG, 0);
                int rkey = local.memory().get(ValueLayout.JAVA_INT, 8);
                local.memory().asSlice(1024, 64).fill((byte) 42);
                client.queuePair().postSend(SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                        .sge(local, 1024, 64).rdma(remoteAddress, rkey));
                awaitOne(client.completionQueue(), wc, "client RDMA WRITE");
                local.memory().asSlice(2000, 5).copyFrom(java.lang.foreign.MemorySegment.ofArray("world".getBytes()));
                client.queuePair().postSend(SendWorkRequest.allocate(1).signaled(true).sge(local, 2000, 5));
                awaitOne(client.completionQueue(), wc, "client SEND");
                assertTrue(client.disconnect(WAIT), "DISCONNECTED after rdma_disconnect");
                assertEquals(QueuePairState.ERROR, client.queuePair().state());
            }
            assertEquals("hello|42,42|world", serverSide.get(60, TimeUnit.SECONDS));
        }
    }

    @DeviceTest
    void sequentialAndConcurrentAcceptsEachConnect(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        try (RdmaListener listener = RdmaListener.listen(anyPort(ip), ConnectionOptions.defaults());
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            InetSocketAddress server = listener.localAddress();
            for (int i = 0; i < 3; i++) {
                Future<RdmaConnection> accepted = threads.submit(() -> listener.accept(WAIT));
                try (RdmaConnection client = RdmaConnection.connect(server, ConnectionOptions.defaults());
                     RdmaConnection serverSide = accepted.get(60, TimeUnit.SECONDS)) {
                    assertEquals(QueuePairState.RTS, serverSide.queuePair().state());
                    assertEquals(client.localAddress().getPort(), serverSide.remoteAddress().getPort(), "sequential " + i);
                }
            }
            int n = 3;
            List<Future<RdmaConnection>> acceptors = new ArrayList<>();
            List<Future<RdmaConnection>> clients = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                acceptors.add(threads.submit(() -> listener.accept(WAIT)));
            }
            for (int i = 0; i < n; i++) {
                clients.add(threads.submit(() -> RdmaConnection.connect(server, ConnectionOptions.defaults())));
            }
            List<RdmaConnection> all = new ArrayList<>();
            try {
                for (Future<RdmaConnection> f : acceptors) {
                    all.add(f.get(60, TimeUnit.SECONDS));
                }
                for (Future<RdmaConnection> f : clients) {
                    all.add(f.get(60, TimeUnit.SECONDS));
                }
                assertEquals(2 * n, all.stream().filter(c -> c.queuePair().state() == QueuePairState.RTS).count());
            } finally {
                all.forEach(RdmaConnection::close);
            }
        }
    }

    @DeviceTest
    void acceptPrivateDataReachesTheClient(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        byte[] welcome = ByteBuffer.allocate(8).putLong(0x1122334455667788L).array();
        try (RdmaListener listener = RdmaListener.listen(anyPort(ip), ConnectionOptions.defaults())) {
            CompletableFuture<RdmaConnection> accepted = CompletableFuture.supplyAsync(() ->
                    listener.awaitRequest(WAIT).orElseThrow().accept(ConnectionOptions.defaults().withPrivateData(welcome)));
            try (RdmaConnection client = RdmaConnection.connect(listener.localAddress(), ConnectionOptions.defaults());
                 RdmaConnection server = accepted.get(60, TimeUnit.SECONDS)) {
                assertArrayEquals(welcome, java.util.Arrays.copyOf(client.acceptPrivateData(), 8));
                assertFalse(server.isClosed());
            }
        }
    }
}
