package dev.panamaverbs.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.cm.EndpointExchangeException.Reason;
import dev.panamaverbs.cm.HostilePeer.Behaviour;
import dev.panamaverbs.internal.WaitRule;
import dev.panamaverbs.values.Mtu;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every network-facing wait of the endpoint exchange against hostile local peers: a silent one and
 * one trickling its message a byte every 100 ms (6.4 s for the whole) must not hold a call past
 * its deadline; a reset is {@link Reason#PEER_CLOSED}; and the deadline rule (null, negative,
 * zero, huge) holds for each public method.
 */
class EndpointExchangeDeadlineTest {
    private static final Duration DEADLINE = Duration.ofMillis(500);
    private static final Duration HUGE = Duration.ofSeconds(Long.MAX_VALUE);
    private static final EndpointInfo PEER = new EndpointInfo(0x10, 0x20, 0, null, Mtu.MTU_1024, 0, Optional.empty());
    private static final EndpointInfo MINE = new EndpointInfo(0x30, 0x40, 0, null, Mtu.MTU_1024, 0, Optional.empty());

    /** A call of the exchange against a peer at an address. */
    private interface Call {
        EndpointInfo run(InetSocketAddress peer, Duration timeout) throws IOException;
    }

    private static EndpointInfo connect(InetSocketAddress peer, Duration timeout) throws IOException {
        return EndpointExchange.connect(peer, MINE, timeout);
    }

    private static EndpointInfo overSocket(InetSocketAddress peer, Duration timeout) throws IOException {
        try (Socket socket = new Socket(peer.getAddress(), peer.getPort())) {
            return EndpointExchange.exchange(socket, MINE, timeout);
        }
    }

    private static EndpointInfo overChannel(InetSocketAddress peer, Duration timeout) throws IOException {
        try (SocketChannel channel = SocketChannel.open(peer)) {
            return EndpointExchange.exchange(channel, MINE, timeout);
        }
    }

    private static final Call[] CALLS = {EndpointExchangeDeadlineTest::connect, EndpointExchangeDeadlineTest::overSocket,
            EndpointExchangeDeadlineTest::overChannel};
    private static final String[] NAMES = {"connect", "exchange(Socket)", "exchange(SocketChannel)"};

    /** Runs {@code call} and expects {@code reason} within the generous bound; returns the milliseconds taken. */
    private static long expect(Reason reason, String what, Executable call) {
        long started = System.nanoTime();
        EndpointExchangeException e = assertThrows(EndpointExchangeException.class, call::run, what);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertSame(reason, e.reason(), () -> what + ": " + e);
        assertTrue(millis < WaitRule.BOUND_MILLIS, what + " took " + millis + " ms");
        return millis;
    }

    private interface Executable {
        void run() throws Exception;
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Behaviour.class, names = {"SILENT", "TRICKLE"})
    void aSlowPeerCannotHoldACallPastItsDeadline(Behaviour behaviour) throws Exception {
        try (HostilePeer peer = HostilePeer.listening(behaviour, PEER)) {
            for (int i = 0; i < CALLS.length; i++) {
                Call call = CALLS[i];
                long millis = expect(Reason.TIMEOUT, NAMES[i] + " to a " + behaviour + " peer",
                        () -> call.run(peer.address(), DEADLINE));
                assertTrue(millis >= DEADLINE.toMillis() - 1, NAMES[i] + " gave up early: " + millis + " ms");
            }
        }
    }

    @Test
    void aResetPeerIsPeerClosed() throws Exception {
        try (HostilePeer peer = HostilePeer.listening(Behaviour.RESET, PEER)) {
            for (int i = 0; i < CALLS.length; i++) {
                Call call = CALLS[i];
                expect(Reason.PEER_CLOSED, NAMES[i] + " to a resetting peer", () -> call.run(peer.address(), Duration.ofSeconds(10)));
            }
        }
    }

    @Test
    @SuppressWarnings("try") // the dialing peers act by themselves: the try only closes them
    void theListenersTimeoutCoversAcceptAndExchangeTogether() throws Exception {
        Duration timeout = Duration.ofSeconds(2);
        try (EndpointExchange.Listener listener = EndpointExchange.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            for (Behaviour behaviour : new Behaviour[] {Behaviour.SILENT, Behaviour.TRICKLE}) {
                // The peer connects just before the deadline: with the timeout applied to the accept
                // and then again to the exchange, the call would last about 3.8 s.
                try (HostilePeer peer = HostilePeer.dialing(behaviour, PEER, listener.localAddress(), 1_800)) {
                    long started = System.nanoTime();
                    EndpointExchangeException e = assertThrows(EndpointExchangeException.class, () -> listener.accept(MINE, timeout));
                    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                    assertSame(Reason.TIMEOUT, e.reason(), e::toString);
                    assertTrue(millis >= 2_000 && millis < 3_500, behaviour + ": accept took " + millis + " ms");
                }
            }
            try (HostilePeer peer = HostilePeer.dialing(Behaviour.RESET, PEER, listener.localAddress(), 0)) {
                assertSame(Reason.PEER_CLOSED, assertThrows(EndpointExchangeException.class,
                        () -> listener.accept(MINE, Duration.ofSeconds(10))).reason());
            }
        }
    }

