package dev.panamaverbs.it.fuzz;

import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionRequest;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.cm.RdmaDatagramSocket;
import dev.panamaverbs.cm.RdmaListener;
import dev.panamaverbs.it.support.RdmaCmSupport;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.testkit.TestDevice;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * rdma_cm's high-level classes in a seeded random order (issue 21 point 6), the second part of
 * the {@code rdmaCmOrder} category: each round a listener, a client that connects from a helper
 * thread (with or without the set-up step), and on the fuzz thread a random sequence over the
 * request (accept, reject, accept twice, reject after accept, its accessors), then over both
 * connections and the listener (disconnect, await, accessors, close, calls after close); a
 * waiter whose object another thread closes must end promptly; then a datagram socket pair
 * (answerResolution, qkey, portNumber, peer, close). Every call returns or ends with a documented
 * exception ({@link FuzzRun#MISUSE}, which holds the library's {@code ConnectionException}s).
 */
final class CmHighLevelFuzz {
    private static final int CONNECTION_ROUNDS = 3;
    private static final int DATAGRAM_ROUNDS = 2;
    private static final int REQUEST_CALLS = 6;
    private static final int CONNECTION_CALLS = 14;
    private static final int DATAGRAM_CALLS = 10;
    private static final Duration SHORT = Duration.ofMillis(10);
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** A waiter another thread closes must end well before its own timeout. */
    private static final Duration LONG_WAIT = Duration.ofSeconds(15);
    private static final long PROMPT_NANOS = 8_000_000_000L;
    private static final String[] REQUEST_METHODS = {"accept", "accept(options)", "accept(options, setUp)", "reject",
        "accept twice", "privateData", "remoteAddress", "event", "identifier"};
    private static final String[] CONNECTION_METHODS = {"disconnect", "awaitDisconnect", "acceptPrivateData",
        "remoteAddress", "localAddress", "context", "queuePair", "completionQueue", "isClosed", "close"};
    private static final String[] LISTENER_METHODS = {"awaitRequest", "accept", "accept(setUp)", "localAddress",
        "identifier", "isClosed", "close"};
    private static final String[] DATAGRAM_METHODS = {"answerResolution", "qkey", "portNumber", "peer", "queuePair",
        "localAddress", "isClosed", "close"};

    private CmHighLevelFuzz() {}

    static void run(TestDevice device, FuzzRun run) throws Exception {
        RdmaCmSupport.requireRdmaCm();
        InetAddress ip = RdmaCmSupport.deviceAddress(device);
        Random random = run.random();
        ConnectionOptions options = ConnectionOptions.builder().connectTimeout(Duration.ofSeconds(8)).build();
        for (int round = 0; round < CONNECTION_ROUNDS; round++) {
            connectionRound(run, random, ip, options, "connection round " + round + " ");
        }
        DeviceCapability.UD.require(device); // datagram sockets are UD queue pairs
        for (int round = 0; round < DATAGRAM_ROUNDS; round++) {
            datagramRound(run, random, ip, options, "datagram round " + round + " ");
        }
    }

    private static void connectionRound(FuzzRun run, Random random, InetAddress ip, ConnectionOptions options,
                                        String name) throws Exception {
        List<RdmaConnection> made = new ArrayList<>();
        try (RdmaListener listener = RdmaListener.listen(new InetSocketAddress(ip, 0), options)) {
            InetSocketAddress where = listener.localAddress();
            boolean setUp = random.nextBoolean();
            CompletableFuture<RdmaConnection> client = CompletableFuture.supplyAsync(() -> setUp
                    ? RdmaConnection.connect(where, options, RdmaConnection::queuePair)
                    : RdmaConnection.connect(where, options), runnable -> Thread.ofPlatform().start(runnable));
            AtomicReference<ConnectionRequest> request = new AtomicReference<>();
            run.misuse(name + "awaitRequest (client set-up " + setUp + ")",
                    () -> request.set(listener.awaitRequest(WAIT).orElse(null)));
            for (int call = 0; call < REQUEST_CALLS && request.get() != null; call++) {
                String method = REQUEST_METHODS[random.nextInt(REQUEST_METHODS.length)];
                run.misuse(name + "request call " + call + " " + method, () -> callRequest(request.get(), method, options, made));
            }
            // A request nobody decided on is rejected (refused when it was decided: nothing is touched then).
            if (request.get() != null) {
                run.misuse(name + "reject at the end", () -> request.get().reject(new byte[] {1}));
            }
            run.misuse(name + "client's connect", () -> made.add(result(client)));
            run.misuse(name + "listener accept with nobody connecting", () -> made.add(listener.accept(SHORT)));
            for (int call = 0; call < CONNECTION_CALLS && !made.isEmpty(); call++) {
                RdmaConnection connection = made.get(random.nextInt(made.size()));
                String method = CONNECTION_METHODS[random.nextInt(CONNECTION_METHODS.length)];
                run.misuse(name + "connection call " + call + " " + method + " on " + (connection.isClosed() ? "closed" : "open"),
                        () -> callConnection(connection, method));
            }
            for (RdmaConnection connection : made) {
                run.misuse(name + "awaitDisconnect closed by another thread",
                        () -> closedWhileWaiting(connection, () -> connection.awaitDisconnect(LONG_WAIT)));
                run.misuse(name + "disconnect after close", () -> connection.disconnect(SHORT));
                run.misuse(name + "awaitDisconnect after close", () -> connection.awaitDisconnect(SHORT));
            }
            if (random.nextBoolean()) {
                run.misuse(name + "listener awaitRequest closed by another thread",
                        () -> closedWhileWaiting(listener, () -> listener.awaitRequest(LONG_WAIT)));
            } else {
                run.misuse(name + "listener close", listener::close);
            }
            for (String method : LISTENER_METHODS) {
                run.misuse(name + "listener " + method + " after close", () -> callListener(listener, method, made));
            }
            run.misuse(name + "connect where nobody listens any more",
                    () -> made.add(RdmaConnection.connect(where, options)));
        } finally {
            made.forEach(RdmaConnection::close);
        }
    }

    private static void datagramRound(FuzzRun run, Random random, InetAddress ip, ConnectionOptions options,
                                      String name) throws Exception {
        List<AutoCloseable> made = new ArrayList<>();
        try (RdmaDatagramSocket server = RdmaDatagramSocket.bind(new InetSocketAddress(ip, 0), options)) {
            InetSocketAddress where = server.localAddress();
            CompletableFuture<RdmaDatagramSocket> client = CompletableFuture.supplyAsync(
                    () -> RdmaDatagramSocket.connect(where, options), runnable -> Thread.ofPlatform().start(runnable));
            run.misuse(name + "answerResolution", () -> server.answerResolution(WAIT));
            run.misuse(name + "client's resolution", () -> made.add(result(client)));
            List<RdmaDatagramSocket> sockets = new ArrayList<>(List.of(server));
            made.forEach(socket -> sockets.add((RdmaDatagramSocket) socket));
            for (int call = 0; call < DATAGRAM_CALLS; call++) {
                RdmaDatagramSocket socket = sockets.get(random.nextInt(sockets.size()));
                String method = DATAGRAM_METHODS[random.nextInt(DATAGRAM_METHODS.length)];
                run.misuse(name + "call " + call + " " + method + " on " + (socket == server ? "server" : "client")
                        + (socket.isClosed() ? " (closed)" : ""), () -> callDatagram(socket, method));
            }
            run.misuse(name + "answerResolution closed by another thread",
                    () -> closedWhileWaiting(server, () -> server.answerResolution(LONG_WAIT)));
            for (String method : DATAGRAM_METHODS) {
                run.misuse(name + method + " after close", () -> callDatagram(server, method));
            }
        } finally {
            for (AutoCloseable socket : made) {
                socket.close();
            }
        }
    }

    /** The helper thread's result, or the exception it ended with (a hang past 20 s is unexpected). */
    private static <T> T result(CompletableFuture<T> future) throws Throwable {
        try {
            return future.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause();
        }
    }

    private static void callRequest(ConnectionRequest request, String method, ConnectionOptions options,
                                    List<RdmaConnection> made) {
        Consumer<RdmaConnection> setUp = RdmaConnection::queuePair;
        switch (method) {
            case "accept" -> made.add(request.accept());
            case "accept(options)" -> made.add(request.accept(options));
            case "accept(options, setUp)" -> made.add(request.accept(options, setUp));
            case "reject" -> request.reject(new byte[] {7});
            case "accept twice" -> {
                made.add(request.accept());
                made.add(request.accept());
            }
            case "privateData" -> request.privateData();
            case "remoteAddress" -> request.remoteAddress();
            case "event" -> request.event();
            case "identifier" -> request.identifier();
            default -> throw new AssertionError(method);
        }
    }

    private static void callConnection(RdmaConnection connection, String method) {
        switch (method) {
            case "disconnect" -> connection.disconnect(Duration.ofSeconds(2));
            case "awaitDisconnect" -> connection.awaitDisconnect(SHORT);
            case "acceptPrivateData" -> connection.acceptPrivateData();
            case "remoteAddress" -> connection.remoteAddress();
            case "localAddress" -> connection.localAddress();
            case "context" -> connection.context();
            case "queuePair" -> connection.queuePair();
            case "completionQueue" -> connection.completionQueue();
            case "isClosed" -> connection.isClosed();
            case "close" -> connection.close();
            default -> throw new AssertionError(method);
        }
    }

    private static void callListener(RdmaListener listener, String method, List<RdmaConnection> made) {
        switch (method) {
            case "awaitRequest" -> listener.awaitRequest(SHORT).ifPresent(r -> r.reject(new byte[0]));
            case "accept" -> made.add(listener.accept(SHORT));
            case "accept(setUp)" -> made.add(listener.accept(SHORT, RdmaConnection::queuePair));
            case "localAddress" -> listener.localAddress();
            case "identifier" -> listener.identifier();
            case "isClosed" -> listener.isClosed();
            case "close" -> listener.close();
            default -> throw new AssertionError(method);
        }
    }

    private static void callDatagram(RdmaDatagramSocket socket, String method) {
        switch (method) {
            case "answerResolution" -> socket.answerResolution(SHORT);
            case "qkey" -> socket.qkey();
            case "portNumber" -> socket.portNumber();
            case "peer" -> socket.peer();
            case "queuePair" -> socket.queuePair();
            case "localAddress" -> socket.localAddress();
            case "isClosed" -> socket.isClosed();
            case "close" -> socket.close();
            default -> throw new AssertionError(method);
        }
    }

    /**
     * Runs {@code wait} on this thread while a helper thread closes {@code closeable} a moment
     * later; the wait must end (returning or refused) well before its own timeout.
     */
    private static void closedWhileWaiting(AutoCloseable closeable, FuzzRun.Body wait) throws Throwable {
        AtomicReference<Throwable> closeFailed = new AtomicReference<>();
        Thread closer = Thread.ofPlatform().name("fuzz closer").start(() -> {
            try {
                Thread.sleep(100);
                closeable.close();
            } catch (Throwable t) {
                closeFailed.set(t);
            }
        });
        long start = System.nanoTime();
        try {
            wait.run();
        } finally {
            long took = System.nanoTime() - start;
            closer.join();
            if (took > PROMPT_NANOS) {
                throw new AssertionError("a waiter took " + took / 1_000_000 + " ms to end after another thread closed");
            }
            if (closeFailed.get() != null) {
                throw new AssertionError("close() from another thread threw while a thread waited", closeFailed.get());
            }
        }
    }
}
