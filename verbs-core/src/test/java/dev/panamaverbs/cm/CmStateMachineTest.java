package dev.panamaverbs.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.AddressHandleAttributes;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.GlobalRoute;
import dev.panamaverbs.values.Mtu;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The state machines of the high-level rdma_cm classes: every operation in every state, and racing transitions. */
class CmStateMachineTest {
    private static final RdmaConnection.State PREPARING = RdmaConnection.State.PREPARING;
    private static final RdmaConnection.State CONNECTED = RdmaConnection.State.CONNECTED;
    private static final RdmaConnection.State DISCONNECTING = RdmaConnection.State.DISCONNECTING;
    private static final RdmaConnection.State DISCONNECTED = RdmaConnection.State.DISCONNECTED;
    private static final RdmaConnection.State CLOSED = RdmaConnection.State.CLOSED;

    /** The expected table, written out (not derived from the code under test). */
    private static final Map<RdmaConnection.Operation, Set<RdmaConnection.State>> CONNECTION = Map.of(
            RdmaConnection.Operation.DISCONNECT, EnumSet.of(CONNECTED, DISCONNECTING, DISCONNECTED),
            RdmaConnection.Operation.AWAIT_DISCONNECT, EnumSet.of(CONNECTED, DISCONNECTING, DISCONNECTED),
            RdmaConnection.Operation.REMOTE_ADDRESS, EnumSet.of(PREPARING, CONNECTED, DISCONNECTING, DISCONNECTED),
            RdmaConnection.Operation.CONTEXT, EnumSet.of(PREPARING, CONNECTED, DISCONNECTING, DISCONNECTED),
            RdmaConnection.Operation.ACCEPT_PRIVATE_DATA, EnumSet.allOf(RdmaConnection.State.class),
            RdmaConnection.Operation.CLOSE, EnumSet.allOf(RdmaConnection.State.class));

    @Test
    void everyConnectionOperationIsAllowedOrRefusedInEveryState() {
        assertEquals(EnumSet.allOf(RdmaConnection.Operation.class), CONNECTION.keySet(), "every operation is in the table");
        for (RdmaConnection.Operation operation : RdmaConnection.Operation.values()) {
            for (RdmaConnection.State state : RdmaConnection.State.values()) {
                CmStateMachine<RdmaConnection.State> machine = new CmStateMachine<>(state, () -> "conn");
                if (CONNECTION.get(operation).contains(state)) {
                    assertSame(state, machine.require(operation.verb, operation.allowed), operation + " in " + state);
                } else {
                    IllegalStateException refused = assertThrows(IllegalStateException.class,
                            () -> machine.require(operation.verb, operation.allowed), operation + " in " + state);
                    assertTrue(refused.getMessage().contains(operation.verb) && refused.getMessage().contains(state.name()),
                            refused.getMessage());
                    assertSame(state, machine.current(), "a refusal changes nothing");
                }
            }
        }
    }

    @Test
    void disconnectAndAwaitDisconnectFollowOneRule() {
        assertEquals(RdmaConnection.Operation.DISCONNECT.allowed, RdmaConnection.Operation.AWAIT_DISCONNECT.allowed);
        assertFalse(RdmaConnection.Operation.DISCONNECT.allowed.contains(CLOSED));
    }

    @Test
    void listenerAndDatagramSocketWorkOnlyWhileOpen() {
        assertEquals(EnumSet.of(RdmaListener.State.LISTENING), RdmaListener.OPEN);
        assertEquals(EnumSet.of(RdmaDatagramSocket.State.OPEN), RdmaDatagramSocket.OPEN);
        CmStateMachine<RdmaListener.State> listener = new CmStateMachine<>(RdmaListener.State.LISTENING, () -> "l");
        listener.require("rdma_get_request", RdmaListener.OPEN);
        assertSame(RdmaListener.State.LISTENING, listener.force(RdmaListener.State.CLOSED));
        assertThrows(IllegalStateException.class, () -> listener.require("rdma_get_request", RdmaListener.OPEN));
        assertSame(RdmaListener.State.CLOSED, listener.force(RdmaListener.State.CLOSED), "close is idempotent");
    }

