package dev.panamaverbs.it.fuzz;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.cm.ConnectionEventChannel;
import dev.panamaverbs.cm.ConnectionId;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionRequest;
import dev.panamaverbs.cm.IdentifierState;
import dev.panamaverbs.cm.PortSpace;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.cm.RdmaListener;
import dev.panamaverbs.it.support.DeviceScope;
import dev.panamaverbs.it.support.RdmaCmSupport;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.QueuePairType;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * rdma_cm in the wrong order (issue 21): each round drives one {@link ConnectionId} through
 * seeded random calls of every public method, half of them the next step of librdmacm's order
 * (so the identifier reaches bound, listening, resolved, connected and disconnected states), half
 * any method at all, against a listener whose thread accepts or rejects each request at random.
 * Every call must return or be refused with a documented exception; a crash kills the child.
 */
final class CmOrderFuzz {
    private static final int ROUNDS = 8;
    private static final int CALLS = 14;
    private static final Duration SHORT = Duration.ofMillis(10);
    private static final Duration RESOLVE = Duration.ofSeconds(2);
    private static final Duration CONNECT = Duration.ofSeconds(8);
    private static final String[] METHODS = {"bind", "listen", "resolveAddress", "resolveRoute", "createQueuePair",
        "connect", "accept", "reject", "disconnect", "awaitDisconnect", "awaitRequest", "awaitEvent", "context",
        "localAddress", "remoteAddress", "queuePair", "state"};

    private CmOrderFuzz() {}

    static void run(TestDevice device, FuzzRun run) throws Exception {
        RdmaCmSupport.requireRdmaCm();
        InetAddress ip = RdmaCmSupport.deviceAddress(device);
        Random random = run.random();
        ConnectionOptions options = ConnectionOptions.builder().connectTimeout(CONNECT).build();
        try (Context foreign = DeviceScope.openContext(device);
             RdmaListener listener = RdmaListener.listen(new InetSocketAddress(ip, 0), options)) {
            ProtectionDomain foreignPd = foreign.allocateProtectionDomain();
            CompletionQueue foreignCq = foreign.createCompletionQueue(4);
            Queue<RdmaConnection> accepted = new ConcurrentLinkedQueue<>();
            AtomicBoolean stop = new AtomicBoolean();
            long serverSeed = random.nextLong();
            Thread server = Thread.ofPlatform().name("cm order fuzz server").start(() ->
                    serve(listener, new Random(serverSeed), accepted, stop));
            try {
                for (int round = 0; round < ROUNDS; round++) {
                    try (ConnectionEventChannel channel = ConnectionEventChannel.create()) {
                        ConnectionId id = channel.createIdentifier(PortSpace.TCP);
                        Subject subject = new Subject(id, ip, listener.localAddress(), foreignPd, foreignCq, options);
                        for (int call = 0; call < CALLS; call++) {
                            String method = random.nextBoolean() ? subject.nextInOrder(random) : METHODS[random.nextInt(METHODS.length)];
                            IdentifierState before = id.state();
                            run.misuse("round " + round + " call " + call + " " + method + " in " + before,
                                    () -> subject.call(method));
                        }
                        run.misuse("round " + round + " close in " + id.state(), id::close);
                    }
                }
            } finally {
                stop.set(true);
                server.join(30_000);
                accepted.forEach(RdmaConnection::close);
            }
        }
    }

    /** Opens the device through librdmacm once (a listener's identifier), as the child's first rdma_cm use. */
    static void openRdmaCmOnce(TestDevice device) {
        RdmaCmSupport.requireRdmaCm();
        InetAddress ip = RdmaCmSupport.deviceAddress(device);
        try (RdmaListener warmUp = RdmaListener.listen(new InetSocketAddress(ip, 0), ConnectionOptions.defaults())) {
            warmUp.identifier().context();
        }
    }

    /** Takes each request and accepts it (keeping the connection until the end) or rejects it, at random. */
    private static void serve(RdmaListener listener, Random random, Queue<RdmaConnection> accepted, AtomicBoolean stop) {
        while (!stop.get()) {
            try {
                ConnectionRequest request = listener.awaitRequest(Duration.ofMillis(100)).orElse(null);
                if (request == null) {
                    continue;
                }
                if (random.nextInt(4) == 0) {
                    request.reject(new byte[] {7});
                } else {
                    accepted.add(request.accept());
                }
            } catch (RuntimeException ended) {
                // The client closed or failed mid-way: the server's side of it is closed already.
            }
        }
    }

    /** One identifier and the arguments its calls take. */
    private record Subject(ConnectionId id, InetAddress ip, InetSocketAddress server, ProtectionDomain foreignPd,
                           CompletionQueue foreignCq, ConnectionOptions options) {
        /** The step librdmacm's order takes next from the identifier's state (a random one where two fit). */
        String nextInOrder(Random random) {
            return switch (id.state()) {
                case CREATED -> random.nextBoolean() ? "bind" : "resolveAddress";
                case BOUND -> random.nextBoolean() ? "listen" : "resolveAddress";
                case ADDRESS_RESOLVED -> "resolveRoute";
                case ROUTE_RESOLVED -> id.queuePair().isEmpty() ? "createQueuePair" : "connect";
                case LISTENING -> "awaitRequest";
                case CONNECTED -> random.nextBoolean() ? "disconnect" : "awaitDisconnect";
                default -> "awaitEvent";
            };
        }

        void call(String method) {
            switch (method) {
                case "bind" -> id.bind(new InetSocketAddress(ip, 0));
                case "listen" -> id.listen(2);
                case "resolveAddress" -> id.resolveAddress(server, RESOLVE);
                case "resolveRoute" -> id.resolveRoute(RESOLVE);
                case "createQueuePair" -> {
                    // Its own context's PD and CQ when it has a device, else the foreign ones (refused either way).
                    boolean own = id.state() != IdentifierState.CREATED && id.state() != IdentifierState.CLOSED
                            && hasDevice();
                    Context context = own ? id.context() : null;
                    ProtectionDomain pd = own ? context.allocateProtectionDomain() : foreignPd;
                    CompletionQueue cq = own ? context.createCompletionQueue(8) : foreignCq;
                    id.createQueuePair(pd, QueuePairOptions.builder(QueuePairType.RC, cq).build());
                }
                case "connect" -> id.connect(options, CONNECT);
                case "accept" -> id.accept(options, SHORT);
                case "reject" -> id.reject(new byte[0]);
                case "disconnect" -> id.disconnect(Duration.ofSeconds(2));
                case "awaitDisconnect" -> id.awaitDisconnect(SHORT);
                case "awaitRequest" -> id.awaitRequest(SHORT).ifPresent(request -> request.reject(new byte[0]));
                case "awaitEvent" -> id.awaitEvent(SHORT);
                case "context" -> id.context();
                case "localAddress" -> id.localAddress();
                case "remoteAddress" -> id.remoteAddress();
                case "queuePair" -> id.queuePair();
                case "state" -> id.state();
                default -> throw new AssertionError(method);
            }
        }

        private boolean hasDevice() {
            try {
                id.context();
                return true;
            } catch (IllegalStateException none) {
                return false;
            }
        }
    }
}
