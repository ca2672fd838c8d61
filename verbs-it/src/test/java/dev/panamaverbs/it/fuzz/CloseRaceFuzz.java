package dev.panamaverbs.it.fuzz;

import dev.panamaverbs.it.device.ConcurrentCloseDeviceTest;
import dev.panamaverbs.VerbsResource;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Close racing with post, poll and query from other threads: each round opens an RC loopback
 * pair, starts a thread posting and polling, one polling the other queue and one querying (QP
 * state, port, CQ capacity), lets them run a seeded number of operations, closes one node of
 * the tree (the context, the PD, either QP, either CQ, either region: each once, in a seeded
 * order; the second region while WRITEs into it are in flight), then the context. Every thread must
 * end with {@link ConcurrentCloseDeviceTest}'s "is closed" {@link IllegalStateException} and
 * nothing else, and end at all.
 */
final class CloseRaceFuzz {
    private static final int ROUNDS = 8;

    private CloseRaceFuzz() {}

    static void run(TestDevice device, FuzzRun run) {
        Random random = run.random();
        // Each node is the victim once, in a seeded order.
        List<Integer> victims = new ArrayList<>(List.of(0, 1, 2, 3, 4, 5, 6, 7));
        java.util.Collections.shuffle(victims, random);
        for (int round = 0; round < ROUNDS; round++) {
            RcLoopbackPair pair = RcLoopbackPair.open(device);
            List<VerbsResource> nodes = List.of(pair.context(), pair.protectionDomain(), pair.first(), pair.second(),
                    pair.firstQueue(), pair.secondQueue(), pair.firstBuffer().region(), pair.secondBuffer().region());
            VerbsResource victim = nodes.get(victims.get(round));
            int spin = random.nextInt(200);
            run.run("round " + round + " close " + victim.getClass().getSimpleName() + " after " + spin + " operations",
                    List.of(), () -> race(pair, device, victim, spin));
            pair.close();
        }
    }

    private static void race(RcLoopbackPair pair, TestDevice device, VerbsResource victim, int spin) throws Exception {
        ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
        AtomicLong operations = new AtomicLong();
        CountDownLatch running = new CountDownLatch(3);
        List<Thread> threads = new ArrayList<>();
        threads.add(Thread.ofPlatform().start(() ->
                ConcurrentCloseDeviceTest.postAndPollUntilClosed(pair, running, operations, unexpected)));
        threads.add(Thread.ofPlatform().start(() ->
                ConcurrentCloseDeviceTest.pollUntilClosed(pair, running, operations, unexpected)));
        threads.add(Thread.ofPlatform().start(() -> queryUntilClosed(pair, device, running, operations, unexpected)));
        if (!running.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError("the workers did not start");
        }
        long before = operations.get();
        while (operations.get() < before + spin && threads.stream().allMatch(Thread::isAlive)) {
            Thread.onSpinWait();
        }
        victim.close();
        Thread.sleep(spin % 5);
        pair.context().close();
        FuzzWorkers.awaitEnd(threads, unexpected, "stop after the context closed", "workers ended other than with 'is closed'");
    }

    private static void queryUntilClosed(RcLoopbackPair pair, TestDevice device, CountDownLatch running,
                                         AtomicLong operations, ConcurrentLinkedQueue<Throwable> unexpected) {
        running.countDown();
        try {
            while (true) {
                pair.first().queryState();
                pair.context().queryPort(device.port());
                pair.firstQueue().capacity();
                operations.incrementAndGet();
            }
        } catch (IllegalStateException closed) {
            ConcurrentCloseDeviceTest.expectClosed(closed, unexpected);
        } catch (Throwable other) {
            unexpected.add(other);
        }
    }
}
