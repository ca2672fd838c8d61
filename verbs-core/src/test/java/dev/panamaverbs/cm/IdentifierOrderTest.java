package dev.panamaverbs.cm;

import static dev.panamaverbs.cm.IdentifierState.ADDRESS_RESOLVED;
import static dev.panamaverbs.cm.IdentifierState.BOUND;
import static dev.panamaverbs.cm.IdentifierState.CLOSED;
import static dev.panamaverbs.cm.IdentifierState.CONNECTED;
import static dev.panamaverbs.cm.IdentifierState.CONNECTING;
import static dev.panamaverbs.cm.IdentifierState.CREATED;
import static dev.panamaverbs.cm.IdentifierState.DISCONNECTED;
import static dev.panamaverbs.cm.IdentifierState.DISCONNECTING;
import static dev.panamaverbs.cm.IdentifierState.FAILED;
import static dev.panamaverbs.cm.IdentifierState.LISTENING;
import static dev.panamaverbs.cm.IdentifierState.REJECTED;
import static dev.panamaverbs.cm.IdentifierState.REQUEST;
import static dev.panamaverbs.cm.IdentifierState.RESOLVING_ADDRESS;
import static dev.panamaverbs.cm.IdentifierState.RESOLVING_ROUTE;
import static dev.panamaverbs.cm.IdentifierState.ROUTE_RESOLVED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.panamaverbs.cm.IdentifierOrder.Step;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The rdma_cm identifier's order without a device: every step in every state, both port spaces,
 * with and without a queue pair (allowed, or refused naming the verb and the missing step), the
 * transitions events make, and two threads on one identifier.
 */
class IdentifierOrderTest {
    /** Where each step may run (TCP, with a queue pair), written from librdmacm's order, not from the table under test. */
    private static final Map<Step, Set<IdentifierState>> ALLOWED = new EnumMap<>(Step.class);

    static {
        ALLOWED.put(Step.BIND, EnumSet.of(CREATED));
        ALLOWED.put(Step.LISTEN, EnumSet.of(BOUND));
        ALLOWED.put(Step.RESOLVE_ADDRESS, EnumSet.of(CREATED, BOUND));
        ALLOWED.put(Step.RESOLVE_ROUTE, EnumSet.of(ADDRESS_RESOLVED));
        ALLOWED.put(Step.CREATE_QUEUE_PAIR, EnumSet.of(BOUND, ADDRESS_RESOLVED, ROUTE_RESOLVED, REQUEST));
        ALLOWED.put(Step.CONNECT, EnumSet.of(ROUTE_RESOLVED));
        ALLOWED.put(Step.ACCEPT, EnumSet.of(REQUEST));
        ALLOWED.put(Step.REJECT, EnumSet.of(REQUEST));
        ALLOWED.put(Step.DISCONNECT, EnumSet.of(CONNECTED, DISCONNECTING, DISCONNECTED));
        ALLOWED.put(Step.AWAIT_DISCONNECT, EnumSet.of(CONNECTED, DISCONNECTING, DISCONNECTED));
        ALLOWED.put(Step.AWAIT_REQUEST, EnumSet.of(LISTENING));
        ALLOWED.put(Step.AWAIT_EVENT, EnumSet.complementOf(EnumSet.of(RESOLVING_ADDRESS, RESOLVING_ROUTE, CONNECTING, CLOSED)));
        ALLOWED.put(Step.CONTEXT, EnumSet.complementOf(EnumSet.of(CREATED, CLOSED)));
    }

    /** Where each step may run for the given space and queue pair, from {@link #ALLOWED}. */
    private static Set<IdentifierState> allowed(Step step, PortSpace space, boolean hasQueuePair) {
        Set<IdentifierState> states = EnumSet.noneOf(IdentifierState.class);
        states.addAll(ALLOWED.get(step));
        switch (step) {
            case CREATE_QUEUE_PAIR -> {
                if (hasQueuePair) {
                    states.clear();
                } else if (space.isDatagram()) {
                    states.add(LISTENING);    // the datagram server's one UD queue pair sits on its listener
                }
            }
            case CONNECT -> {
                if (!hasQueuePair && !space.isDatagram()) {
                    states.clear();
                }
            }
            case ACCEPT -> {
                if (!hasQueuePair) {
                    states.clear();
                }
            }
            case DISCONNECT, AWAIT_DISCONNECT -> {
                if (space.isDatagram()) {
                    states.clear();
                }
            }
            default -> { }
        }
        return states;
    }

