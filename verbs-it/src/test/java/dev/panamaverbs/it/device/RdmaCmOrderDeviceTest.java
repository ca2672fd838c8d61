package dev.panamaverbs.it.device;

import static dev.panamaverbs.it.support.RdmaCmSupport.WAIT;
import static dev.panamaverbs.it.support.RdmaCmSupport.anyPort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.cm.ConnectionEventChannel;
import dev.panamaverbs.cm.ConnectionId;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionRequest;
import dev.panamaverbs.cm.IdentifierState;
import dev.panamaverbs.cm.PortSpace;
import dev.panamaverbs.cm.RdmaDatagramSocket;
import dev.panamaverbs.it.support.DeviceScope;
import dev.panamaverbs.it.support.RdmaCmSupport;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.QueuePairType;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Every public {@link ConnectionId} method in every state one host reaches, on the active and the
 * passive path (issue 21: one out-of-order call crashed the JVM inside librdmacm). A call the
 * state does not allow throws {@link IllegalStateException} naming its verb and leaves the state
 * as it was; an allowed one succeeds or throws a documented exception; none crashes.
 */
class RdmaCmOrderDeviceTest {
    private static final Duration SHORT = Duration.ofMillis(20);

    /** The methods that move an identifier, with the states (TCP) they are allowed in; the path exercises them there. */
    private static final Map<String, Set<IdentifierState>> MOVES = new LinkedHashMap<>();

    static {
        MOVES.put("rdma_bind_addr", EnumSet.of(IdentifierState.CREATED));
        MOVES.put("rdma_listen", EnumSet.of(IdentifierState.BOUND));
        MOVES.put("rdma_resolve_addr", EnumSet.of(IdentifierState.CREATED, IdentifierState.BOUND));
        MOVES.put("rdma_resolve_route", EnumSet.of(IdentifierState.ADDRESS_RESOLVED));
        MOVES.put("rdma_create_qp", EnumSet.of(IdentifierState.BOUND, IdentifierState.ADDRESS_RESOLVED,
                IdentifierState.ROUTE_RESOLVED, IdentifierState.REQUEST));
        MOVES.put("rdma_connect", EnumSet.of(IdentifierState.ROUTE_RESOLVED));
        MOVES.put("rdma_accept", EnumSet.of(IdentifierState.REQUEST));
        MOVES.put("rdma_reject", EnumSet.of(IdentifierState.REQUEST));
        MOVES.put("rdma_disconnect", EnumSet.of(IdentifierState.CONNECTED, IdentifierState.DISCONNECTING,
                IdentifierState.DISCONNECTED));
    }

