package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.RdmaCmSupport;
import static dev.panamaverbs.it.support.RdmaCmSupport.anyPort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.panamaverbs.VerbsException;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionRejectedException;
import dev.panamaverbs.cm.ConnectionRequest;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.cm.RdmaDatagramSocket;
import dev.panamaverbs.cm.RdmaListener;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.net.InetAddress;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Every public method of {@link RdmaListener}, {@link ConnectionRequest}, {@link RdmaConnection}
 * and {@link RdmaDatagramSocket} in every state one host reaches: each returns or throws a
 * documented exception (never anything else, never a crash), and the state rules hold (a second
 * accept and a reject after accept are refused and leave the accepted connection working;
 * disconnect and awaitDisconnect after close both throw).
 */
class RdmaCmStatesDeviceTest {
    private static final Duration SHORT = Duration.ofMillis(50);
    private static final Duration WAIT = RdmaCmSupport.WAIT;

    /** Runs each call; returns what each did ("ok" or the exception's simple name); fails on an undocumented exception. */
    private static Map<String, String> callEvery(String state, Map<String, Runnable> calls) {
        Map<String, String> outcomes = new LinkedHashMap<>();
        calls.forEach((name, call) -> {
            try {
                call.run();
                outcomes.put(name, "ok");
            } catch (IllegalStateException | IllegalArgumentException | VerbsException e) {
                outcomes.put(name, e.getClass().getSimpleName());
            } catch (RuntimeException e) {
                fail(name + " in " + state + " threw an undocumented " + e, e);
            }
        });
        System.out.println(state + ": " + outcomes);
        return outcomes;
    }

    private static Map<String, Runnable> listenerCalls(RdmaListener listener) {
        return publicCalls(listener, "close");
    }

    /** Every call of a connection but close and disconnect (the tests add disconnect where they want it). */
    private static Map<String, Runnable> connectionCalls(RdmaConnection connection) {
        return publicCalls(connection, "close", "disconnect");
    }

    /**
     * Every public instance method of {@code target}'s class that takes nothing or one timeout
     * ({@link #SHORT}), by name, but those {@code leftOut}: new methods are covered without a
     * change here. An exception the method throws comes out as itself.
     */
    private static Map<String, Runnable> publicCalls(Object target, String... leftOut) {
        Map<String, Runnable> calls = new TreeMap<>();
        for (Method method : target.getClass().getMethods()) {
            Class<?>[] parameters = method.getParameterTypes();
            boolean callable = parameters.length == 0 || parameters.length == 1 && parameters[0] == Duration.class;
            if (!callable || Modifier.isStatic(method.getModifiers()) || method.getDeclaringClass() == Object.class
                    || Arrays.asList(leftOut).contains(method.getName())) {
                continue;
            }
            Object[] arguments = parameters.length == 0 ? new Object[0] : new Object[] {SHORT};
            calls.put(method.getName(), () -> {
                try {
                    method.invoke(target, arguments);
                } catch (InvocationTargetException e) {
                    if (e.getCause() instanceof RuntimeException thrown) {
                        throw thrown;
                    }
                    throw new AssertionError(method + " threw " + e.getCause(), e.getCause());
                } catch (IllegalAccessException e) {
                    throw new AssertionError(method + " is public but not callable", e);
                }
            });
        }
        return calls;
    }

    @DeviceTest
    void listenerInEveryState(TestDevice device) {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        RdmaListener listener = RdmaListener.listen(anyPort(ip), ConnectionOptions.defaults());
        Map<String, String> listening = callEvery("LISTENING", listenerCalls(listener));
        assertEquals("ok", listening.get("awaitRequest"), "no request: empty");
        assertEquals("ConnectionException", listening.get("accept"), "no request: ETIMEDOUT");
        assertFalse(listener.isClosed());
        listener.close();
        Map<String, String> closed = callEvery("CLOSED", listenerCalls(listener));
        assertTrue(listener.isClosed());
        for (String wait : new String[] {"localAddress", "awaitRequest", "accept"}) {
            assertEquals("IllegalStateException", closed.get(wait), wait + " after close");
        }
        listener.close(); // idempotent
    }