    // ---- the deadline rule, for each public method ----

    @Test
    void nullAndNegativeAreRefusedNamingTheCall() throws Exception {
        InetSocketAddress nobody = new InetSocketAddress(InetAddress.getLoopbackAddress(), 9);
        WaitRule.assertRefusesNullAndNegative("EndpointExchange.connect", timeout -> EndpointExchange.connect(nobody, MINE, timeout));
        WaitRule.assertRefusesNullAndNegative("EndpointExchange.connectSocket", timeout -> EndpointExchange.connectSocket(nobody, timeout));
        try (HostilePeer peer = HostilePeer.listening(Behaviour.SILENT, PEER);
             Socket socket = new Socket(peer.address().getAddress(), peer.address().getPort());
             SocketChannel channel = SocketChannel.open(peer.address());
             EndpointExchange.Listener listener = EndpointExchange.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            WaitRule.assertRefusesNullAndNegative("EndpointExchange.exchange", timeout -> EndpointExchange.exchange(socket, MINE, timeout));
            WaitRule.assertRefusesNullAndNegative("EndpointExchange.exchange", timeout -> EndpointExchange.exchange(channel, MINE, timeout));
            WaitRule.assertRefusesNullAndNegative("EndpointExchange.Listener.accept", timeout -> listener.accept(MINE, timeout));
            WaitRule.assertRefusesNullAndNegative("EndpointExchange.Listener.acceptSocket", listener::acceptSocket);
        }
    }

    @Test
    void zeroChecksOnce() throws Exception {
        try (HostilePeer silent = HostilePeer.listening(Behaviour.SILENT, PEER)) {
            for (int i = 0; i < CALLS.length; i++) {
                Call call = CALLS[i];
                expect(Reason.TIMEOUT, NAMES[i] + " with zero", () -> call.run(silent.address(), Duration.ZERO));
            }
        }
        // A message already there is answered at once.
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
             Socket accepted = server.accept()) {
            accepted.getOutputStream().write(EndpointExchange.encode(PEER));
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (client.getInputStream().available() < EndpointExchange.MESSAGE_SIZE && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertEquals(PEER, EndpointExchange.exchange(client, MINE, Duration.ZERO));
        }
        InetSocketAddress nobody = freeLoopbackPort();
        expect(Reason.TIMEOUT, "connectSocket with zero", () -> EndpointExchange.connectSocket(nobody, Duration.ZERO).close());
        try (EndpointExchange.Listener listener = EndpointExchange.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            expect(Reason.TIMEOUT, "accept with zero", () -> listener.accept(MINE, Duration.ZERO));
            expect(Reason.TIMEOUT, "acceptSocket with zero", () -> listener.acceptSocket(Duration.ZERO).close());
        }
    }

    @Test
    @SuppressWarnings("try") // the dialing peers act by themselves: the try only closes them
    void hugeWaitsWithoutOverflow() throws Exception {
        try (HostilePeer answering = HostilePeer.listening(Behaviour.ANSWER, PEER)) {
            for (int i = 0; i < CALLS.length; i++) {
                assertEquals(PEER, CALLS[i].run(answering.address(), HUGE), NAMES[i]);
                assertEquals(PEER, CALLS[i].run(answering.address(), Duration.ofSeconds(Long.MAX_VALUE, 999_999_999)), NAMES[i]);
            }
            EndpointExchange.connectSocket(answering.address(), HUGE).close();
        }
        try (EndpointExchange.Listener listener = EndpointExchange.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            try (HostilePeer dialer = HostilePeer.dialing(Behaviour.ANSWER, PEER, listener.localAddress(), 300)) {
                assertEquals(PEER, listener.accept(MINE, HUGE));
            }
            try (HostilePeer dialer = HostilePeer.dialing(Behaviour.SILENT, PEER, listener.localAddress(), 300)) {
                listener.acceptSocket(HUGE).close();
            }
        }
    }

    private static InetSocketAddress freeLoopbackPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), probe.getLocalPort());
        }
    }
}