    @DeviceTest
    void everyMethodInEveryStateOfBothPathsEndsDocumented(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        List<String> seen = new ArrayList<>();
        try (Context foreign = DeviceScope.openContext(device);
             ConnectionEventChannel channel = ConnectionEventChannel.create()) {
            Probe probe = new Probe(ip, foreign, seen);
            // Passive: a listener, bound first.
            ConnectionId listener = channel.createIdentifier(PortSpace.TCP);
            probe.all(listener, IdentifierState.CREATED);
            listener.bind(anyPort(ip));
            probe.all(listener, IdentifierState.BOUND);
            listener.listen(4);
            probe.all(listener, IdentifierState.LISTENING);
            InetSocketAddress server = listener.localAddress();

            // Active: resolution step by step.
            ConnectionId client = channel.createIdentifier(PortSpace.TCP);
            client.resolveAddress(server, WAIT);
            probe.all(client, IdentifierState.ADDRESS_RESOLVED);
            client.resolveRoute(WAIT);
            probe.all(client, IdentifierState.ROUTE_RESOLVED);
            ProtectionDomain clientPd = client.context().allocateProtectionDomain();
            client.createQueuePair(clientPd, rc(client.context().createCompletionQueue(8)));
            probe.all(client, IdentifierState.ROUTE_RESOLVED);

            // CONNECTING, waited for on another thread; the server takes the request meanwhile.
            CompletableFuture<?> connecting = CompletableFuture.runAsync(() -> client.connect(ConnectionOptions.defaults(), WAIT));
            ConnectionRequest request = listener.awaitRequest(WAIT).orElseThrow();
            ConnectionId passive = request.identifier();
            probe.whileWaiting(client, IdentifierState.CONNECTING);
            probe.all(passive, IdentifierState.REQUEST);
            ProtectionDomain serverPd = passive.context().allocateProtectionDomain();
            passive.createQueuePair(serverPd, rc(passive.context().createCompletionQueue(8)));
            probe.all(passive, IdentifierState.REQUEST);
            passive.accept(ConnectionOptions.defaults(), WAIT);
            connecting.get(60, TimeUnit.SECONDS);
            probe.all(client, IdentifierState.CONNECTED);
            probe.all(passive, IdentifierState.CONNECTED);

            // The server waits on its own thread, as a server does: its answer ends the client's wait.
            CompletableFuture<Boolean> serverSaw = CompletableFuture.supplyAsync(() -> passive.awaitDisconnect(WAIT));
            assertTrue(client.disconnect(WAIT), "the client's disconnect completes");
            assertTrue(serverSaw.get(60, TimeUnit.SECONDS), "the server sees DISCONNECTED");
            probe.all(client, IdentifierState.DISCONNECTED);
            probe.all(passive, IdentifierState.DISCONNECTED);
            assertTrue(client.disconnect(SHORT), "a second disconnect answers at once");

            // Bound to the device's address: a queue pair already, then resolution from BOUND.
            ConnectionId bound = channel.createIdentifier(PortSpace.TCP);
            bound.bind(anyPort(ip));
            bound.createQueuePair(bound.context().allocateProtectionDomain(), rc(bound.context().createCompletionQueue(8)));
            probe.all(bound, IdentifierState.BOUND);
            bound.resolveAddress(server, WAIT);
            probe.all(bound, IdentifierState.ADDRESS_RESOLVED);
            bound.close();
            probe.all(bound, IdentifierState.CLOSED);

            // A request rejected, and a connect that fails: REJECTED and FAILED.
            ConnectionId refused = channel.createIdentifier(PortSpace.TCP);
            refused.resolveAddress(server, WAIT);
            refused.resolveRoute(WAIT);
            refused.createQueuePair(refused.context().allocateProtectionDomain(), rc(refused.context().createCompletionQueue(8)));
            CompletableFuture<Throwable> rejectedConnect = CompletableFuture.supplyAsync(() -> {
                try {
                    refused.connect(ConnectionOptions.defaults(), WAIT);
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            });
            ConnectionId toReject = listener.awaitRequest(WAIT).orElseThrow().identifier();
            toReject.reject(new byte[] {1});
            probe.all(toReject, IdentifierState.REJECTED);
            Throwable ended = rejectedConnect.get(60, TimeUnit.SECONDS);
            assertTrue(ended instanceof VerbsException, String.valueOf(ended));
            probe.all(refused, IdentifierState.FAILED);

            // Closed: every method refuses.
            for (ConnectionId id : List.of(refused, toReject, passive, client, listener)) {
                id.close();
                probe.all(id, IdentifierState.CLOSED);
            }
        }
        System.out.println("rdma_cm order: " + seen.size() + " calls, none crashed; refused ones named their verb");
    }

    @DeviceTest
    void aDatagramIdentifierRefusesWhatItHasNot(TestDevice device) {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        ConnectionOptions options = ConnectionOptions.defaults();
        try (RdmaDatagramSocket server = RdmaDatagramSocket.bind(anyPort(ip), options)) {
            CompletableFuture<?> answering = CompletableFuture.runAsync(() -> server.answerResolution(WAIT).orElseThrow());
            try (RdmaDatagramSocket client = RdmaDatagramSocket.connect(server.localAddress(), options)) {
                answering.join();
                ConnectionId id = client.identifier();
                assertEquals(IdentifierState.CONNECTED, id.state());
                assertEquals(IdentifierState.LISTENING, server.identifier().state());
                IllegalStateException noConnection = assertThrows(IllegalStateException.class, () -> id.disconnect(SHORT));
                assertTrue(noConnection.getMessage().startsWith("rdma_disconnect: "), noConnection.getMessage());
                assertThrows(IllegalStateException.class, () -> id.awaitDisconnect(SHORT));
                assertThrows(IllegalStateException.class, () -> id.connect(options, SHORT));
                assertThrows(IllegalStateException.class, () -> server.identifier().connect(options, SHORT));
                assertThrows(IllegalStateException.class, () -> server.identifier().accept(options, SHORT));
                assertEquals(IdentifierState.CONNECTED, id.state(), "a refused call changes nothing");
            }
        }
    }

    private static QueuePairOptions rc(CompletionQueue cq) {
        return QueuePairOptions.builder(QueuePairType.RC, cq).build();
    }

    /** Calls the methods of one identifier in one state. */
    private static final class Probe {
        private final InetAddress ip;
        private final ProtectionDomain foreignPd;
        private final CompletionQueue foreignCq;
        private final List<String> seen;

        Probe(InetAddress ip, Context foreign, List<String> seen) {
            this.ip = ip;
            this.foreignPd = foreign.allocateProtectionDomain();
            this.foreignCq = foreign.createCompletionQueue(4);
            this.seen = seen;
        }

        /**
         * Every method on {@code id}, which is in {@code expected}: those that move an identifier
         * only where the state refuses them (the path runs them where it allows them), the others
         * always.
         */
        void all(ConnectionId id, IdentifierState expected) {
            assertEquals(expected, id.state(), id.toString());
            boolean hasQueuePair = id.queuePair().isPresent();
            InetSocketAddress peer = new InetSocketAddress(ip, 7999);
            ConnectionOptions options = ConnectionOptions.defaults();
            moving(id, expected, "rdma_bind_addr", true, i -> i.bind(anyPort(ip)));
            moving(id, expected, "rdma_listen", true, i -> i.listen(1));
            moving(id, expected, "rdma_resolve_addr", true, i -> i.resolveAddress(peer, SHORT));
            moving(id, expected, "rdma_resolve_route", true, i -> i.resolveRoute(SHORT));
            moving(id, expected, "rdma_create_qp", !hasQueuePair, i -> i.createQueuePair(foreignPd, rc(foreignCq)));
            moving(id, expected, "rdma_connect", hasQueuePair, i -> i.connect(options, SHORT));
            moving(id, expected, "rdma_accept", hasQueuePair, i -> i.accept(options, SHORT));
            moving(id, expected, "rdma_reject", true, i -> i.reject(new byte[0]));
            moving(id, expected, "rdma_disconnect", true, i -> i.disconnect(SHORT));
            // Reading methods: allowed or refused, they never move the identifier.
            reading(id, "rdma_cm_id.verbs", ConnectionId::context);
            reading(id, "rdma_get_cm_event", i -> i.awaitEvent(SHORT));
            reading(id, "rdma_get_request", i -> i.awaitRequest(SHORT).ifPresent(r -> fail("no request was due: " + r)));
            reading(id, "rdma_get_cm_event (DISCONNECTED)", i -> i.awaitDisconnect(SHORT));
            reading(id, null, ConnectionId::localAddress);
            reading(id, null, ConnectionId::remoteAddress);
            reading(id, null, ConnectionId::queuePair);
            reading(id, null, ConnectionId::channel);
            reading(id, null, ConnectionId::portSpace);
            assertEquals(expected, id.state(), "after probing " + id);
        }

        /** From another thread while {@code id} waits: every step is refused, naming the wait. */
        void whileWaiting(ConnectionId id, IdentifierState expected) {
            IdentifierState now = id.state();
            if (now != expected) {
                return; // the connect ended before the probe: the CONNECTED probe covers the rest
            }
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> id.awaitEvent(SHORT));
            assertTrue(refused.getMessage().contains("waits for ESTABLISHED"), refused.getMessage());
            assertThrows(IllegalStateException.class, () -> id.disconnect(SHORT));
            assertThrows(IllegalStateException.class, () -> id.connect(ConnectionOptions.defaults(), SHORT));
            assertThrows(IllegalStateException.class, () -> id.awaitDisconnect(SHORT));
            seen.add(id + " while " + expected);
        }

        private void moving(ConnectionId id, IdentifierState state, String verb, boolean queuePairAllows,
                            Consumer<ConnectionId> call) {
            if (MOVES.get(verb).contains(state) && queuePairAllows && state != IdentifierState.CLOSED) {
                return;    // allowed: the path itself makes this call in this state
            }
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> call.accept(id),
                    verb + " must be refused on " + id + " in " + state);
            assertTrue(refused.getMessage().startsWith(verb + ": ") || refused.getMessage().contains("closed"),
                    refused.getMessage());
            assertEquals(state, id.state(), verb + " refused must change nothing");
            seen.add(verb + " in " + state + ": " + refused.getMessage());
        }

        private void reading(ConnectionId id, String verb, Consumer<ConnectionId> call) {
            try {
                call.accept(id);
                seen.add((verb != null ? verb : "read") + " allowed on " + id);
            } catch (IllegalStateException refused) {
                assertTrue(verb != null && refused.getMessage().startsWith(verb + ": ") || refused.getMessage().contains("closed"),
                        refused.getMessage());
                seen.add(refused.getMessage());
            } catch (VerbsException documented) {
                seen.add(documented.getMessage());
            }
            assertFalse(id.state() == null);
        }
    }
}