    @DeviceTest
    void requestAndConnectionInEveryState(TestDevice device) throws Exception {
        try (Listening listening = Listening.open(device)) {
            Pending pending = listening.connect(ConnectionOptions.builder().privateData("hi".getBytes()).build());
            Future<RdmaConnection> client = pending.client();
            ConnectionRequest request = pending.request();
            Map<String, Runnable> requestCalls = publicCalls(request, "accept");
            callEvery("PENDING", requestCalls).values().forEach(outcome -> assertEquals("ok", outcome));

            AtomicReference<Map<String, String>> preparing = new AtomicReference<>();
            RdmaConnection server = request.accept(ConnectionOptions.defaults(), connection -> {
                Map<String, Runnable> calls = connectionCalls(connection);
                calls.put("disconnect", () -> connection.disconnect(SHORT));
                preparing.set(callEvery("PREPARING", calls));
            });
            assertEquals("IllegalStateException", preparing.get().get("disconnect"), "nothing to disconnect yet");
            assertEquals("IllegalStateException", preparing.get().get("awaitDisconnect"));
            assertEquals("ok", preparing.get().get("queuePair"), "the set-up step has the queue pair");
            try (RdmaConnection active = client.get(60, TimeUnit.SECONDS)) {
                Map<String, String> accepted = callEvery("ACCEPTED", requestCalls);
                accepted.values().forEach(outcome -> assertEquals("ok", outcome));
                assertThrows(IllegalStateException.class, request::accept, "a second accept");
                assertThrows(IllegalStateException.class, () -> request.reject(new byte[0]), "reject after accept");
                assertFalse(server.isClosed(), "the refusals left the accepted connection alone");
                assertFalse(request.identifier().isClosed());

                Map<String, String> connected = callEvery("CONNECTED", connectionCalls(server));
                assertEquals("ok", connected.get("awaitDisconnect"), "false: nobody disconnected");
                callEvery("CONNECTED (client)", connectionCalls(active));
                // The server answers the client's DREQ from its awaitDisconnect (ConnectionId), so it waits meanwhile.
                Future<Boolean> serverSees = listening.threads().submit(() -> server.awaitDisconnect(WAIT));
                // A zero timeout sends the DREQ and looks once: the DREP is not back yet, so DISCONNECTING.
                if (!active.disconnect(Duration.ZERO)) {
                    Map<String, Runnable> disconnecting = connectionCalls(active);
                    disconnecting.put("disconnect", () -> active.disconnect(SHORT));
                    callEvery("DISCONNECTING", disconnecting).forEach((name, outcome) ->
                            assertEquals("ok", outcome, name + " while disconnecting"));
                } else {
                    System.out.println("DISCONNECTING: the peer's answer came within the one look (not reached)");
                }
                assertTrue(active.disconnect(WAIT), "a second disconnect only waits");
                assertTrue(serverSees.get(60, TimeUnit.SECONDS), "the server sees the client's disconnect");
                Map<String, Runnable> calls = connectionCalls(active);
                calls.put("disconnect", () -> assertTrue(active.disconnect(SHORT), "once disconnected: true at once"));
                callEvery("DISCONNECTED", calls).values().forEach(outcome -> assertEquals("ok", outcome));
                assertTrue(server.awaitDisconnect(SHORT));
            }
            server.close();
            Map<String, Runnable> calls = connectionCalls(server);
            calls.put("disconnect", () -> server.disconnect(SHORT));
            Map<String, String> closed = callEvery("CLOSED", calls);
            assertEquals("IllegalStateException", closed.get("disconnect"), "disconnect after close");
            assertEquals("IllegalStateException", closed.get("awaitDisconnect"), "awaitDisconnect after close: the same rule");
            assertTrue(server.isClosed());
            server.close(); // idempotent
        }
    }

