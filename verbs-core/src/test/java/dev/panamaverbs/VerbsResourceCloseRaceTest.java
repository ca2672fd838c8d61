package dev.panamaverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Close racing close ({@link VerbsResource#close()}): a second close waits for the first, and a
 * parent is freed only after a child another thread is closing has been freed.
 */
class VerbsResourceCloseRaceTest {

    /**
     * A context and a CQ under it whose destroy blocks until {@link #finish} opens, with a thread
     * already inside that destroy ({@link #childCloser}).
     */
    private record SlowTree(List<String> destroyed, CountDownLatch finish, FakeResource context, FakeResource cq,
                            Thread childCloser) {
        static SlowTree closingTheChild() throws InterruptedException {
            List<String> destroyed = new ArrayList<>();
            CountDownLatch inDestroy = new CountDownLatch(1);
            CountDownLatch finish = new CountDownLatch(1);
            FakeResource context = FakeResource.open("ctx", destroyed);
            FakeResource cq = FakeResource.open("cq", destroyed, context);
            cq.duringDestroy = () -> {
                inDestroy.countDown();
                await(finish);
            };
            Thread childCloser = Thread.ofPlatform().start(cq::close);
            assertTrue(inDestroy.await(10, TimeUnit.SECONDS));
            return new SlowTree(destroyed, finish, context, cq, childCloser);
        }
    }

    @Test
    void aSecondCloseWaitsUntilTheFirstHasFreedTheObject() throws Exception {
        SlowTree tree = SlowTree.closingTheChild();
        AtomicBoolean secondReturned = new AtomicBoolean();
        Thread second = Thread.ofPlatform().start(() -> {
            tree.cq().close();
            secondReturned.set(true);
        });
        second.join(300);
        assertFalse(secondReturned.get(), "the second close returned while the first was still destroying");
        tree.finish().countDown();
        second.join(10_000);
        tree.childCloser().join(10_000);
        assertTrue(secondReturned.get());
        assertEquals(List.of("cq"), tree.destroyed());
        assertEquals(1, tree.cq().destroyCount.get());
        tree.context().close();
    }

    @Test
    void aParentIsFreedOnlyAfterTheChildAnotherThreadIsClosing() throws Exception {
        SlowTree tree = SlowTree.closingTheChild();
        Thread parentCloser = Thread.ofPlatform().start(tree.context()::close);
        parentCloser.join(300);
        synchronized (tree.destroyed()) {
            assertEquals(List.of(), tree.destroyed(), "the parent was freed while its child's destroy ran");
        }
        tree.finish().countDown();
        parentCloser.join(10_000);
        tree.childCloser().join(10_000);
        assertFalse(parentCloser.isAlive() || tree.childCloser().isAlive());
        assertEquals(List.of("cq", "ctx"), tree.destroyed());
        assertEquals(1, tree.cq().destroyCount.get());
        assertEquals(1, tree.context().destroyCount.get());
    }

    @Test
    void manyThreadsClosingOneTreeFreeEachObjectOnceChildrenFirst() throws Exception {
        for (int round = 0; round < 200; round++) {
            List<String> destroyed = new ArrayList<>();
            FakeResource context = FakeResource.open("ctx", destroyed);
            FakeResource pd = FakeResource.open("pd", destroyed, context);
            FakeResource cq = FakeResource.open("cq", destroyed, context);
            FakeResource qp = FakeResource.open("qp", destroyed, pd, cq);
            FakeResource mr = FakeResource.open("mr", destroyed, pd);
            List<FakeResource> all = List.of(context, pd, cq, qp, mr);
            for (FakeResource resource : all) {
                resource.duringDestroy = Thread::yield; // widen the window a little
            }
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> closers = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                FakeResource target = all.get((t + round) % all.size());
                closers.add(Thread.ofPlatform().start(() -> {
                    await(start);
                    target.close();
                }));
            }
            start.countDown();
            for (Thread closer : closers) {
                closer.join(10_000);
                assertFalse(closer.isAlive(), "a close never returned");
            }
            context.close();
            for (FakeResource resource : all) {
                assertEquals(1, resource.destroyCount.get(), resource.name + " destroyed " + resource.destroyCount.get() + " times");
            }
            synchronized (destroyed) {
                assertTrue(destroyed.indexOf("qp") < destroyed.indexOf("pd"), destroyed.toString());
                assertTrue(destroyed.indexOf("qp") < destroyed.indexOf("cq"), destroyed.toString());
                assertTrue(destroyed.indexOf("mr") < destroyed.indexOf("pd"), destroyed.toString());
                assertEquals("ctx", destroyed.get(destroyed.size() - 1), destroyed.toString());
            }
        }
    }

    @Test
    void aCloseNestedInItsOwnCloseReturnsAtOnce() {
        List<String> destroyed = new ArrayList<>();
        FakeResource cq = FakeResource.open("cq", destroyed);
        cq.duringDestroy = cq::close; // e.g. a destroy path that reaches close() again
        cq.close();
        assertEquals(List.of("cq"), destroyed);
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
