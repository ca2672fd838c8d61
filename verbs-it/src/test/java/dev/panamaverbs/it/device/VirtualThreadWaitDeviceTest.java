package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.CompletionChannel;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.values.RemoteEndpoint;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Waiting on a completion channel or the async event queue from virtual threads does not pin
 * their carriers (issue 4). More virtual threads wait than the default scheduler has carriers
 * ({@code availableProcessors}); if each wait held its carrier in a blocking {@code poll(2)} or
 * {@code ibv_get_cq_event}, no carrier would be left and another virtual thread could not run.
 * The proof is that one does run to completion while every waiter is still waiting. No timing is
 * asserted: the deadlines only turn a hang into a failure.
 */
class VirtualThreadWaitDeviceTest {
    /** More waiters than carriers (the default scheduler's parallelism is availableProcessors). */
    private static final int WAITERS = 2 * Runtime.getRuntime().availableProcessors() + 2;
    /** Generous deadline for a step to finish: a pinned scheduler never finishes it. */
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    /** One waiter's wait on its target: a channel's awaitEvent or a context's pollAsyncEvent. */
    private interface Wait<T> {
        Object on(T target) throws Exception;
    }

    /**
     * Starts a virtual thread named {@code name + i} waiting on each target, its outcome (what the
     * wait returned or threw) in {@code outcomes}; returns the threads once every one has started.
     */
    private static <T> List<Thread> startWaiters(String name, List<T> targets, Wait<T> wait,
                                                 List<AtomicReference<Object>> outcomes) throws InterruptedException {
        List<Thread> waiters = new ArrayList<>();
        CountDownLatch started = new CountDownLatch(targets.size());
        for (int i = 0; i < targets.size(); i++) {
            T target = targets.get(i);
            AtomicReference<Object> outcome = new AtomicReference<>();
            outcomes.add(outcome);
            waiters.add(Thread.ofVirtual().name(name + i).start(() -> {
                started.countDown();
                try {
                    outcome.set(wait.on(target));
                } catch (Throwable t) {
                    outcome.set(t);
                }
            }));
        }
        assertTrue(started.await(DEADLINE.toSeconds(), TimeUnit.SECONDS), "every waiter started");
        return waiters;
    }