    @DeviceTest
    void rejectedAndFailedRequests(TestDevice device) throws Exception {
        try (Listening listening = Listening.open(device)) {
            Pending pending = listening.connect(ConnectionOptions.defaults());
            Future<RdmaConnection> rejected = pending.client();
            ConnectionRequest request = pending.request();
            request.reject("no".getBytes());
            assertTrue(request.identifier().isClosed());
            assertThrows(IllegalStateException.class, request::accept, "accept after reject");
            assertThrows(IllegalStateException.class, () -> request.reject(new byte[0]), "a second reject");
            assertEquals(listening.listener().localAddress().getAddress(), request.remoteAddress().getAddress(), "answers in every state");
            Exception e = assertThrows(Exception.class, () -> rejected.get(60, TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof ConnectionRejectedException r && r.rejectedByPeer(), e.toString());

            // A set-up step that throws: the request is FAILED, its identifier closed, the client refused.
            Pending failing = listening.connect(ConnectionOptions.defaults());
            Future<RdmaConnection> failed = failing.client();
            ConnectionRequest second = failing.request();
            IllegalArgumentException boom = new IllegalArgumentException("set-up refused");
            assertSame(boom, assertThrows(IllegalArgumentException.class,
                    () -> second.accept(ConnectionOptions.defaults(), connection -> { throw boom; })));
            assertTrue(second.identifier().isClosed(), "the failed accept closed what it made");
            assertThrows(IllegalStateException.class, second::accept, "accept after a failed accept");
            assertThrows(IllegalStateException.class, () -> second.reject(new byte[0]));
            assertThrows(Exception.class, () -> failed.get(60, TimeUnit.SECONDS), "the client is not connected");
        }
    }

    @DeviceTest
    void datagramSocketInEveryState(TestDevice device) {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        RdmaDatagramSocket socket = RdmaDatagramSocket.bind(anyPort(ip), ConnectionOptions.defaults());
        Map<String, Runnable> calls = new LinkedHashMap<>();
        calls.put("answerResolution", () -> assertTrue(socket.answerResolution(SHORT).isEmpty()));
        calls.put("qkey", () -> assertEquals(RdmaDatagramSocket.RDMA_UDP_QKEY, socket.qkey()));
        calls.put("portNumber", () -> assertEquals(device.port(), socket.portNumber()));
        calls.put("peer", () -> assertTrue(socket.peer().isEmpty(), "a server has no peer"));
        calls.put("queuePair", socket::queuePair);
        calls.put("completionQueue", socket::completionQueue);
        calls.put("protectionDomain", socket::protectionDomain);
        calls.put("identifier", socket::identifier);
        calls.put("localAddress", socket::localAddress);
        calls.put("isClosed", () -> assertEquals(socket.isClosed(), socket.identifier().isClosed()));
        calls.put("toString", socket::toString);
        callEvery("OPEN", calls).values().forEach(outcome -> assertEquals("ok", outcome));
        socket.close();
        Map<String, String> closed = callEvery("CLOSED", calls);
        for (String refused : new String[] {"answerResolution", "qkey", "portNumber", "localAddress"}) {
            assertEquals("IllegalStateException", closed.get(refused), refused + " after close");
        }
        assertTrue(socket.isClosed());
        socket.close();
    }

    @DeviceTest
    void racingAcceptsAndRejectsOfOneRequestHaveOneWinner(TestDevice device) throws Exception {
        try (Listening listening = Listening.open(device)) {
            RdmaListener listener = listening.listener();
            ExecutorService threads = listening.threads();
            Pending pending = listening.connect(ConnectionOptions.defaults());
            Future<RdmaConnection> client = pending.client();
            ConnectionRequest request = pending.request();
            CompletableFuture<Object> accept = CompletableFuture.supplyAsync(request::accept, threads);
            CompletableFuture<Object> reject = CompletableFuture.supplyAsync(() -> {
                request.reject(new byte[0]);
                return "rejected";
            }, threads);
            Object accepted = outcome(accept);
            Object rejectedOutcome = outcome(reject);
            boolean acceptWon = accepted instanceof RdmaConnection;
            assertTrue(acceptWon != "rejected".equals(rejectedOutcome), "one winner: " + accepted + " / " + rejectedOutcome);
            Object loser = acceptWon ? rejectedOutcome : accepted;
            assertTrue(loser instanceof IllegalStateException, "the loser is refused: " + loser);
            if (acceptWon) {
                try (RdmaConnection server = (RdmaConnection) accepted; RdmaConnection active = client.get(60, TimeUnit.SECONDS)) {
                    assertFalse(server.isClosed());
                    Future<Boolean> serverSees = threads.submit(() -> server.awaitDisconnect(WAIT));
                    assertTrue(active.disconnect(WAIT));
                    assertTrue(serverSees.get(60, TimeUnit.SECONDS));
                }
            } else {
                assertThrows(Exception.class, () -> client.get(60, TimeUnit.SECONDS));
            }
        }
    }

    /** A client connecting on one of the listening side's threads, and its request as the listener took it. */
    private record Pending(Future<RdmaConnection> client, ConnectionRequest request) {}

    /** A listener on the device's address and the virtual threads its clients connect from. */
    private record Listening(RdmaListener listener, ExecutorService threads) implements AutoCloseable {
        static Listening open(TestDevice device) {
            InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
            return new Listening(RdmaListener.listen(anyPort(ip), ConnectionOptions.defaults()),
                    Executors.newVirtualThreadPerTaskExecutor());
        }

        Pending connect(ConnectionOptions options) {
            Future<RdmaConnection> client = threads.submit(() -> RdmaConnection.connect(listener.localAddress(), options));
            return new Pending(client, listener.awaitRequest(WAIT).orElseThrow());
        }

        /** The threads first (their connects end), then the listener: as a try-with-resources of both would. */
        @Override
        public void close() {
            try {
                threads.close();
            } finally {
                listener.close();
            }
        }
    }

    private static Object outcome(CompletableFuture<Object> future) throws InterruptedException {
        try {
            return future.get(60, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause();
        } catch (java.util.concurrent.TimeoutException e) {
            return fail("a decision hung", e);
        }
    }
}
