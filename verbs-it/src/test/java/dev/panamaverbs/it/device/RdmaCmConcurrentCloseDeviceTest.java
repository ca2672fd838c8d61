package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.KernelResources;
import dev.panamaverbs.it.support.RdmaCmSupport;
import static dev.panamaverbs.it.support.RdmaCmSupport.anyPort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.cm.RdmaDatagramSocket;
import dev.panamaverbs.cm.RdmaListener;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Close from another thread while threads wait on the object (a platform and a virtual thread
 * each): every waiter ends promptly with an {@link IllegalStateException} saying the object was
 * closed, close itself never throws, 100 rounds per class, and every kernel object (cm_id, qp,
 * cq, pd, mr) is gone afterwards.
 */
class RdmaCmConcurrentCloseDeviceTest {
    private static final int ROUNDS = Integer.getInteger("panamaverbs.cm.closeRounds", 100);
    /** Waits that would outlive the test many times over unless the close ends them. */
    private static final Duration LONG = Duration.ofMinutes(10);
    /** How long a waiter may take to end after the close returned: generous for the slow VM. */
    private static final long PROMPT_SECONDS = 30;

    @DeviceTest
    void closingAListenerEndsItsWaiters(TestDevice device) throws Exception {
        closeRoundsUnderWaiters(device, "listener", ip -> RdmaListener.listen(anyPort(ip), ConnectionOptions.defaults()),
                listener -> listener.awaitRequest(LONG));
    }

    @DeviceTest
    void closingADatagramSocketEndsItsWaiters(TestDevice device) throws Exception {
        closeRoundsUnderWaiters(device, "datagram socket",
                ip -> RdmaDatagramSocket.bind(anyPort(ip), ConnectionOptions.defaults()), socket -> socket.answerResolution(LONG));
    }

    /** {@link #ROUNDS} times: opens an object, closes it under its waiters ({@link #closeUnderWaiters}); then counts leaks. */
    private static <T extends AutoCloseable> void closeRoundsUnderWaiters(TestDevice device, String what,
            Function<InetAddress, T> open, Consumer<T> await) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        Map<String, Integer> before = warmUpAndCount(device, ip);
        for (int round = 0; round < ROUNDS; round++) {
            T object = open.apply(ip);
            closeUnderWaiters(what + " round " + round, () -> closeQuietly(object), started -> {
                started.countDown();
                await.accept(object);
            });
        }
        assertNoLeak(device, before);
    }

    private static void closeQuietly(AutoCloseable object) {
        try {
            object.close();
        } catch (Exception e) {
            throw new AssertionError("close threw", e);
        }
    }

    @DeviceTest
    void closingAConnectionEndsItsWaiters(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        Map<String, Integer> before = warmUpAndCount(device, ip);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            RdmaListener listener = RdmaListener.listen(anyPort(ip), ConnectionOptions.defaults());
            try {
                for (int round = 0; round < ROUNDS; round++) {
                    Future<RdmaConnection> accepted = threads.submit(() -> listener.accept(RdmaCmSupport.WAIT));
                    RdmaConnection client = RdmaConnection.connect(listener.localAddress(), ConnectionOptions.defaults());
                    RdmaConnection server = accepted.get(60, TimeUnit.SECONDS);
                    // Alternate which side is closed under its waiters; the other side sees the disconnect.
                    RdmaConnection closed = round % 2 == 0 ? client : server;
                    RdmaConnection other = closed == client ? server : client;
                    closeUnderWaiters("connection round " + round, closed::close, started -> {
                        started.countDown();
                        closed.awaitDisconnect(LONG);
                    });
                    try (other) {
                        assertTrue(other.awaitDisconnect(RdmaCmSupport.WAIT), "round " + round + ": the peer sees the close");
                    }
                }
            } finally {
                listener.close();
            }
        }
        assertNoLeak(device, before);
    }

    /**
     * Starts a platform and a virtual thread in {@code waiter}, closes once both have begun, and
     * checks: close returns without throwing, each waiter ends with an IllegalStateException
     * within {@link #PROMPT_SECONDS}.
     */
    private static void closeUnderWaiters(String what, Runnable close, Consumer<CountDownLatch> waiter) throws Exception {
        CountDownLatch started = new CountDownLatch(2);
        List<Future<?>> waiters = new ArrayList<>();
        ExecutorService platform = Executors.newSingleThreadExecutor();
        ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor();
        try {
            for (ExecutorService pool : List.of(platform, virtual)) {
                waiters.add(pool.submit(() -> {
                    waiter.accept(started);
                    return null;
                }));
            }
            assertTrue(started.await(60, TimeUnit.SECONDS), what + ": the waiters started");
            Thread.sleep(5); // let them reach the wait (a close before it is refused the same way)
            close.run();
            for (Future<?> future : waiters) {
                try {
                    future.get(PROMPT_SECONDS, TimeUnit.SECONDS);
                    fail(what + ": a waiter returned normally after close");
                } catch (ExecutionException e) {
                    assertTrue(e.getCause() instanceof IllegalStateException, what + ": " + e.getCause());
                    assertTrue(e.getCause().getMessage().toLowerCase(java.util.Locale.ROOT).contains("closed"),
                            what + ": " + e.getCause().getMessage());
                } catch (TimeoutException e) {
                    fail(what + ": a waiter still waits " + PROMPT_SECONDS + " s after close (hang)");
                }
            }
            close.run(); // idempotent
        } finally {
            platform.shutdownNow(); // a hung waiter fails the test above, and does not hang it here
            virtual.shutdownNow();
        }
    }

    /** librdmacm opens the device once per process: make that happen before counting. */
    private static Map<String, Integer> warmUpAndCount(TestDevice device, InetAddress ip) {
        try (RdmaListener warmUp = RdmaListener.listen(anyPort(ip), ConnectionOptions.defaults())) {
            warmUp.identifier().context();
        }
        return KernelResources.countIfAvailable(device.name());
    }

    private static void assertNoLeak(TestDevice device, Map<String, Integer> before) throws InterruptedException {
        if (before.isEmpty()) {
            System.out.println("iproute2's rdma tool is missing: kernel objects not counted");
            return;
        }
        Map<String, Integer> after = KernelResources.count(device.name());
        for (int i = 0; i < 50 && !after.equals(before); i++) {
            Thread.sleep(100);
            after = KernelResources.count(device.name());
        }
        assertEquals(before, after, "every cm_id, qp, cq, pd and mr freed");
    }
}
