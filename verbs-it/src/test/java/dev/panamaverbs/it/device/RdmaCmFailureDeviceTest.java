package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.RdmaCmSupport;
import static dev.panamaverbs.it.support.RdmaCmSupport.WAIT;
import static dev.panamaverbs.it.support.RdmaCmSupport.anyPort;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.Completions;
import dev.panamaverbs.cm.ConnectionEventChannel;
import dev.panamaverbs.cm.ConnectionException;
import dev.panamaverbs.cm.ConnectionId;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionRejectedException;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.cm.PortSpace;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.cm.RdmaListener;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.testkit.DeviceTest;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import dev.panamaverbs.testkit.TestDevice;

/** rdma_cm's failure modes on one host: each ends with a clear exception, none hangs, nothing leaks. */
class RdmaCmFailureDeviceTest {
    @DeviceTest
    void aRejectCarriesThePrivateData(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        byte[] reason = "full, try later".getBytes();
        try (RdmaListener listener = RdmaListener.listen(anyPort(ip), ConnectionOptions.defaults())) {
            CompletableFuture<Void> rejecter = CompletableFuture.runAsync(() ->
                    listener.awaitRequest(WAIT).orElseThrow().reject(reason));
            ConnectionRejectedException rejected = assertThrows(ConnectionRejectedException.class,
                    () -> RdmaConnection.connect(listener.localAddress(), ConnectionOptions.defaults()));
            rejecter.get(30, TimeUnit.SECONDS);
            assertTrue(rejected.rejectedByPeer(), rejected.getMessage());
            assertArrayEquals(reason, Arrays.copyOf(rejected.privateData(), reason.length));
            assertTrue(rejected.getMessage().contains(listener.localAddress().getAddress().getHostAddress()), rejected.getMessage());
        }
    }

    @DeviceTest
    void aConnectWhereNothingListensFailsFast(TestDevice device) {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        InetSocketAddress nobody = new InetSocketAddress(ip, 7999);
        long start = System.nanoTime();
        ConnectionException failed = assertThrows(ConnectionException.class,
                () -> RdmaConnection.connect(nobody, ConnectionOptions.defaults()));
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println("connect to a port with no listener: " + failed.getMessage() + " after " + millis + " ms");
        assertTrue(failed.getMessage().contains(ip.getHostAddress() + ":7999"), failed.getMessage());
        assertTrue(millis < 15_000, "reported in " + millis + " ms");
    }

    @DeviceTest
    void resolvingAnUnreachableAddressTimesOut(TestDevice device) {
        RdmaCmSupport.requireRdmaCm();
        assumeTrue(RdmaCmSupport.insideProjectVm(), "the unreachable probe is only sent inside the project's VM");
        InetSocketAddress unreachable = new InetSocketAddress(RdmaCmSupport.UNREACHABLE, 7471);
        ConnectionOptions options = ConnectionOptions.builder().resolveTimeout(Duration.ofSeconds(1))
                .connectTimeout(Duration.ofSeconds(3)).build();
        long start = System.nanoTime();
        ConnectionException failed = assertThrows(ConnectionException.class, () -> RdmaConnection.connect(unreachable, options));
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println("connect to " + unreachable + ": " + failed.getMessage() + " after " + millis + " ms");
        assertTrue(failed.getMessage().contains(RdmaCmSupport.UNREACHABLE), failed.getMessage());
        assertTrue(millis < 20_000, "reported in " + millis + " ms");
    }