    @Test
    void aRequestIsDecidedOnceAndASecondDecisionChangesNothing() {
        for (ConnectionRequest.State state : ConnectionRequest.State.values()) {
            boolean decidable = state == ConnectionRequest.State.PENDING;
            assertEquals(decidable, ConnectionRequest.DECIDABLE.contains(state), state.name());
        }
        CmStateMachine<ConnectionRequest.State> request = new CmStateMachine<>(ConnectionRequest.State.PENDING, () -> "r");
        request.move("rdma_accept", ConnectionRequest.DECIDABLE, ConnectionRequest.State.ACCEPTING);
        request.force(ConnectionRequest.State.ACCEPTED);
        IllegalStateException reject = assertThrows(IllegalStateException.class,
                () -> request.move("rdma_reject", ConnectionRequest.DECIDABLE, ConnectionRequest.State.REJECTED));
        assertTrue(reject.getMessage().startsWith("rdma_reject: r is ACCEPTED"), reject.getMessage());
        assertThrows(IllegalStateException.class,
                () -> request.move("rdma_accept", ConnectionRequest.DECIDABLE, ConnectionRequest.State.ACCEPTING));
        assertSame(ConnectionRequest.State.ACCEPTED, request.current(), "the accepted request stays accepted");
    }

    @Test
    void racingDecisionsHaveExactlyOneWinner() throws Exception {
        int threads = 8;
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int round = 0; round < 200; round++) {
                CmStateMachine<ConnectionRequest.State> request = new CmStateMachine<>(ConnectionRequest.State.PENDING, () -> "r");
                CountDownLatch start = new CountDownLatch(1);
                AtomicInteger winners = new AtomicInteger();
                List<Future<?>> racers = new java.util.ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    ConnectionRequest.State target = t % 2 == 0 ? ConnectionRequest.State.ACCEPTING : ConnectionRequest.State.REJECTED;
                    racers.add(pool.submit(() -> {
                        start.await();
                        try {
                            request.move("decide", ConnectionRequest.DECIDABLE, target);
                            winners.incrementAndGet();
                        } catch (IllegalStateException lost) {
                            // the other decisions are refused
                        }
                        return null;
                    }));
                }
                start.countDown();
                for (Future<?> racer : racers) {
                    racer.get(10, TimeUnit.SECONDS);
                }
                assertEquals(1, winners.get(), "round " + round);
            }
        }
    }

    @Test
    void closedWhileWaitingNamesTheOperationAndKeepsTheCause() {
        CmStateMachine<RdmaListener.State> machine = new CmStateMachine<>(RdmaListener.State.CLOSED, () -> "RdmaListener[x]");
        IllegalStateException cause = new IllegalStateException("channel closed");
        IllegalStateException e = machine.closedWhileWaiting("rdma_get_request", cause);
        assertTrue(e.getMessage().contains("rdma_get_request") && e.getMessage().contains("closed by another thread"));
        assertSame(cause, e.getCause());
    }

    @Test
    void connectionOptionsCarryListenerWaitAndSeparateQueues() {
        ConnectionOptions defaults = ConnectionOptions.defaults();
        assertEquals(Duration.ZERO, defaults.listenerWait(), "no retry unless asked");
        assertFalse(defaults.separateCompletionQueues(), "one CQ unless asked");
        ConnectionOptions asked = defaults.toBuilder().listenerWait(Duration.ofSeconds(3)).separateCompletionQueues(true).build();
        assertEquals(Duration.ofSeconds(3), asked.listenerWait());
        assertTrue(asked.separateCompletionQueues());
        assertEquals(asked, asked.toBuilder().build());
        assertFalse(asked.equals(defaults));
        assertThrows(IllegalArgumentException.class, () -> ConnectionOptions.builder().listenerWait(Duration.ofMillis(-1)).build());
        assertThrows(NullPointerException.class, () -> ConnectionOptions.builder().listenerWait(null).build());
    }

    @Test
    void connectionOptionsCarryACompletionChannelOnlyWhenAsked() {
        ConnectionOptions defaults = ConnectionOptions.defaults();
        assertFalse(defaults.completionChannel(), "no completion channel unless asked");
        ConnectionOptions asked = defaults.toBuilder().completionChannel(true).build();
        assertTrue(asked.completionChannel());
        assertEquals(asked, asked.toBuilder().build(), "toBuilder keeps it");
        assertFalse(asked.equals(defaults));
        assertTrue(asked.toString().contains("completionChannel=true"), asked.toString());
    }

    @Test
    void smallHelpers() {
        assertEquals(256, Mtu.MTU_256.bytes());
        assertEquals(1024, Mtu.MTU_1024.bytes());
        assertEquals(4096, Mtu.MTU_4096.bytes());
        assertEquals(0x01234567, RdmaDatagramSocket.RDMA_UDP_QKEY);
        AddressHandleAttributes global = AddressHandleAttributes.global(1, 0, Gid.of(new byte[16]));
        assertEquals(GlobalRoute.DEFAULT_HOP_LIMIT, global.hopLimit());
        assertEquals(3, global.withHopLimit(3).hopLimit());
        assertThrows(IllegalArgumentException.class, () -> global.withHopLimit(256));
        AddressHandleAttributes local = AddressHandleAttributes.local(1, 5);
        assertThrows(IllegalStateException.class, local::hopLimit);
    }
}
