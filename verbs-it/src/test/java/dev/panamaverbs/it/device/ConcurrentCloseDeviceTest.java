package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.KernelResources;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.SharedReceiveQueue;
import dev.panamaverbs.values.SharedReceiveQueueOptions;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.VerbsResource;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Map;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The concurrent-close rule on a real device: while other threads post and poll as fast as they
 * can, closing the context (which closes the QPs, CQs, MRs and PD under them) must leave every
 * one of those threads with an {@link IllegalStateException} naming a closed resource, and the
 * JVM alive: no call ever reaches a freed native object.
 */
public class ConcurrentCloseDeviceTest {

    @DeviceTest
    void closingTheContextWhilePostingAndPollingOnlyEverThrowsIllegalState(TestDevice device) throws Exception {
        RcLoopbackPair pair = RcLoopbackPair.open(device);
        ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
        AtomicLong operations = new AtomicLong();
        CountDownLatch running = new CountDownLatch(2);
        List<Thread> threads = new ArrayList<>();
        threads.add(Thread.ofPlatform().start(() -> postAndPollUntilClosed(pair, running, operations, unexpected)));
        threads.add(Thread.ofPlatform().start(() -> pollUntilClosed(pair, running, operations, unexpected)));
        assertTrue(running.await(60, TimeUnit.SECONDS));
        long before = operations.get();
        while (operations.get() < before + 50) {
            Thread.onSpinWait(); // let them really overlap with the close
        }
        // The context, not the pair: its close takes QPs down before the regions they write from.
        pair.context().close();
        for (Thread thread : threads) {
            thread.join(60_000);
            assertTrue(!thread.isAlive(), "a worker did not stop after close");
        }
        assertEquals(List.of(), List.copyOf(unexpected));
        assertTrue(pair.context().isClosed() && pair.first().isClosed() && pair.firstQueue().isClosed());
        pair.close();
    }