    @Test
    void everyStepInEveryStateIsAllowedOrRefusedAsLibrdmacmsOrderSays() {
        int cases = 0;
        List<String> wrong = new ArrayList<>();
        for (PortSpace space : List.of(PortSpace.TCP, PortSpace.UDP)) {
            for (boolean hasQueuePair : new boolean[] {false, true}) {
                for (Step step : Step.values()) {
                    Set<IdentifierState> expected = allowed(step, space, hasQueuePair);
                    for (IdentifierState state : IdentifierState.values()) {
                        cases++;
                        String refusal = IdentifierOrder.refusal(step, state, space, hasQueuePair);
                        if (expected.contains(state) != (refusal == null)) {
                            wrong.add(step + " in " + state + " (" + space + (hasQueuePair ? ", QP" : "") + "): "
                                    + (refusal == null ? "allowed" : "refused: " + refusal));
                        }
                    }
                }
            }
        }
        assertEquals(2 * 2 * Step.values().length * IdentifierState.values().length, cases);
        assertTrue(wrong.isEmpty(), wrong.size() + " cells differ from librdmacm's order:\n" + String.join("\n", wrong));
    }

    @Test
    void aRefusalNamesTheVerbTheStateAndTheMissingStep() {
        assertRefusal(Step.RESOLVE_ROUTE, CREATED, PortSpace.TCP, false,
                "rdma_resolve_route: id is CREATED: the address is not resolved yet; call resolveAddress first");
        assertRefusal(Step.RESOLVE_ROUTE, BOUND, PortSpace.TCP, false, "call resolveAddress first");
        assertRefusal(Step.CONNECT, CREATED, PortSpace.TCP, true, "call resolveAddress, resolveRoute and createQueuePair first");
        assertRefusal(Step.CONNECT, ADDRESS_RESOLVED, PortSpace.TCP, true, "call resolveRoute first");
        assertRefusal(Step.CONNECT, ROUTE_RESOLVED, PortSpace.TCP, false, "call createQueuePair first");
        assertRefusal(Step.CONNECT, CONNECTING, PortSpace.TCP, true, "another call on it waits for ESTABLISHED");
        assertRefusal(Step.LISTEN, CREATED, PortSpace.TCP, false, "call bind first");
        assertRefusal(Step.AWAIT_REQUEST, CREATED, PortSpace.TCP, false, "call bind and listen first");
        assertRefusal(Step.AWAIT_REQUEST, BOUND, PortSpace.TCP, false, "call listen first");
        assertRefusal(Step.ACCEPT, LISTENING, PortSpace.TCP, true, "from awaitRequest), not the listener");
        assertRefusal(Step.ACCEPT, REQUEST, PortSpace.TCP, false, "call createQueuePair first");
        assertRefusal(Step.ACCEPT, CONNECTED, PortSpace.TCP, true, "answered already");
        assertRefusal(Step.REJECT, CONNECTED, PortSpace.TCP, false, "answered already");
        assertRefusal(Step.REJECT, REJECTED, PortSpace.TCP, false, "rejected; only close remains");
        assertRefusal(Step.DISCONNECT, ROUTE_RESOLVED, PortSpace.TCP, false, "call connect first");
        assertRefusal(Step.DISCONNECT, REQUEST, PortSpace.TCP, false, "accept the request first");
        assertRefusal(Step.DISCONNECT, CONNECTED, PortSpace.UDP, true, "a datagram identifier has no connection");
        assertRefusal(Step.CREATE_QUEUE_PAIR, CREATED, PortSpace.TCP, false, "no device is chosen yet; call resolveAddress");
        assertRefusal(Step.CREATE_QUEUE_PAIR, LISTENING, PortSpace.TCP, false, "create it on the request's identifier");
        assertRefusal(Step.CREATE_QUEUE_PAIR, CONNECTED, PortSpace.TCP, false, "before connect or accept");
        assertRefusal(Step.CREATE_QUEUE_PAIR, ROUTE_RESOLVED, PortSpace.TCP, true, "it has a queue pair already");
        assertRefusal(Step.RESOLVE_ADDRESS, RESOLVING_ROUTE, PortSpace.TCP, false, "waits for ROUTE_RESOLVED");
        assertRefusal(Step.RESOLVE_ROUTE, RESOLVING_ADDRESS, PortSpace.TCP, false, "waits for ADDR_RESOLVED");
        assertRefusal(Step.BIND, FAILED, PortSpace.TCP, false, "an earlier step failed; only close remains");
        assertRefusal(Step.CONTEXT, CREATED, PortSpace.TCP, false, "rdma_cm_id.verbs: id is CREATED: no device");
        assertRefusal(Step.AWAIT_EVENT, CLOSED, PortSpace.TCP, false, "rdma_get_cm_event: id is CLOSED: it is closed");

        for (PortSpace space : List.of(PortSpace.TCP, PortSpace.UDP)) {
            for (Step step : Step.values()) {
                for (IdentifierState state : IdentifierState.values()) {
                    IdentifierOrder order = new IdentifierOrder("id", space, state);
                    try {
                        assertEquals(state, order.require(step, true));
                    } catch (IllegalStateException refused) {
                        String message = refused.getMessage();
                        assertTrue(message.startsWith(step.verb() + ": id is " + state + ": "), message);
                        assertTrue(message.length() > (step.verb() + ": id is " + state + ": ").length() + 10, message);
                    }
                }
            }
        }
    }

