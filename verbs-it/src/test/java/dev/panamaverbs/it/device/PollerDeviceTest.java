package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.CompletionChannel;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.cm.ConnectionException;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.cm.RdmaListener;
import dev.panamaverbs.events.Poller;
import dev.panamaverbs.events.PollerClosedException;
import dev.panamaverbs.it.support.DeviceScope;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.RemoteEndpoint;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The shared poller with real completion events (issue 23): many CQs on one completion channel
 * and several channels on the one poller, each CQ waited for by its own virtual thread through
 * {@link CompletionQueue#awaitCompletions}; every completion arrives, in order, and no wait
 * times out (a lost wake-up would leave a thread parked until its deadline). Closing a CQ, a
 * channel or the shared poller while virtual threads wait ends each wait with an exception. The
 * same traffic also runs with the poller opted out (the old fd polling). No timing is asserted:
 * the deadlines only turn a hang into a failure.
 */
class PollerDeviceTest {
    private static final int CHANNELS = 3;
    private static final int QUEUES_PER_CHANNEL = 4;
    private static final int MESSAGES = 16;
    /** Generous: the device VM is slow; a wait that reaches it lost its wake-up. */
    private static final Duration DEADLINE = Duration.ofMinutes(2);

    @DeviceTest
    void everyCompletionOfManyQueuesOnSharedChannelsWakesItsVirtualThread(TestDevice device) throws Exception {
        Poller.shared().orElseThrow(); // on unless the property opts out (it is not set here)
        exchange(device, CHANNELS, QUEUES_PER_CHANNEL, true);
    }

    @DeviceTest
    void theOptedOutFdPollingStillDeliversEveryCompletion(TestDevice device) throws Exception {
        String before = System.getProperty(Poller.ENABLED_PROPERTY);
        System.setProperty(Poller.ENABLED_PROPERTY, "false");
        try {
            exchange(device, 2, 2, false);
        } finally {
            if (before == null) {
                System.clearProperty(Poller.ENABLED_PROPERTY);
            } else {
                System.setProperty(Poller.ENABLED_PROPERTY, before);
            }
        }
    }

    /**
     * {@code channels} channels with {@code queuesPerChannel} CQs each; per CQ a loopback RC queue
     * pair whose signaled RDMA writes complete there, and a virtual thread that waits for them.
     */
    private static void exchange(TestDevice device, int channels, int queuesPerChannel, boolean pollerOn)
            throws Exception {
        try (Context context = DeviceScope.openContext(device); Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = context.allocateProtectionDomain();
            MemoryRegion mr = pd.register(arena.allocate(64 * 1024, 4096),
                    EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
            List<CompletionQueue> queues = new ArrayList<>();
            List<QueuePair> pairs = new ArrayList<>();
            for (int c = 0; c < channels; c++) {
                CompletionChannel channel = context.createCompletionChannel();
                for (int q = 0; q < queuesPerChannel; q++) {
                    CompletionQueue cq = context.createCompletionQueue(2 * MESSAGES, channel, 0);
                    queues.add(cq);
                    pairs.add(loopback(context, device, pd, cq));
                }
            }
            List<AtomicReference<Object>> outcomes = new ArrayList<>();
            List<Thread> waiters = new ArrayList<>();
            for (int i = 0; i < queues.size(); i++) {
                CompletionQueue cq = queues.get(i);
                AtomicReference<Object> outcome = new AtomicReference<>();
                outcomes.add(outcome);
                waiters.add(OutcomeThreads.start(true, "cq-waiter-" + i, outcome, () -> receiveAll(cq)));
            }
            if (pollerOn) {
                assertTrue(awaitRegistrations(channels), "the channels' fds are registered on the shared poller");
            }
            writeRounds(pairs, mr, arena);
            for (int i = 0; i < waiters.size(); i++) {
                assertTrue(waiters.get(i).join(DEADLINE.multipliedBy(2)), "waiter " + i + " finished");
                assertEquals(MESSAGES, outcomes.get(i).get(), "waiter " + i + " got every completion in order");
            }
        }
    }

    /**
     * {@link #MESSAGES} rounds of one signaled RDMA WRITE per queue pair (wr_id the round), with a pause
     * every fourth round, so that waiters park between rounds.
     */
    private static void writeRounds(List<QueuePair> pairs, MemoryRegion mr, Arena arena) throws InterruptedException {
        SendWorkRequest wr = SendWorkRequest.allocate(arena, 1);
        for (int m = 0; m < MESSAGES; m++) {
            for (int i = 0; i < pairs.size(); i++) {
                pairs.get(i).postSend(wr.wrId(m).opcode(WorkRequestOpcode.RDMA_WRITE)
                        .sge(mr, 64L * i, 64).rdma(mr.memoryAddress() + 32 * 1024 + 64L * i, mr.rkey()).signaled(true));
            }
            Thread.sleep(m % 4 == 0 ? 20 : 0);
        }
    }

    /** Waits for {@link #MESSAGES} completions, checking each; the count, or what went wrong. */
    private static Object receiveAll(CompletionQueue cq) throws InterruptedException {
        Completions batch = Completions.allocate(8);
        int received = 0;
        while (received < MESSAGES) {
            int polled = cq.awaitCompletions(batch, DEADLINE);
            if (polled == 0) {
                return "timed out after " + received + " completions: a wake-up was lost";
            }
            for (int k = 0; k < polled; k++) {
                batch.throwIfFailed(k);
                if (batch.wrId(k) != received) {
                    return "completion " + received + " had wr_id " + batch.wrId(k);
                }
                received++;
            }
        }
        return received;
    }

    private static boolean awaitRegistrations(int atLeast) throws InterruptedException {
        long end = System.nanoTime() + DEADLINE.toNanos();
        while (System.nanoTime() < end) {
            if (Poller.shared().orElseThrow().sourceCount() >= atLeast) {
                return true;
            }
            Thread.sleep(5);
        }
        return false;
    }

    @DeviceTest
    void anEventHandlerOnThePollerThreadSeesEveryCompletion(TestDevice device) throws Exception {
        int queueCount = 4;
        try (Context context = DeviceScope.openContext(device); Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = context.allocateProtectionDomain();
            MemoryRegion mr = pd.register(arena.allocate(64 * 1024, 4096),
                    EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
            CompletionChannel channel = context.createCompletionChannel();
            List<CompletionQueue> queues = new ArrayList<>();
            List<QueuePair> pairs = new ArrayList<>();
            for (int q = 0; q < queueCount; q++) {
                CompletionQueue cq = context.createCompletionQueue(2 * MESSAGES, channel, 0);
                cq.requestNotification(false);
                queues.add(cq);
                pairs.add(loopback(context, device, pd, cq));
            }
            java.util.Map<CompletionQueue, Integer> received = new java.util.concurrent.ConcurrentHashMap<>();
            java.util.concurrent.CountDownLatch all = new java.util.concurrent.CountDownLatch(queueCount * MESSAGES);
            AtomicReference<String> failure = new AtomicReference<>();
            Completions batch = Completions.allocate(8); // only the poller thread uses it
            channel.setEventHandler(cq -> {
                int polled;
                while ((polled = cq.poll(batch)) > 0) {
                    for (int k = 0; k < polled; k++) {
                        int expected = received.getOrDefault(cq, 0);
                        if (batch.statusValue(k) != 0 || batch.wrId(k) != expected) {
                            failure.compareAndSet(null, cq + ": completion " + expected + " had wr_id "
                                    + batch.wrId(k) + ", status " + batch.status(k));
                        }
                        received.put(cq, expected + 1);
                        all.countDown();
                    }
                }
            });
            writeRounds(pairs, mr, arena);
            assertTrue(all.await(DEADLINE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS),
                    "the handler saw every completion: " + received.values() + " of " + MESSAGES + " each");
            assertEquals(null, failure.get());
            channel.setEventHandler(null);
        }
    }

    @DeviceTest
    void connectAsyncAndAcceptAsyncCompleteTheirFutures(TestDevice device) throws Exception {
        java.net.InetAddress ip = dev.panamaverbs.it.support.RdmaCmSupport.requireRdmaCm(device);
        try (RdmaListener listener = RdmaListener.listen(dev.panamaverbs.it.support.RdmaCmSupport.anyPort(ip),
                ConnectionOptions.defaults())) {
            ExecutionException timedOut = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> listener.acceptAsync(Duration.ZERO).get(DEADLINE.toSeconds(), TimeUnit.SECONDS));
            assertInstanceOf(ConnectionException.class, timedOut.getCause(), "no request: " + timedOut.getCause());

            CompletableFuture<RdmaConnection> accepted = listener.acceptAsync(DEADLINE);
            CompletableFuture<RdmaConnection> connected = RdmaConnection.connectAsync(listener.localAddress(),
                    ConnectionOptions.defaults());
            try (RdmaConnection client = connected.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
                 RdmaConnection server = accepted.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
                CompletableFuture<Boolean> serverSees = CompletableFuture.supplyAsync(() -> server.awaitDisconnect(DEADLINE));
                assertTrue(client.disconnect(DEADLINE), "established: the disconnect completes");
                assertTrue(serverSees.get(DEADLINE.toSeconds(), TimeUnit.SECONDS), "the server saw it");
            }
        }
    }

    @DeviceTest
    void closingACqAChannelOrThePollerEndsTheVirtualThreadsWaits(TestDevice device) throws Exception {
        try (Context context = DeviceScope.openContext(device)) {
            CompletionChannel shared = context.createCompletionChannel();
            CompletionQueue first = context.createCompletionQueue(4, shared, 0);
            CompletionQueue second = context.createCompletionQueue(4, shared, 0);
            CompletionChannel other = context.createCompletionChannel();
            context.createCompletionQueue(4, other, 0).requestNotification(false);

            AtomicReference<Object> firstOutcome = new AtomicReference<>();
            AtomicReference<Object> secondOutcome = new AtomicReference<>();
            AtomicReference<Object> otherOutcome = new AtomicReference<>();
            Thread firstWaiter = OutcomeThreads.start(true, "waiter-first", firstOutcome, () -> first.awaitCompletions(Completions.allocate(4), Duration.ofMinutes(10)));
            Thread secondWaiter = OutcomeThreads.start(true, "waiter-second", secondOutcome, () -> second.awaitCompletions(Completions.allocate(4), Duration.ofMinutes(10)));
            Thread otherWaiter = OutcomeThreads.start(true, "waiter-other", otherOutcome, () -> other.awaitEvent(Duration.ofMinutes(10)));
            awaitParked(firstWaiter);
            awaitParked(secondWaiter);
            awaitParked(otherWaiter);

            first.close();
            assertTrue(firstWaiter.join(DEADLINE), "closing the CQ ended its waiter");
            assertInstanceOf(IllegalStateException.class, firstOutcome.get(), String.valueOf(firstOutcome.get()));
            assertTrue(secondWaiter.isAlive(), "the other CQ's waiter waits on");

            shared.close();
            assertTrue(secondWaiter.join(DEADLINE), "closing the channel ended the waiter of its last CQ");
            assertInstanceOf(IllegalStateException.class, secondOutcome.get(), String.valueOf(secondOutcome.get()));

            Poller.shared().orElseThrow().close();
            assertTrue(otherWaiter.join(DEADLINE), "closing the shared poller ended the waiter");
            PollerClosedException closed = assertInstanceOf(PollerClosedException.class, otherOutcome.get(),
                    String.valueOf(otherOutcome.get()));
            assertTrue(closed.getMessage().contains("Poller["), closed.getMessage());
            // The next wait starts a new shared poller.
            assertEquals(java.util.Optional.empty(), other.awaitEvent(Duration.ofMillis(50)));
        }
    }

    /** Until {@code thread} is parked (its wait begun), or the deadline. */
    private static void awaitParked(Thread thread) throws InterruptedException {
        long end = System.nanoTime() + DEADLINE.toNanos();
        while (thread.getState() != Thread.State.TIMED_WAITING && thread.getState() != Thread.State.WAITING) {
            assertTrue(thread.isAlive() && System.nanoTime() < end, thread + " never parked");
            Thread.sleep(5);
        }
        Thread.sleep(50); // parked at least once; a close after this point is "while waiting"
    }

    /**
     * An RC queue pair connected to itself whose send completions go to {@code cq}; connected by
     * hand, so a device without {@link DeviceCapability#CONNECT_WITHOUT_CM} skips the test.
     */
    static QueuePair loopback(Context context, TestDevice device, ProtectionDomain pd, CompletionQueue cq) {
        QueuePair qp = created(context, pd, cq);
        connect(context, device, qp, qp);
        return qp;
    }

    /**
     * An RC queue pair on {@code cq} connected to a second one on {@code peerCq}, and that one
     * back to it: the first, then the second.
     */
    static List<QueuePair> connectedPair(Context context, TestDevice device, ProtectionDomain pd, CompletionQueue cq,
                                         CompletionQueue peerCq) {
        QueuePair first = created(context, pd, cq);
        QueuePair second = created(context, pd, peerCq);
        connect(context, device, first, second);
        connect(context, device, second, first);
        return List.of(first, second);
    }

    private static QueuePair created(Context context, ProtectionDomain pd, CompletionQueue cq) {
        DeviceCapability.CONNECT_WITHOUT_CM.require(context);
        return pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq).maxSendWorkRequests(2 * MESSAGES).build());
    }

    /** RESET -> INIT -> RTR (pointed at {@code remote}) -> RTS of {@code local}, PSN 0 both ways. */
    private static void connect(Context context, TestDevice device, QueuePair local, QueuePair remote) {
        GidEntry gid = DeviceScope.sourceGid(context, device);
        local.toInit(device.port(), EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
        local.toRtr(RemoteEndpoint.global(remote.number(), 0, gid.gid(), gid.index(), context.queryPort(device.port()).activeMtu()));
        local.toRts(0);
    }
}
