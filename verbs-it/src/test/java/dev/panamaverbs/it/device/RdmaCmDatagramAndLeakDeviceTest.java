package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.RdmaCmSupport;
import dev.panamaverbs.it.support.KernelResources;
import static dev.panamaverbs.it.support.RdmaCmSupport.WAIT;
import static dev.panamaverbs.it.support.RdmaCmSupport.anyPort;
import static dev.panamaverbs.it.support.RdmaCmSupport.awaitOne;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.Completions;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.RdmaDatagramSocket;
import dev.panamaverbs.cm.DatagramPeer;
import dev.panamaverbs.cm.ResolutionRequest;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.values.QueuePairState;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.cm.RdmaListener;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** UD through RDMA_PS_UDP, and every rdma_cm kernel object (cm_id, qp, cq, pd, mr) freed on close. */
class RdmaCmDatagramAndLeakDeviceTest {
    private static final int GRH = 40;

    @DeviceTest
    void aDatagramReachesTheServerRdmaCmResolved(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        EnumSet<AccessFlag> write = EnumSet.of(AccessFlag.LOCAL_WRITE);
        try (RdmaDatagramSocket server = RdmaDatagramSocket.bind(anyPort(ip), ConnectionOptions.defaults());
             MemoryRegion inbox = server.protectionDomain().allocateMemoryRegion(4096, write)) {
            assertEquals(QueuePairState.RTS, server.queuePair().state());
            server.queuePair().postReceive(ReceiveWorkRequest.allocate(1).wrId(5).sge(0, inbox, 0, GRH + 256));
            CompletableFuture<Optional<ResolutionRequest>> answered = CompletableFuture.supplyAsync(() -> server.answerResolution(WAIT));
            ConnectionOptions options = ConnectionOptions.builder().privateData("who".getBytes()).build();
            try (RdmaDatagramSocket client = RdmaDatagramSocket.connect(server.localAddress(), options);
                 MemoryRegion outbox = client.protectionDomain().allocateMemoryRegion(4096, write)) {
                ResolutionRequest asked = answered.get(30, TimeUnit.SECONDS).orElseThrow();
                assertEquals("who", new String(asked.privateData(), 0, 3));
                assertEquals(client.localAddress(), asked.requester(), "the answer says who asked");
                DatagramPeer peer = client.peer().orElseThrow();
                assertEquals(server.queuePair().number(), peer.queuePairNumber());
                byte[] message = "a datagram through rdma_cm".getBytes();
                outbox.memory().asSlice(0, message.length).copyFrom(java.lang.foreign.MemorySegment.ofArray(message));
                Completions wc = Completions.allocate(4);
                client.queuePair().postSend(SendWorkRequest.allocate(1).signaled(true).sge(outbox, 0, message.length)
                        .ud(peer.addressHandle(), peer.queuePairNumber(), peer.qkey()));
                awaitOne(client.completionQueue(), wc, "UD send");
                awaitOne(server.completionQueue(), wc, "UD receive");
                assertEquals(GRH + message.length, wc.byteLength(0));
                assertArrayEquals(message, inbox.memory().asSlice(GRH, message.length).toArray(ValueLayout.JAVA_BYTE));
            }
        }
    }

    @DeviceTest
    void everyKernelObjectIsFreedOnClose(TestDevice device) throws Exception {
        RdmaCmSupport.requireRdmaCm();
        assumeTrue(KernelResources.toolAvailable(), "iproute2's rdma tool is not installed");
        InetAddress ip = RdmaCmSupport.deviceAddress(device);
        // librdmacm opens each device once per process and keeps it open (one more ctx for good):
        // make that happen before the first count, so that only what we create is counted.
        try (RdmaListener warmUp = RdmaListener.listen(anyPort(ip), ConnectionOptions.defaults())) {
            assertTrue(warmUp.identifier().context().isOwnedByConnectionManager());
        }
        Map<String, Integer> before = KernelResources.count(device.name());
        assertTrue(before.containsKey("cm_id"), "rdma resource show counts cm_id: " + before);
        try (RdmaListener listener = RdmaListener.listen(anyPort(ip), ConnectionOptions.defaults())) {
            for (int round = 0; round < 3; round++) {
                CompletableFuture<RdmaConnection> accepted = CompletableFuture.supplyAsync(() -> listener.accept(WAIT));
                try (RdmaConnection client = RdmaConnection.connect(listener.localAddress(), ConnectionOptions.defaults());
                     RdmaConnection server = accepted.get(60, TimeUnit.SECONDS)) {
                    client.protectionDomain().allocateMemoryRegion(4096, EnumSet.of(AccessFlag.LOCAL_WRITE));
                    Map<String, Integer> during = KernelResources.count(device.name());
                    assertEquals(before.get("cm_id") + 3, during.get("cm_id"), "listener, client, server: " + during);
                    assertEquals(before.get("qp") + 2, during.get("qp"), "two QPs: " + during);
                }
            }
        }
        // The kernel frees a cm_id when rdma_destroy_id returns; give a late DREQ a moment all the same.
        Map<String, Integer> after = KernelResources.count(device.name());
        for (int i = 0; i < 20 && !after.equals(before); i++) {
            Thread.sleep(100);
            after = KernelResources.count(device.name());
        }
        assertEquals(before, after, "every cm_id, qp, cq, pd and mr freed");
    }
}