    @DeviceTest
    void closingAnIdentifierWhileItConnectsEndsTheWait(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        // A listener nobody accepts on: the connect waits for ESTABLISHED until the close.
        try (RdmaListener listener = RdmaListener.listen(anyPort(ip), ConnectionOptions.defaults());
             ConnectionEventChannel channel = ConnectionEventChannel.create()) {
            ConnectionId id = channel.createIdentifier(PortSpace.TCP);
            id.resolveAddress(listener.localAddress(), Duration.ofSeconds(2));
            id.resolveRoute(Duration.ofSeconds(2));
            ProtectionDomain pd = id.context().allocateProtectionDomain();
            id.createQueuePair(pd, QueuePairOptions.builder(QueuePairType.RC, id.context().createCompletionQueue(8)).build());
            CompletableFuture<Throwable> connecting = CompletableFuture.supplyAsync(() -> {
                try {
                    id.connect(ConnectionOptions.defaults(), Duration.ofSeconds(60));
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            }, Executors.newVirtualThreadPerTaskExecutor());
            Thread.sleep(500);
            id.close();
            Throwable ended = connecting.get(15, TimeUnit.SECONDS);
            assertTrue(ended instanceof IllegalStateException, String.valueOf(ended));
            assertTrue(ended.getMessage().contains("ConnectionId"), ended.getMessage());
            assertTrue(pd.isClosed(), "what was made on the identifier closed with it");
        }
    }

    @DeviceTest
    void closingTheChannelWakesAVirtualThreadWaitingOnIt(TestDevice device) throws Exception {
        RdmaCmSupport.requireRdmaCm();
        ConnectionEventChannel channel = ConnectionEventChannel.create();
        channel.createIdentifier(PortSpace.TCP);
        CompletableFuture<Throwable> waiting = new CompletableFuture<>();
        Thread waiter = Thread.ofVirtual().start(() -> {
            try {
                channel.awaitEvent(Duration.ofSeconds(60));
                waiting.complete(null);
            } catch (Throwable t) {
                waiting.complete(t);
            }
        });
        Thread.sleep(300);
        channel.close();
        Throwable ended = waiting.get(10, TimeUnit.SECONDS);
        waiter.join(1000);
        assertTrue(ended instanceof IllegalStateException, String.valueOf(ended));
        assertTrue(ended.getMessage().contains("ConnectionEventChannel") && ended.getMessage().contains("closed"),
                ended.getMessage());
    }

    @DeviceTest
    void aQueuePairAfterDisconnectFlushesAndAfterCloseRefuses(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        try (RdmaListener listener = RdmaListener.listen(anyPort(ip), ConnectionOptions.defaults())) {
            CompletableFuture<RdmaConnection> accepted = CompletableFuture.supplyAsync(() -> listener.accept(WAIT));
            RdmaConnection client = RdmaConnection.connect(listener.localAddress(), ConnectionOptions.defaults());
            try (RdmaConnection server = accepted.get(60, TimeUnit.SECONDS)) {
                MemoryRegion mr = client.protectionDomain().allocateMemoryRegion(64, EnumSet.of(AccessFlag.LOCAL_WRITE));
                // The server waits on its own thread, as a server does: its answer ends the client's wait.
                CompletableFuture<Boolean> serverSaw = CompletableFuture.supplyAsync(() -> server.awaitDisconnect(WAIT));
                assertTrue(client.disconnect(WAIT), "the client's disconnect completes");
                assertTrue(serverSaw.get(30, TimeUnit.SECONDS), "the server sees DISCONNECTED");
                Completions wc = Completions.allocate(4);
                try {
                    client.queuePair().postSend(SendWorkRequest.allocate(1).signaled(true).sge(mr, 0, 8));
                    long deadline = System.nanoTime() + 10_000_000_000L;
                    while (client.completionQueue().poll(wc) == 0 && System.nanoTime() < deadline) {
                        Thread.onSpinWait();
                    }
                    assertEquals(CompletionStatus.WR_FLUSH_ERR, wc.status(0), "a send after disconnect is flushed");
                } catch (VerbsException refused) {
                    assertTrue(refused.getMessage().contains("ibv_post_send"), refused.getMessage());
                }
            } finally {
                client.close();
            }
            IllegalStateException closed = assertThrows(IllegalStateException.class,
                    () -> client.queuePair().postSend(SendWorkRequest.allocate(1).sge(
                            client.protectionDomain().allocateMemoryRegion(8, EnumSet.of(AccessFlag.LOCAL_WRITE)), 0, 8)));
            assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        }
    }
}
