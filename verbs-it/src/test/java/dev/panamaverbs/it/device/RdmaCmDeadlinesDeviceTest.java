package dev.panamaverbs.it.device;

import static dev.panamaverbs.it.device.DeadlineRuleDeviceTest.HUGE;
import static dev.panamaverbs.it.device.DeadlineRuleDeviceTest.outcome;
import static dev.panamaverbs.it.support.RdmaCmSupport.anyPort;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.VerbsException;
import dev.panamaverbs.cm.ConnectionException;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionRequest;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.cm.RdmaListener;
import dev.panamaverbs.it.support.RdmaCmSupport;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.Errno;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The deadline rule (docs/safety.md, "Deadlines") on rdma_cm's connection waits, the ones
 * {@link DeadlineRuleDeviceTest} leaves out because they need a peer: {@code connect},
 * {@code accept} and {@code disconnect}. A huge timeout is a wait without end that still ends
 * when the event comes; zero looks once and ends in ETIMEDOUT (or in success when the event is
 * already there), and whatever a zero leaves half done (a peer whose partner gave up) ends on
 * its own side in a result or a documented exception, and its waits end, never a hang. Bounds are loose: the VM is
 * slow.
 */
class RdmaCmDeadlinesDeviceTest {
    private static final Duration WAIT = RdmaCmSupport.WAIT;
    private static final long BOUND_SECONDS = 60;

    @DeviceTest
    void hugeTimeoutsConnectAcceptAndDisconnect(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        ConnectionOptions huge = ConnectionOptions.builder().resolveTimeout(HUGE).connectTimeout(HUGE).build();
        try (RdmaListener listener = RdmaListener.listen(anyPort(ip), huge)) {
            CompletableFuture<RdmaConnection> accepted = CompletableFuture.supplyAsync(() -> listener.accept(HUGE));
            try (RdmaConnection client = RdmaConnection.connect(listener.localAddress(), huge);
                 RdmaConnection server = accepted.get(BOUND_SECONDS, TimeUnit.SECONDS)) {
                CompletableFuture<Boolean> serverSees = CompletableFuture.supplyAsync(() -> server.awaitDisconnect(HUGE));
                assertTrue(client.disconnect(HUGE), "a huge disconnect ends when DISCONNECTED comes");
                assertTrue(serverSees.get(BOUND_SECONDS, TimeUnit.SECONDS), "a huge awaitDisconnect ends when it comes");
            }
        }
    }

    @DeviceTest
    void zeroAcceptWithoutARequestTimesOutAtOnce(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        try (RdmaListener listener = RdmaListener.listen(anyPort(ip), ConnectionOptions.defaults())) {
            long started = System.nanoTime();
            Object zero = outcome(timeout -> listener.accept(timeout), Duration.ZERO);
            assertTimedOut("accept with zero and no request", zero);
            assertTrue(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) < BOUND_SECONDS);
            assertFalse(listener.isClosed(), "a timed-out accept leaves the listener listening");
            assertTrue(listener.awaitRequest(Duration.ZERO).isEmpty());
        }
    }

    @DeviceTest
    void zeroConnectTimeoutLooksOnceAndTheServerStillEnds(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        ConnectionOptions zero = ConnectionOptions.builder().connectTimeout(Duration.ZERO).build();
        try (RdmaListener listener = RdmaListener.listen(anyPort(ip), ConnectionOptions.defaults())) {
            CompletableFuture<Object> server = CompletableFuture.supplyAsync(() -> outcome(timeout -> listener.accept(timeout), WAIT));
            Object client = outcome(timeout -> RdmaConnection.connect(listener.localAddress(), zero), null);
            assertConnectedOrTimedOut("connect with a zero connect timeout", client);
            closeIfConnected(client);
            Object served = server.get(BOUND_SECONDS, TimeUnit.SECONDS);
            assertConnectedOrFailed("the server of a client that gave up", served);
            closeIfConnected(served);
        }
    }

    @DeviceTest
    void zeroAcceptTimeoutLooksOnceAndTheClientStillEnds(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        ConnectionOptions zero = ConnectionOptions.builder().connectTimeout(Duration.ZERO).build();
        ConnectionOptions patient = ConnectionOptions.builder().connectTimeout(WAIT).build();
        try (RdmaListener listener = RdmaListener.listen(anyPort(ip), ConnectionOptions.defaults())) {
            CompletableFuture<Object> client = CompletableFuture.supplyAsync(() ->
                    outcome(timeout -> RdmaConnection.connect(listener.localAddress(), patient), null));
            ConnectionRequest request = listener.awaitRequest(WAIT).orElseThrow();
            Object accepted = outcome(timeout -> request.accept(zero), null);
            assertConnectedOrTimedOut("accept with a zero connect timeout", accepted);
            closeIfConnected(accepted);
            Object connected = client.get(BOUND_SECONDS, TimeUnit.SECONDS);
            assertConnectedOrFailed("the client of a server that gave up", connected);
            closeIfConnected(connected);
        }
    }

    private static void assertTimedOut(String what, Object outcome) {
        assertTrue(outcome instanceof ConnectionException e && e.errno() == Errno.ETIMEDOUT, what + ": " + outcome);
    }

    private static void assertConnectedOrTimedOut(String what, Object outcome) {
        if (!(outcome instanceof RdmaConnection)) {
            assertTimedOut(what, outcome);
        }
        System.out.println(what + ": " + outcome);
    }

    /**
     * A connection, or the documented exception of a peer that went away: a {@link ConnectionException}
     * (rejected, failed, timed out), or a {@link VerbsException} naming the verb that found the
     * request gone (rxe: {@code rdma_create_qp} with EINVAL once the client destroyed its identifier).
     */
    private static void assertConnectedOrFailed(String what, Object outcome) {
        assertTrue(outcome instanceof RdmaConnection || outcome instanceof VerbsException e && e.getMessage().startsWith("rdma_"),
                what + ": " + outcome);
        System.out.println(what + ": " + outcome);
        if (outcome instanceof RdmaConnection connection) {
            // The peer closed its side; whether its CM told this one in time depends on when: the wait must end either way.
            Object disconnect = outcome(timeout -> connection.awaitDisconnect(timeout), WAIT);
            assertTrue(disconnect instanceof Boolean, what + ": awaitDisconnect: " + disconnect);
        }
    }

    private static void closeIfConnected(Object outcome) {
        if (outcome instanceof RdmaConnection connection) {
            connection.close();
        }
    }
}
