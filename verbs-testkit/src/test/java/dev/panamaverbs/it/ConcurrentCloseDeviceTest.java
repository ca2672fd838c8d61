package dev.panamaverbs.it;

import dev.panamaverbs.Completions;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.WorkRequestOpcode;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The concurrent-close rule on a real device: while other threads post and poll as fast as they
 * can, closing the context (which closes the QPs, CQs, MRs and PD under them) must leave every
 * one of those threads with an {@link IllegalStateException} naming a closed resource, and the
 * JVM alive: no call ever reaches a freed native object.
 */
class ConcurrentCloseDeviceTest {

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

    private static void postAndPollUntilClosed(RcLoopbackPair pair, CountDownLatch running, AtomicLong operations,
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

    private static void pollUntilClosed(RcLoopbackPair pair, CountDownLatch running, AtomicLong operations,
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

    private static void expectClosed(IllegalStateException e, ConcurrentLinkedQueue<Throwable> unexpected) {
        if (e.getMessage() == null || !e.getMessage().endsWith(" is closed")) {
            unexpected.add(e);
        }
    }
}
