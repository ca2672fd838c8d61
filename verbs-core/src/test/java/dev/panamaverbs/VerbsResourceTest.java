package dev.panamaverbs;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The resource-tree rules every verbs object follows, on fake resources (no device): idempotent
 * close, dependents closed first (newest first), use after close refused, and close waiting for
 * uses under way, so a native object is never freed while a call is using it.
 */
class VerbsResourceTest {
    /** What the test's fakes destroyed, in order (a fresh list per test). */
    private final List<String> destroyed = new ArrayList<>();

    @Test
    void closeIsIdempotent() {
        FakeResource fake = FakeResource.open("a", destroyed);
        fake.close();
        fake.close();
        assertEquals(List.of("a"), destroyed);
        assertTrue(fake.isClosed());
    }

    @Test
    void useAfterCloseNamesTheResource() {
        FakeResource fake = FakeResource.open("qp7", new ArrayList<>());
        fake.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> fake.use(() -> {}));
        assertEquals("Fake[qp7] is closed", e.getMessage());
        assertThrows(IllegalStateException.class, fake::handle);
    }

    @Test
    void parentClosesLiveDependentsFirstNewestFirst() {
        FakeResource context = FakeResource.open("context", destroyed);
        FakeResource pd = FakeResource.open("pd", destroyed, context);
        FakeResource cq = FakeResource.open("cq", destroyed, context);
        FakeResource mr = FakeResource.open("mr", destroyed, pd);
        FakeResource qp = FakeResource.open("qp", destroyed, pd, cq);
        context.close();
        // cq (newest child of context) first: it closes the qp that uses it; then pd closes mr.
        assertEquals(List.of("qp", "cq", "mr", "pd", "context"), destroyed);
        assertTrue(qp.isClosed() && mr.isClosed() && pd.isClosed() && cq.isClosed());
    }

    @Test
    void closingADependencyClosesItsUsersButNotItsParent() {
        FakeResource context = FakeResource.open("context", destroyed);
        FakeResource pd = FakeResource.open("pd", destroyed, context);
        FakeResource cq = FakeResource.open("cq", destroyed, context);
        FakeResource qp = FakeResource.open("qp", destroyed, pd, cq);
        cq.close();
        assertEquals(List.of("qp", "cq"), destroyed);
        assertFalse(pd.isClosed());
        assertEquals(List.of(), pd.liveDependents());
        assertEquals(List.of(pd), context.liveDependents());
        assertTrue(qp.isClosed());
    }

    @Test
    void creatingUnderAClosedParentDestroysTheNewObjectAndFails() {
        FakeResource context = FakeResource.open("context", destroyed);
        context.close();
        FakeResource child = new FakeResource("pd", destroyed, context);
        IllegalStateException e = assertThrows(IllegalStateException.class, child::register);
        assertEquals("Fake[context] is closed", e.getMessage());
        assertEquals(List.of("context", "pd"), destroyed, "the orphan native object is destroyed, not leaked");
        assertTrue(child.isClosed());
    }

    @Test
    void requireOpenRefusesAClosedResource() {
        FakeResource fake = FakeResource.open("cq", new ArrayList<>());
        VerbsResource.requireOpen(fake);
        fake.close();
        assertThrows(IllegalStateException.class, () -> VerbsResource.requireOpen(fake));
    }

    @Test
    void closeWaitsForAUseUnderWayThenRefusesNewOnes() throws Exception {
        FakeResource fake = FakeResource.open("qp", new ArrayList<>());
        CountDownLatch inUse = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        Thread user = Thread.ofPlatform().start(() -> fake.use(() -> {
            inUse.countDown();
            awaitQuietly(finish);
        }));
        assertTrue(inUse.await(10, TimeUnit.SECONDS));
        Thread closer = Thread.ofPlatform().start(fake::close);
        // The close has begun (new uses are refused) but must not destroy while the use runs.
        while (!fake.isClosed()) {
            Thread.onSpinWait();
        }
        assertThrows(IllegalStateException.class, () -> fake.use(() -> {}));
        assertEquals(0, fake.destroyCount.get(), "destroyed while a use was under way");
        finish.countDown();
        closer.join(10_000);
        user.join(10_000);
        assertFalse(closer.isAlive());
        assertEquals(1, fake.destroyCount.get());
        assertFalse(fake.destroyedDuringUse.get());
    }

    @Test
    void concurrentUsesAndCloseNeverOverlapAndDestroyOnce() throws Exception {
        for (int round = 0; round < 50; round++) {
            FakeResource fake = FakeResource.open("qp", new ArrayList<>());
            AtomicLong completedUses = new AtomicLong();
            AtomicLong refusedUses = new AtomicLong();
            List<Thread> users = new ArrayList<>();
            CountDownLatch start = new CountDownLatch(1);
            for (int t = 0; t < 4; t++) {
                users.add(Thread.ofPlatform().start(() -> {
                    awaitQuietly(start);
                    for (int i = 0; i < 2_000; i++) {
                        try {
                            fake.use(completedUses::incrementAndGet);
                        } catch (IllegalStateException closed) {
                            refusedUses.incrementAndGet();
                        }
                    }
                }));
            }
            start.countDown();
            fake.close();
            for (Thread user : users) {
                user.join(30_000);
            }
            assertEquals(1, fake.destroyCount.get());
            assertFalse(fake.destroyedDuringUse.get(), "destroy ran while a use was in flight");
            assertEquals(8_000, completedUses.get() + refusedUses.get());
        }
    }

    @Test
    void toStringNamesKindAndIdentity() {
        FakeResource fake = FakeResource.open("qpn=17", new ArrayList<>());
        assertEquals("Fake[qpn=17]", fake.toString());
        assertEquals(0, fake.handle().address());
        assertSame(fake.handle(), fake.handle(), "one scoped handle per resource, made once");
    }

    @Test
    void aHandleKeptPastCloseFailsInsteadOfReadingFreedMemory() {
        MemorySegment nativeObject = java.lang.foreign.Arena.global().allocate(16);
        // A resource over real memory: the handle reads it while open, refuses after close.
        VerbsResource resource = new VerbsResource("Fake", nativeObject) {
            @Override
            protected void destroy() {}

            @Override
            protected String describe() {
                return "mem";
            }
        };
        resource.register();
        MemorySegment kept = resource.handle();
        nativeObject.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, 42L);
        assertEquals(42L, kept.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0));
        // The provider's memory: no write through the handle.
        assertTrue(kept.isReadOnly());
        assertThrows(IllegalArgumentException.class, () -> kept.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, 0L));
        assertThrows(IllegalArgumentException.class, () -> kept.fill((byte) 0));
        assertEquals(42L, nativeObject.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0));
        resource.close();
        assertThrows(IllegalStateException.class, () -> kept.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0));
        assertThrows(IllegalStateException.class, resource::handle);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
