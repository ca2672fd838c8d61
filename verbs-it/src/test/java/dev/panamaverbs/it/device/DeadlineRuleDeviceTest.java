package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.CompletionChannel;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.cm.ConnectionEventChannel;
import dev.panamaverbs.cm.ConnectionException;
import dev.panamaverbs.cm.ConnectionId;
import dev.panamaverbs.cm.PortSpace;
import dev.panamaverbs.it.support.DeviceScope;
import dev.panamaverbs.it.support.RdmaCmSupport;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.Errno;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The deadline rule (docs/safety.md, "Deadlines") on the waits that need a device before they
 * wait: {@code CompletionQueue.awaitCompletions}, and rdma_cm's resolution and event wait. Null and negative are refused naming the call, zero checks once, 500 ms
 * ends at its deadline, and a huge timeout waits (until interrupted, or until it succeeds). The
 * bounds are loose: the VM is slow.
 */
class DeadlineRuleDeviceTest {
    static final Duration HUGE = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
    private static final long BOUND_MILLIS = 20_000;

    interface Wait {
        Object call(Duration timeout) throws Exception;
    }

    static void assertRefusesNullAndNegative(String call, Wait wait) {
        NullPointerException isNull = assertThrows(NullPointerException.class, () -> wait.call(null), call);
        assertEquals(call + ": timeout is null", isNull.getMessage());
        for (Duration negative : new Duration[] {Duration.ofNanos(-1), Duration.ofSeconds(Long.MIN_VALUE)}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> wait.call(negative), call);
            assertTrue(e.getMessage().startsWith(call + ": timeout must not be negative"), e.getMessage());
        }
    }

    /** The whole rule for a wait nothing will end: zero and 500 ms time out, huge waits until interrupted. */
    static void assertFollowsTheRule(String call, Wait wait, Predicate<Object> timedOut) throws Exception {
        assertRefusesNullAndNegative(call, wait);
        assertTrue(timedOut.test(outcome(wait, Duration.ZERO)), call + " with zero");
        long started = System.nanoTime();
        assertTrue(timedOut.test(outcome(wait, Duration.ofMillis(500))), call + " with 500 ms");
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertTrue(millis >= 500 && millis < BOUND_MILLIS, call + ": 500 ms ended after " + millis + " ms");

        CompletableFuture<Object> ended = new CompletableFuture<>();
        Thread waiter = Thread.ofPlatform().start(() -> ended.complete(outcome(wait, HUGE)));
        Thread.sleep(1_000);
        assertFalse(ended.isDone(), () -> call + " with a huge timeout ended at once: " + ended.join());
        waiter.interrupt();
        Object end = ended.get(BOUND_MILLIS, TimeUnit.MILLISECONDS);
        assertTrue(end instanceof InterruptedException, call + ": the interrupt ended it with " + end);
        waiter.join(BOUND_MILLIS);
    }

    /** What the wait returned, or what it threw. */
    static Object outcome(Wait wait, Duration timeout) {
        try {
            return wait.call(timeout);
        } catch (Throwable t) {
            return t;
        }
    }

    @DeviceTest
    void awaitCompletions(TestDevice device) throws Exception {
        try (Context context = DeviceScope.openContext(device);
             CompletionChannel channel = context.createCompletionChannel()) {
            CompletionQueue cq = context.createCompletionQueue(16, channel, 0);
            Completions batch = Completions.allocate(4);
            assertFollowsTheRule("ibv_get_cq_event", timeout -> cq.awaitCompletions(batch, timeout), Integer.valueOf(0)::equals);
        }
    }

    @DeviceTest
    void rdmaCmResolution(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        try (ConnectionEventChannel channel = ConnectionEventChannel.create()) {
            ConnectionId id = channel.createIdentifier(PortSpace.TCP);
            InetSocketAddress self = new InetSocketAddress(ip, 7471);
            assertRefusesNullAndNegative("rdma_resolve_addr", timeout -> {
                id.resolveAddress(self, timeout);
                return null;
            });
            assertRefusesNullAndNegative("rdma_resolve_route", timeout -> {
                id.resolveRoute(timeout);
                return null;
            });
            id.resolveAddress(self, HUGE);
            id.resolveRoute(HUGE);
            assertTrue(id.context() != null);
            // Zero: librdmacm is given 1 ms and the event is checked for once: resolved, or ETIMEDOUT.
            ConnectionId quick = channel.createIdentifier(PortSpace.TCP);
            Object zero = outcome(timeout -> {
                quick.resolveAddress(self, timeout);
                return "resolved";
            }, Duration.ZERO);
            assertTrue("resolved".equals(zero) || zero instanceof ConnectionException e && e.errno() == Errno.ETIMEDOUT,
                    "resolveAddress with zero: " + zero);
            assertFollowsTheRuleOnEvents(id);
        }
    }

    /** ConnectionId.awaitEvent's huge wait ends on an interrupt with EINTR (the rdma_cm waits declare no InterruptedException). */
    private static void assertFollowsTheRuleOnEvents(ConnectionId id) throws Exception {
        assertTrue(id.awaitEvent(Duration.ZERO).isEmpty());
        CompletableFuture<Object> ended = new CompletableFuture<>();
        Thread waiter = Thread.ofPlatform().start(() -> ended.complete(outcome(id::awaitEvent, HUGE)));
        Thread.sleep(1_000);
        assertFalse(ended.isDone(), () -> "awaitEvent with a huge timeout ended at once: " + ended.join());
        waiter.interrupt();
        Object end = ended.get(BOUND_MILLIS, TimeUnit.MILLISECONDS);
        assertTrue(end instanceof ConnectionException e && e.errno() == Errno.EINTR, "the interrupt ended it with " + end);
        waiter.join(BOUND_MILLIS);
    }
}