    @DeviceTest
    void completionChannelWaitersLeaveCarriersFree(TestDevice device) throws Exception {
        try (Context context = ContextDeviceTest.open(device); Arena arena = Arena.ofConfined()) {
            List<CompletionChannel> channels = new ArrayList<>();
            List<CompletionQueue> queues = new ArrayList<>();
            for (int i = 0; i < WAITERS; i++) {
                CompletionChannel channel = context.createCompletionChannel();
                CompletionQueue cq = context.createCompletionQueue(16, channel, 0);
                cq.requestNotification(false);
                channels.add(channel);
                queues.add(cq);
            }
            List<AtomicReference<Object>> outcomes = new ArrayList<>();
            List<Thread> waiters = startWaiters("channel-waiter-", channels, channel -> channel.awaitEvent(Duration.ofMinutes(5)), outcomes);

            assertAnotherVirtualThreadProgresses(waiters, outcomes);

            // Wake waiter 0 with a real completion event: an RC loopback write on its CQ.
            CompletionQueue first = queues.getFirst();
            QueuePair qp = loopback(context, device, first);
            MemoryRegion mr = qp.protectionDomain().register(arena.allocate(4096, 4096),
                    EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
            qp.postSend(SendWorkRequest.allocate(arena, 1).wrId(1).opcode(WorkRequestOpcode.RDMA_WRITE)
                    .sge(mr, 0, 64).rdma(mr.memoryAddress() + 2048, mr.rkey()).signaled(true));
            assertTrue(waiters.getFirst().join(DEADLINE), "the completion event woke waiter 0");
            assertEquals(Optional.of(first), outcomes.getFirst().get(), "waiter 0 got its CQ's event");
            Completions wc = Completions.allocate(arena, 4);
            assertEquals(1, first.poll(wc));
            wc.throwIfFailed(0);
            for (int i = 1; i < WAITERS; i++) {
                assertTrue(waiters.get(i).isAlive(), "waiter " + i + " is still waiting (no event for its CQ)");
            }

            // Interrupt half of the rest, close the channels of the others: both end the wait.
            for (int i = 1; i < WAITERS; i++) {
                if (i % 2 == 1) {
                    waiters.get(i).interrupt();
                } else {
                    channels.get(i).close();
                }
            }
            for (int i = 1; i < WAITERS; i++) {
                assertTrue(waiters.get(i).join(DEADLINE), "waiter " + i + " ended");
                Object outcome = outcomes.get(i).get();
                Class<?> expected = i % 2 == 1 ? InterruptedException.class : IllegalStateException.class;
                assertTrue(expected.isInstance(outcome), "waiter " + i + ": " + outcome);
            }
        }
    }

    @DeviceTest
    void asyncEventWaitersLeaveCarriersFree(TestDevice device) throws Exception {
        List<Context> contexts = new ArrayList<>();
        try {
            for (int i = 0; i < WAITERS; i++) {
                contexts.add(ContextDeviceTest.open(device));
            }
            List<AtomicReference<Object>> outcomes = new ArrayList<>();
            List<Thread> waiters = startWaiters("async-event-waiter-", contexts, context -> context.pollAsyncEvent(Duration.ofMinutes(5)), outcomes);

            assertAnotherVirtualThreadProgresses(waiters, outcomes);

            for (Thread waiter : waiters) {
                waiter.interrupt();
            }
            for (int i = 0; i < WAITERS; i++) {
                assertTrue(waiters.get(i).join(DEADLINE), "waiter " + i + " ended on interrupt");
                assertTrue(outcomes.get(i).get() instanceof InterruptedException, "waiter " + i + ": " + outcomes.get(i).get());
            }
        } finally {
            for (Context context : contexts) {
                context.close();
            }
        }
    }

    /**
     * A further virtual thread counts to a million, yielding every thousand steps, and must finish
     * while all waiters are still inside their waits (alive, no outcome).
     */
    private static void assertAnotherVirtualThreadProgresses(List<Thread> waiters, List<AtomicReference<Object>> outcomes)
            throws InterruptedException {
        AtomicLong counter = new AtomicLong();
        Thread worker = Thread.ofVirtual().name("progress").start(() -> {
            for (int i = 0; i < 1_000_000; i++) {
                if (counter.incrementAndGet() % 1000 == 0) {
                    Thread.yield();
                }
            }
        });
        assertTrue(worker.join(DEADLINE), "a virtual thread made no progress while " + waiters.size()
                + " virtual threads waited (more than the " + Runtime.getRuntime().availableProcessors()
                + " carriers): the waits pin their carriers; counted to " + counter.get());
        assertEquals(1_000_000, counter.get());
        for (int i = 0; i < waiters.size(); i++) {
            assertTrue(waiters.get(i).isAlive(), "waiter " + i + " still waiting");
            assertSame(null, outcomes.get(i).get(), "waiter " + i + " has no outcome yet");
        }
        assertFalse(waiters.isEmpty());
    }

    /** An RC queue pair connected to itself whose send completions go to {@code cq}. */
    private static QueuePair loopback(Context context, TestDevice device, CompletionQueue cq) {
        DeviceCapability.CONNECT_WITHOUT_CM.require(context);
        ProtectionDomain pd = context.allocateProtectionDomain();
        QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq).build());
        GidEntry gid = context.roceV2Ipv4Gid(device.port()).orElseThrow();
        qp.toInit(device.port(), EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
        qp.toRtr(RemoteEndpoint.global(qp.number(), 0, gid.gid(), gid.index(), context.queryPort(device.port()).activeMtu()));
        qp.toRts(0);
        return qp;
    }
}
