package dev.panamaverbs.it.device;

import static dev.panamaverbs.it.support.RdmaCmSupport.WAIT;
import static dev.panamaverbs.it.support.RdmaCmSupport.anyPort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.cm.ConnectionEvent;
import dev.panamaverbs.cm.ConnectionEventChannel;
import dev.panamaverbs.cm.ConnectionEventType;
import dev.panamaverbs.cm.ConnectionId;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionRequest;
import dev.panamaverbs.cm.PortSpace;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.it.support.RdmaCmSupport;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.QueuePairType;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * {@link ConnectionEventChannel#setEventHandler}: a server's channel with a handler sees its
 * listener's connection request, the accepted identifier's ESTABLISHED and its DISCONNECTED, each
 * once, while the identifiers' own waits (awaitRequest, accept, awaitDisconnect) still get every
 * one of them: the handler observes, it does not consume.
 */
class RdmaCmEventHandlerDeviceTest {
    private static final List<ConnectionEventType> EXPECTED = List.of(ConnectionEventType.CONNECT_REQUEST,
            ConnectionEventType.ESTABLISHED, ConnectionEventType.DISCONNECTED);

    @DeviceTest
    void theHandlerSeesEachEventOnceAndTheWaitsStillGetThem(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        List<ConnectionEvent> seen = new CopyOnWriteArrayList<>();
        try (ConnectionEventChannel events = ConnectionEventChannel.create()) {
            events.setEventHandler(seen::add);
            ConnectionId listener = events.createIdentifier(PortSpace.TCP);
            listener.bind(anyPort(ip));
            listener.listen(4);
            CompletableFuture<RdmaConnection> client = RdmaConnection.connectAsync(listener.localAddress(),
                    ConnectionOptions.defaults());
            ConnectionRequest request = listener.awaitRequest(WAIT).orElseThrow(
                    () -> new AssertionError("awaitRequest got no request; the handler saw " + seen));
            ConnectionId accepted = request.identifier();
            ProtectionDomain pd = accepted.context().allocateProtectionDomain();
            CompletionQueue cq = accepted.context().createCompletionQueue(4);
            accepted.createQueuePair(pd, QueuePairOptions.builder(QueuePairType.RC, cq)
                    .maxSendWorkRequests(1).maxReceiveWorkRequests(1).maxSendSge(1).maxReceiveSge(1).build());
            accepted.accept(ConnectionOptions.defaults(), WAIT); // waits for its ESTABLISHED
            try (RdmaConnection connection = client.get(60, TimeUnit.SECONDS)) {
                connection.disconnect(WAIT);
            }
            assertTrue(accepted.awaitDisconnect(WAIT), "the identifier's own wait got its DISCONNECTED");

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!counts(seen).keySet().containsAll(EXPECTED) && System.nanoTime() - deadline < 0) {
                Thread.sleep(10); // the poller thread may show the last event just after the wait took it
            }
            Map<ConnectionEventType, Long> counts = counts(seen);
            for (ConnectionEventType type : EXPECTED) {
                assertEquals(1L, counts.getOrDefault(type, 0L), type + " shown once; the handler saw " + seen);
            }
            events.setEventHandler(null);
        }
    }

    private static Map<ConnectionEventType, Long> counts(List<ConnectionEvent> seen) {
        return seen.stream().collect(Collectors.groupingBy(ConnectionEvent::type, Collectors.counting()));
    }
}
