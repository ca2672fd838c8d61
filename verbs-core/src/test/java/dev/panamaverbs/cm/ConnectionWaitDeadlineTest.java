package dev.panamaverbs.cm;

import dev.panamaverbs.internal.TestFifo;
import dev.panamaverbs.internal.WaitRule;
import dev.panamaverbs.values.Errno;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Constructor;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The deadline rule on every rdma_cm wait, without a device: an event channel whose fd is a named
 * pipe nobody writes to, and an identifier on it, so the waits only poll and no librdmacm call is
 * reached. The waits that call librdmacm first (connect, accept, disconnect, the resolutions)
 * are checked for what they refuse before that call; zero and huge for them rest on the shared
 * {@code Deadline} and {@code ConnectionEventChannel} wait tested here. Never closed: their
 * destroy would call librdmacm.
 */
class ConnectionWaitDeadlineTest {
    private static final Predicate<Object> EMPTY = Optional.empty()::equals;
    /** The rdma_cm waits answer an interrupt with EINTR (they declare no InterruptedException). */
    private static final Predicate<Throwable> EINTR = t -> t instanceof ConnectionException e && e.errno() == Errno.EINTR;

    private final Arena arena = Arena.ofShared();
    private TestFifo fifo;
    private ConnectionEventChannel channel;
    private ConnectionId id;

    @BeforeEach
    void fakeChannel() throws Exception {
        fifo = TestFifo.create();
        Constructor<ConnectionEventChannel> makeChannel =
                ConnectionEventChannel.class.getDeclaredConstructor(MemorySegment.class, int.class);
        makeChannel.setAccessible(true);
        channel = makeChannel.newInstance(arena.allocate(64), fifo.fd());
        id = identifierIn(IdentifierState.CREATED);
    }

    /** A stand-in identifier on the pipe's channel, in {@code state} (the waits check librdmacm's order first). */
    private ConnectionId identifierIn(IdentifierState state) throws Exception {
        Constructor<ConnectionId> makeId = ConnectionId.class.getDeclaredConstructor(ConnectionEventChannel.class,
                MemorySegment.class, PortSpace.class, IdentifierState.class);
        makeId.setAccessible(true);
        ConnectionId made = makeId.newInstance(channel, arena.allocate(4096), PortSpace.TCP, state);
        channel.attach(made);
        return made;
    }

    @AfterEach
    void closeFifo() throws Exception {
        fifo.close();
    }

    @Test
    void channelAwaitEvent() throws Exception {
        WaitRule.assertFollowsTheRule("rdma_get_cm_event", channel::awaitEvent, EMPTY, EINTR);
    }

    @Test
    void identifierAwaitEvent() throws Exception {
        WaitRule.assertFollowsTheRule("rdma_get_cm_event", id::awaitEvent, EMPTY, EINTR);
    }

    @Test
    void identifierAwaitRequest() throws Exception {
        WaitRule.assertFollowsTheRule("rdma_get_request", identifierIn(IdentifierState.LISTENING)::awaitRequest, EMPTY, EINTR);
    }

    @Test
    void identifierAwaitDisconnect() throws Exception {
        WaitRule.assertFollowsTheRule("rdma_get_cm_event", identifierIn(IdentifierState.CONNECTED)::awaitDisconnect,
                Boolean.FALSE::equals, EINTR);
    }

    @Test
    void waitsThatCallLibrdmacmFirstRefuseNullAndNegativeBeforeIt() {
        InetSocketAddress somewhere = new InetSocketAddress(InetAddress.getLoopbackAddress(), 7471);
        WaitRule.assertRefusesNullAndNegative("rdma_resolve_addr", timeout -> {
            id.resolveAddress(somewhere, timeout);
            return null;
        });
        WaitRule.assertRefusesNullAndNegative("rdma_resolve_route", timeout -> {
            id.resolveRoute(timeout);
            return null;
        });
        WaitRule.assertRefusesNullAndNegative("rdma_connect", timeout -> id.connect(ConnectionOptions.defaults(), timeout));
        WaitRule.assertRefusesNullAndNegative("rdma_accept", timeout -> {
            id.accept(ConnectionOptions.defaults(), timeout);
            return null;
        });
        WaitRule.assertRefusesNullAndNegative("rdma_disconnect", id::disconnect);
    }

    @Test
    void librdmacmGetsTheTimeLeftLessAMarginAndNeverZero() {
        assertBetween(1, 1, IdentifierCalls.resolutionMillis(dev.panamaverbs.internal.Deadline.after(0)));
        assertBetween(1, 1, IdentifierCalls.resolutionMillis(dev.panamaverbs.internal.Deadline.after(-1)));
        // 800 ms left: librdmacm gets about 700 (an eighth less), so its verdict comes before ours
        assertBetween(650, 700, IdentifierCalls.resolutionMillis(dev.panamaverbs.internal.Deadline.after(800_000_000L)));
        // 10 s left: at most 250 ms less
        assertBetween(9_700, 9_750, IdentifierCalls.resolutionMillis(dev.panamaverbs.internal.Deadline.after(10_000_000_000L)));
        assertBetween(Integer.MAX_VALUE, Integer.MAX_VALUE,
                IdentifierCalls.resolutionMillis(dev.panamaverbs.internal.Deadline.after(Long.MAX_VALUE)));
    }

    private static void assertBetween(long low, long high, long actual) {
        org.junit.jupiter.api.Assertions.assertTrue(actual >= low && actual <= high, actual + " not in [" + low + ", " + high + "]");
    }
}
