package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.RdmaCmSupport;
import static dev.panamaverbs.it.support.RdmaCmSupport.WAIT;
import static dev.panamaverbs.it.support.RdmaCmSupport.anyPort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.cm.RdmaListener;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.values.PortCounters;
import dev.panamaverbs.values.QueuePairState;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Issue 23's observability on a device: one real rdma_cm connection recorded with JFR. The
 * listener gives the client's queue pair an RNR retry count of 0 (the REP's) and the server
 * posts no receive, so the client's SEND is answered with an RNR NAK and completes with
 * RNR_RETRY_EXC_ERR at once. The recording, dumped and read back, holds both sides'
 * ConnectionEstablished, the FailedCompletion, the client's queue pair moving to ERROR and
 * ConnectionDisconnected; the port's counters show the packets sent and the RNR NAK.
 */
class ObservabilityDeviceTest {
    private static final List<String> EVENTS = List.of("ConnectionEstablished", "ConnectionRejected",
            "ConnectionDisconnected", "QueuePairStateChange", "QueuePairError", "AsyncEvent", "FailedCompletion");
    private static final long WR_ID = 0x5EEDL;

    @DeviceTest
    void aConnectionAFailedSendAndTheCountersAreRecorded(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        DeviceCapability.RNR_NAKS.require(device); // the failed send is an RNR NAK
        Path file = Files.createTempFile("verbs-observability", ".jfr");
        int clientQpn;
        Map<String, Long> changes;
        PortCounters after;
        try (Recording recording = new Recording()) {
            EVENTS.forEach(name -> recording.enable("dev.panamaverbs." + name));
            recording.start();
            try (RdmaListener listener = RdmaListener.listen(anyPort(ip), ConnectionOptions.builder().rnrRetryCount(0).build());
                 ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
                Future<Boolean> serverSide = threads.submit(() -> {
                    try (RdmaConnection connection = listener.accept(WAIT)) { // no receive posted: RNR NAK
                        return connection.awaitDisconnect(WAIT);
                    }
                });
                try (RdmaConnection client = RdmaConnection.connect(listener.localAddress(), ConnectionOptions.defaults());
                     MemoryRegion outbox = client.protectionDomain().allocateMemoryRegion(4096, EnumSet.of(AccessFlag.LOCAL_WRITE))) {
                    clientQpn = client.queuePair().number();
                    Context context = client.context();
                    assertEquals(device.name(), context.device().name());
                    PortCounters before = context.portCounters(device.port());
                    client.queuePair().postSend(SendWorkRequest.allocate(1).wrId(WR_ID).signaled(true).sge(outbox, 0, 64));
                    Completions wc = Completions.allocate(1);
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    while (client.completionQueue().poll(wc) == 0) {
                        if (System.nanoTime() > deadline) {
                            fail("the SEND without a receive did not complete within 60 s");
                        }
                        Thread.sleep(1);
                    }
                    assertEquals(CompletionStatus.RNR_RETRY_EXC_ERR, wc.status(0), "RNR retry 0 and no receive");
                    after = context.portCounters(device.port());
                    changes = after.changesSince(before);
                    assertEquals(QueuePairState.ERROR, client.queuePair().queryState(), "the device moved the QP to ERROR");
                    assertTrue(client.disconnect(WAIT), "DISCONNECTED");
                }
                assertTrue(serverSide.get(60, TimeUnit.SECONDS), "the server saw DISCONNECTED");
            }
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        Files.deleteIfExists(file);
        System.out.println("port counters after the RNR failure: " + after + "; moved: " + changes);

        List<RecordedEvent> established = named(events, "ConnectionEstablished", e -> true);
        assertTrue(established.size() >= 2, "both sides' ESTABLISHED: " + established);
        RecordedEvent clientEstablished = named(events, "ConnectionEstablished",
                e -> e.getInt("queuePairNumber") == clientQpn).getFirst();
        assertEquals(device.name(), clientEstablished.getString("device"));
        assertTrue(clientEstablished.getString("peerAddress").startsWith(ip.getHostAddress() + ":"),
                clientEstablished.toString());

        RecordedEvent failed = named(events, "FailedCompletion", e -> e.getLong("workRequestId") == WR_ID).getFirst();
        assertEquals("RNR_RETRY_EXC_ERR", failed.getString("status"));
        assertEquals(clientQpn, failed.getInt("queuePairNumber"));
        assertEquals(device.name(), failed.getString("device"));

        assertFalse(named(events, "QueuePairStateChange",
                e -> e.getInt("queuePairNumber") == clientQpn && e.getString("to").equals("ERROR")).isEmpty(),
                "the client's QP moving to ERROR");
        assertFalse(named(events, "QueuePairError", e -> e.getInt("queuePairNumber") == clientQpn).isEmpty());
        assertFalse(named(events, "ConnectionDisconnected", e -> e.getInt("queuePairNumber") == clientQpn).isEmpty(),
                "the client's DISCONNECTED");

        // rxe's hw_counters: packets went out, and the requester received the RNR NAK.
        assertFalse(after.hardwareCounters().isEmpty(), "rxe has hw_counters: " + after);
        assertTrue(changes.getOrDefault("sent_pkts", 0L) > 0, "sent_pkts grew: " + changes);
        // The NAK shows on either side of the one rxe device: the responder's send_rnr_err, the
        // requester's rcvd_rnr_err or retry_rnr_exceeded_err (which of them a kernel counts varies).
        assertTrue(changes.getOrDefault("send_rnr_err", 0L) + changes.getOrDefault("rcvd_rnr_err", 0L)
                + changes.getOrDefault("retry_rnr_exceeded_err", 0L) >= 1, "an RNR counter grew: " + changes);
    }

    private static List<RecordedEvent> named(List<RecordedEvent> events, String name, Predicate<RecordedEvent> which) {
        List<RecordedEvent> found = events.stream()
                .filter(e -> e.getEventType().getName().equals("dev.panamaverbs." + name)).filter(which).toList();
        if (found.isEmpty()) {
            fail("no dev.panamaverbs." + name + " matching among " + events.stream()
                    .filter(e -> e.getEventType().getName().startsWith("dev.panamaverbs.")).toList());
        }
        return found;
    }
}