    private static void assertRefusal(Step step, IdentifierState state, PortSpace space, boolean hasQueuePair, String part) {
        IdentifierOrder order = new IdentifierOrder("id", space, state);
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> order.require(step, hasQueuePair),
                step + " in " + state);
        assertTrue(refused.getMessage().contains(part), refused.getMessage() + " should say: " + part);
    }

    @Test
    void eventsMoveTheStateAsTheKernelDoes() {
        assertEquals(ADDRESS_RESOLVED, IdentifierOrder.afterEvent(RESOLVING_ADDRESS, ConnectionEventType.ADDR_RESOLVED));
        assertEquals(BOUND, IdentifierOrder.afterEvent(RESOLVING_ADDRESS, ConnectionEventType.ADDR_ERROR), "may resolve again");
        assertEquals(ROUTE_RESOLVED, IdentifierOrder.afterEvent(RESOLVING_ROUTE, ConnectionEventType.ROUTE_RESOLVED));
        assertEquals(ADDRESS_RESOLVED, IdentifierOrder.afterEvent(RESOLVING_ROUTE, ConnectionEventType.ROUTE_ERROR));
        assertEquals(CONNECTED, IdentifierOrder.afterEvent(CONNECTING, ConnectionEventType.ESTABLISHED));
        for (ConnectionEventType failure : List.of(ConnectionEventType.REJECTED, ConnectionEventType.UNREACHABLE,
                ConnectionEventType.CONNECT_ERROR)) {
            assertEquals(FAILED, IdentifierOrder.afterEvent(CONNECTING, failure), failure.name());
        }
        for (IdentifierState connected : List.of(CONNECTING, CONNECTED, DISCONNECTING)) {
            assertEquals(DISCONNECTED, IdentifierOrder.afterEvent(connected, ConnectionEventType.DISCONNECTED));
        }
        for (IdentifierState state : IdentifierState.values()) {
            assertEquals(state == CLOSED ? CLOSED : FAILED, IdentifierOrder.afterEvent(state, ConnectionEventType.DEVICE_REMOVAL));
            assertEquals(state, IdentifierOrder.afterEvent(state, null), "an unknown event moves nothing");
            for (ConnectionEventType quiet : List.of(ConnectionEventType.TIMEWAIT_EXIT, ConnectionEventType.ADDR_CHANGE,
                    ConnectionEventType.CONNECT_REQUEST)) {
                assertEquals(state, IdentifierOrder.afterEvent(state, quiet), quiet + " in " + state);
            }
        }
        // An event that belongs to no wait of the state moves nothing (a late one, or another's).
        assertEquals(CREATED, IdentifierOrder.afterEvent(CREATED, ConnectionEventType.ADDR_RESOLVED));
        assertEquals(LISTENING, IdentifierOrder.afterEvent(LISTENING, ConnectionEventType.ESTABLISHED));
        assertEquals(REQUEST, IdentifierOrder.afterEvent(REQUEST, ConnectionEventType.DISCONNECTED));
        assertEquals(CONNECTED, IdentifierOrder.afterEvent(CONNECTED, ConnectionEventType.REJECTED));
    }

    @Test
    void aRefusedStepRunsNothingAndAFailedOneGoesBack() {
        IdentifierOrder order = new IdentifierOrder("id", PortSpace.TCP, CREATED);
        AtomicInteger ran = new AtomicInteger();
        assertThrows(IllegalStateException.class,
                () -> order.run(Step.RESOLVE_ROUTE, () -> false, RESOLVING_ROUTE, null, ran::incrementAndGet));
        assertEquals(0, ran.get(), "nothing out of order reaches librdmacm");
        assertEquals(CREATED, order.state());

        RuntimeException nativeFailure = new RuntimeException("rdma_bind_addr failed");
        assertEquals(nativeFailure, assertThrows(RuntimeException.class, () -> order.run(Step.BIND, () -> false, BOUND, null,
                () -> { throw nativeFailure; })));
        assertEquals(CREATED, order.state(), "a verb librdmacm refused leaves the state as it was");

        order.run(Step.BIND, () -> false, BOUND, null, ran::incrementAndGet);
        assertEquals(BOUND, order.state());
        assertThrows(RuntimeException.class, () -> order.runWaiting(Step.RESOLVE_ADDRESS, () -> false, RESOLVING_ADDRESS,
                null, ran::incrementAndGet, () -> { throw new RuntimeException("no ADDR_RESOLVED within 1 ms"); }));
        assertEquals(FAILED, order.state(), "a wait that ended without its event leaves FAILED");

        IdentifierOrder request = new IdentifierOrder("id", PortSpace.TCP, REQUEST);
        assertThrows(RuntimeException.class, () -> request.run(Step.ACCEPT, () -> true, CONNECTING, FAILED,
                () -> { throw new RuntimeException("rdma_accept failed"); }));
        assertEquals(FAILED, request.state(), "the kernel refuses a request whose accept failed");
    }

    @Test
    void aSecondThreadIsRefusedWhileTheFirstWaitsAndCloseIsNeverHeldUp() throws Exception {
        IdentifierOrder order = new IdentifierOrder("id", PortSpace.TCP, ROUTE_RESOLVED);
        CountDownLatch waiting = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<String> connect = threads.submit(() -> order.runWaiting(Step.CONNECT, () -> true, CONNECTING, null, () -> { },
                    () -> {
                        waiting.countDown();
                        try {
                            assertTrue(release.await(30, TimeUnit.SECONDS));
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                        order.observe(ConnectionEventType.ESTABLISHED);
                        return "established";
                    }));
            assertTrue(waiting.await(30, TimeUnit.SECONDS));
            assertEquals(CONNECTING, order.state());
            for (Step step : Step.values()) {
                if (step == Step.CONTEXT) {
                    continue;
                }
                Future<?> second = threads.submit(() -> order.run(step, () -> true, FAILED, null, () -> fail(step + " ran")));
                ExceptionCheck.refused(second, "waits for ESTABLISHED");
            }
            assertFalse(order.lock().isLocked(), "the wait holds no lock");
            release.countDown();
            assertEquals("established", connect.get(30, TimeUnit.SECONDS));
            assertEquals(CONNECTED, order.state());
            order.close();
            assertEquals(CLOSED, order.state());
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void manyThreadsRacingOneStepLetExactlyOneThrough() throws Exception {
        for (int round = 0; round < 50; round++) {
            IdentifierOrder order = new IdentifierOrder("id", PortSpace.TCP, CREATED);
            AtomicInteger ran = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> racers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                racers.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                        order.run(Step.BIND, () -> false, BOUND, null, ran::incrementAndGet);
                    } catch (IllegalStateException e) {
                        refused.incrementAndGet();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
            start.countDown();
            for (Thread racer : racers) {
                racer.join(30_000);
            }
            assertEquals(1, ran.get(), "one bind reaches librdmacm");
            assertEquals(3, refused.get());
            assertEquals(BOUND, order.state());
        }
    }

    /**
     * Every public method of {@link ConnectionId} is in the table, or documented as allowed in
     * every state: a new method must say which state it needs.
     */
    @Test
    void everyPublicMethodOfTheIdentifierHasItsRow() {
        Map<String, Step> steps = Map.ofEntries(Map.entry("bind", Step.BIND), Map.entry("listen", Step.LISTEN),
                Map.entry("resolveAddress", Step.RESOLVE_ADDRESS), Map.entry("resolveRoute", Step.RESOLVE_ROUTE),
                Map.entry("createQueuePair", Step.CREATE_QUEUE_PAIR), Map.entry("connect", Step.CONNECT),
                Map.entry("accept", Step.ACCEPT), Map.entry("reject", Step.REJECT), Map.entry("disconnect", Step.DISCONNECT),
                Map.entry("awaitDisconnect", Step.AWAIT_DISCONNECT), Map.entry("awaitRequest", Step.AWAIT_REQUEST),
                Map.entry("awaitEvent", Step.AWAIT_EVENT), Map.entry("context", Step.CONTEXT));
        // Read Java fields only (null or an empty Optional until set), or close: allowed in every state.
        Set<String> anyState = Set.of("channel", "portSpace", "state", "queuePair", "localAddress", "remoteAddress");
        Set<String> inherited = Set.of("close", "isClosed", "toString", "equals", "hashCode", "getClass", "notify",
                "notifyAll", "wait", "handle", "handleAddress");
        Set<String> missing = new TreeSet<>();
        for (Method method : ConnectionId.class.getMethods()) {
            String name = method.getName();
            if (Modifier.isStatic(method.getModifiers()) || inherited.contains(name)) {
                continue;
            }
            if (!steps.containsKey(name) && !anyState.contains(name)) {
                missing.add(name + Arrays.toString(method.getParameterTypes()));
            }
        }
        assertTrue(missing.isEmpty(), "public ConnectionId methods with no row in the order: " + missing);
        assertEquals(EnumSet.allOf(Step.class), EnumSet.copyOf(steps.values()), "every step is some method's");
    }

    /** Waits for a refused step and checks why. */
    private static final class ExceptionCheck {
        static void refused(Future<?> call, String part) throws Exception {
            try {
                call.get(30, TimeUnit.SECONDS);
                fail("allowed while another call waits");
            } catch (java.util.concurrent.ExecutionException e) {
                assertNotNull(e.getCause());
                assertTrue(e.getCause() instanceof IllegalStateException, String.valueOf(e.getCause()));
                assertTrue(e.getCause().getMessage().contains(part), e.getCause().getMessage());
            }
        }
    }

    @Test
    void aFinalStateAllowsOnlyWaitsForEventsAndTheContext() {
        for (IdentifierState state : List.of(REJECTED, FAILED)) {
            for (Step step : Step.values()) {
                String refusal = IdentifierOrder.refusal(step, state, PortSpace.TCP, true);
                if (step == Step.AWAIT_EVENT || step == Step.CONTEXT) {
                    assertNull(refusal, step + " in " + state);
                } else {
                    assertNotNull(refusal, step + " in " + state);
                }
            }
        }
    }
}