    /**
     * Several threads close the same tree at once, each from a different node (context, PD, CQs,
     * SRQ, QPs, regions): every close returns only once its object is freed, no destroy verb
     * fails (EBUSY for a parent freed before its child, EBADF for a child of a freed context),
     * and the kernel's object counts are back where they started.
     */
    @DeviceTest
    void threadsClosingOneTreeAtOnceFreeEveryKernelObject(TestDevice device) throws Exception {
        assumeTrue(KernelResources.toolAvailable(), "iproute2's rdma tool is not installed");
        Map<String, Integer> before = KernelResources.count(device.name());
        for (int round = 0; round < 12; round++) {
            Context context = Verbs.device(device.name()).orElseThrow().open();
            ProtectionDomain pd = context.allocateProtectionDomain();
            List<VerbsResource> nodes = new ArrayList<>(List.of(context, pd));
            for (int q = 0; q < 3; q++) {
                CompletionQueue cq = context.createCompletionQueue(16);
                SharedReceiveQueue srq = pd.createSharedReceiveQueue(SharedReceiveQueueOptions.of(8, 1));
                QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq).sharedReceiveQueue(srq)
                        .maxSendWorkRequests(8).maxSendSge(1).build());
                MemoryRegion mr = pd.allocateMemoryRegion(4096, EnumSet.of(AccessFlag.LOCAL_WRITE));
                nodes.addAll(List.of(cq, srq, qp, mr));
            }
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> closers = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                // Each thread closes a few nodes in its own order, the context among them for some.
                List<VerbsResource> order = new ArrayList<>(nodes);
                java.util.Collections.rotate(order, t * 3 + round);
                closers.add(Thread.ofPlatform().start(() -> {
                    awaitQuietly(start);
                    for (VerbsResource node : order.subList(0, 5)) {
                        try {
                            node.close();
                            if (!node.isClosed()) {
                                failures.add(new AssertionError(node + " open after its close returned"));
                            }
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    }
                }));
            }
            start.countDown();
            for (Thread closer : closers) {
                closer.join(60_000);
                assertFalse(closer.isAlive(), "a close never returned");
            }
            context.close();
            assertEquals(List.of(), List.copyOf(failures), "round " + round);
            for (VerbsResource node : nodes) {
                assertTrue(node.isClosed(), node + " open after its context closed");
            }
            assertEquals(before, KernelResources.count(device.name()), "round " + round + ": kernel objects left");
        }
    }

    /**
     * A request whose INLINE flag another thread flips while it is posted (a race in user code):
     * the post releases exactly the region it acquired, so closing the region afterwards returns
     * instead of waiting for ever on a use count left raised.
     */
    @DeviceTest
    void aRequestChangedWhileItIsPostedLeavesNoUseCountRaised(TestDevice device) throws Exception {
        RcLoopbackPair pair = RcLoopbackPair.open(device, QueuePairType.RC, RcLoopbackPair.DEFAULT_BUFFER_SIZE, 64);
        {
            SendWorkRequest write = SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                    .inline(true).sge(pair.firstBuffer().region(), 0, 32)
                    .rdma(pair.secondBuffer().deviceAddress(0), pair.secondBuffer().region().rkey());
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            Thread flipper = Thread.ofPlatform().start(() -> {
                for (boolean inline = false; !stop.get(); inline = !inline) {
                    write.inline(inline);
                }
            });
            Completions completions = Completions.allocate(16);
            long posted = 0;
            try {
                for (int i = 0; i < 5_000; i++) {
                    pair.first().postSend(write.wrId(i));
                    posted++;
                    while (pair.firstQueue().poll(completions) == 0) {
                        Thread.onSpinWait();
                    }
                    assertTrue(completions.isSuccess(0), completions.status(0).toString());
                }
            } finally {
                stop.set(true);
                flipper.join(10_000);
            }
            assertEquals(5_000, posted);
            Thread closer = Thread.ofPlatform().start(() -> pair.firstBuffer().region().close());
            closer.join(20_000);
            // Not closing the pair when it failed: its close would wait on the stuck region too.
            assertFalse(closer.isAlive(), "closing the region waits for a use count the post left raised");
        }
        pair.close();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public static void postAndPollUntilClosed(RcLoopbackPair pair, CountDownLatch running, AtomicLong operations,
                                               ConcurrentLinkedQueue<Throwable> unexpected) {
        try (Arena arena = Arena.ofConfined()) {
            SendWorkRequest write = SendWorkRequest.allocate(arena, 1)
                    .opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                    .sge(0, pair.firstBuffer().region(), 0, 64)
                    .rdma(pair.secondBuffer().deviceAddress(0), pair.secondBuffer().region().rkey());
            Completions completions = Completions.allocate(arena, 16);
            running.countDown();
            for (long wrId = 0; ; wrId++) {
                pair.first().postSend(write.wrId(wrId));
                while (pair.firstQueue().poll(completions) == 0) {
                    Thread.onSpinWait();
                }
                operations.incrementAndGet();
            }
        } catch (IllegalStateException closed) {
            expectClosed(closed, unexpected);
        } catch (Throwable other) {
            unexpected.add(other);
        }
    }

    public static void pollUntilClosed(RcLoopbackPair pair, CountDownLatch running, AtomicLong operations,
                                        ConcurrentLinkedQueue<Throwable> unexpected) {
        try (Arena arena = Arena.ofConfined()) {
            Completions completions = Completions.allocate(arena, 16);
            running.countDown();
            while (true) {
                pair.secondQueue().poll(completions);
                operations.incrementAndGet();
            }
        } catch (IllegalStateException closed) {
            expectClosed(closed, unexpected);
        } catch (Throwable other) {
            unexpected.add(other);
        }
    }

    public static void expectClosed(IllegalStateException e, ConcurrentLinkedQueue<Throwable> unexpected) {
        if (e.getMessage() == null || !e.getMessage().endsWith(" is closed")) {
            unexpected.add(e);
        }
    }
}
