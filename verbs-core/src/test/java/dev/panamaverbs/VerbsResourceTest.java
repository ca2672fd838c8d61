package dev.panamaverbs;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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

    /** A resource whose "native object" is a flag; destroy records the order and checks no use is live. */
    private static final class Fake extends VerbsResource {
        final String name;
        final List<String> destroyed;
        final AtomicInteger usesInFlight = new AtomicInteger();
        final AtomicBoolean destroyedDuringUse = new AtomicBoolean();
        final AtomicInteger destroyCount = new AtomicInteger();

        Fake(String name, List<String> destroyed, VerbsResource... dependencies) {
            super("Fake", MemorySegment.NULL, dependencies);
            this.name = name;
            this.destroyed = destroyed;
        }

        static Fake open(String name, List<String> destroyed, VerbsResource... dependencies) {
            Fake fake = new Fake(name, destroyed, dependencies);
            fake.register();
            return fake;
        }

        /** A "native call": acquire, mark in use, work, release. */
        void use(Runnable work) {
            acquire();
            try {
                usesInFlight.incrementAndGet();
                work.run();
            } finally {
                usesInFlight.decrementAndGet();
                release();
            }
        }

        @Override
        void destroy() {
            if (usesInFlight.get() != 0) {
                destroyedDuringUse.set(true);
            }
            destroyCount.incrementAndGet();
            synchronized (destroyed) {
                destroyed.add(name);
            }
        }

        @Override
        String describe() {
            return name;
        }
    }

    @Test
    void closeIsIdempotent() {
        List<String> destroyed = new ArrayList<>();
        Fake fake = Fake.open("a", destroyed);
        fake.close();
        fake.close();
        assertEquals(List.of("a"), destroyed);
        assertTrue(fake.isClosed());
    }

    @Test
    void useAfterCloseNamesTheResource() {
        Fake fake = Fake.open("qp7", new ArrayList<>());
        fake.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> fake.use(() -> {}));
        assertEquals("Fake[qp7] is closed", e.getMessage());
        assertThrows(IllegalStateException.class, fake::handle);
    }

    @Test
    void parentClosesLiveDependentsFirstNewestFirst() {
        List<String> destroyed = new ArrayList<>();
        Fake context = Fake.open("context", destroyed);
        Fake pd = Fake.open("pd", destroyed, context);
        Fake cq = Fake.open("cq", destroyed, context);
        Fake mr = Fake.open("mr", destroyed, pd);
        Fake qp = Fake.open("qp", destroyed, pd, cq);
        context.close();
        // cq (newest child of context) first: it closes the qp that uses it; then pd closes mr.
        assertEquals(List.of("qp", "cq", "mr", "pd", "context"), destroyed);
        assertTrue(qp.isClosed() && mr.isClosed() && pd.isClosed() && cq.isClosed());
    }

    @Test
    void closingADependencyClosesItsUsersButNotItsParent() {
        List<String> destroyed = new ArrayList<>();
        Fake context = Fake.open("context", destroyed);
        Fake pd = Fake.open("pd", destroyed, context);
        Fake cq = Fake.open("cq", destroyed, context);
        Fake qp = Fake.open("qp", destroyed, pd, cq);
        cq.close();
        assertEquals(List.of("qp", "cq"), destroyed);
        assertFalse(pd.isClosed());
        assertEquals(List.of(), pd.liveDependents());
        assertEquals(List.of(pd), context.liveDependents());
        assertTrue(qp.isClosed());
    }

    @Test
    void creatingUnderAClosedParentDestroysTheNewObjectAndFails() {
        List<String> destroyed = new ArrayList<>();
        Fake context = Fake.open("context", destroyed);
        context.close();
        Fake child = new Fake("pd", destroyed, context);
        IllegalStateException e = assertThrows(IllegalStateException.class, child::register);
        assertEquals("Fake[context] is closed", e.getMessage());
        assertEquals(List.of("context", "pd"), destroyed, "the orphan native object is destroyed, not leaked");
        assertTrue(child.isClosed());
    }

    @Test
    void requireOpenRefusesAClosedResource() {
        Fake fake = Fake.open("cq", new ArrayList<>());
        VerbsResource.requireOpen(fake);
        fake.close();
        assertThrows(IllegalStateException.class, () -> VerbsResource.requireOpen(fake));
    }

    @Test
    void closeWaitsForAUseUnderWayThenRefusesNewOnes() throws Exception {
        Fake fake = Fake.open("qp", new ArrayList<>());
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
            Fake fake = Fake.open("qp", new ArrayList<>());
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
        Fake fake = Fake.open("qpn=17", new ArrayList<>());
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
            void destroy() {}

            @Override
            String describe() {
                return "mem";
            }
        };
        resource.register();
        MemorySegment kept = resource.handle();
        kept.set(java.lang.foreign.ValueLayout.JAVA_LONG, 0, 42L);
        assertEquals(42L, kept.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0));
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
