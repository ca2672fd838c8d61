package dev.panamaverbs.messaging.registration;

import dev.panamaverbs.messaging.MessagingException;
import dev.panamaverbs.messaging.ThreadBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panamaverbs.VerbsException;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.Errno;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link RegistrationCache}'s bookkeeping over a fake registering step: reuse, LRU, budget, leases, limits, close. */
class RegistrationCacheTest {
    private static final long PAGE = RegistrationCache.PAGE_SIZE;
    private static final long MEMLOCK = 8 << 20;

    private final Arena arena = Arena.ofShared();
    private final RegistrationFakeStep step = new RegistrationFakeStep();

    @AfterEach
    void closeArena() {
        arena.close();
    }

    private RegistrationCache cache(long budget) {
        return new RegistrationCache(step, EnumSet.of(AccessFlag.LOCAL_WRITE), budget, MEMLOCK);
    }

    private MemorySegment pages(int count) {
        return arena.allocate(count * PAGE, PAGE);
    }

    @Test
    void reusesARegistrationForTheSameOrAContainedRange() {
        try (RegistrationCache cache = cache(Long.MAX_VALUE)) {
            MemorySegment buffer = pages(4);
            RegistrationFakeStep.Fake first;
            try (RegistrationLease lease = cache.acquire(buffer)) {
                first = RegistrationFakeStep.of(lease);
                assertSame(buffer, lease.memory());
                assertEquals(buffer.address(), lease.address());
            }
            try (RegistrationLease again = cache.acquire(buffer); RegistrationLease slice = cache.acquire(buffer.asSlice(100, 2 * PAGE))) {
                assertSame(first, RegistrationFakeStep.of(again));
                assertSame(first, RegistrationFakeStep.of(slice), "a slice reuses the registration containing it");
                assertEquals(buffer.address() + 100, slice.address());
            }
            RegistrationStatistics stats = cache.statistics();
            assertEquals(2, stats.hits());
            assertEquals(1, stats.misses());
            assertEquals(1, step.registered.size());
        }
    }

    @Test
    void aClosedLeaseIsReusedForTheNextAcquisitionAndAHitThenAllocatesNothing() throws Exception {
        try (RegistrationCache cache = cache(Long.MAX_VALUE); RegistrationCache other = cache(Long.MAX_VALUE)) {
            MemorySegment buffer = pages(4);
            MemorySegment slice = buffer.asSlice(PAGE, PAGE);
            RegistrationLease lease = cache.acquire(buffer);
            assertThrows(IllegalArgumentException.class, () -> cache.acquire(buffer, lease), "an open lease is refused");
            lease.close();
            RegistrationLease foreign = other.acquire(pages(1));
            foreign.close();
            assertThrows(IllegalArgumentException.class, () -> cache.acquire(buffer, foreign), "another cache's lease is refused");
            RegistrationLease again = cache.acquire(slice, lease);
            assertSame(lease, again);
            assertTrue(again.isOpen());
            assertSame(slice, again.memory());
            assertEquals(slice.address(), again.address());
            assertSame(RegistrationFakeStep.of(again), step.registered.get(0), "the slice hits the buffer's registration");
            again.close();
            long bytes = ThreadBytes.measure(i -> {
                cache.acquire((i & 1) == 0 ? buffer : slice, lease).close();
            });
            RegistrationStatistics stats = cache.statistics();
            assertEquals(1, stats.misses());
            assertEquals(0, stats.leased());
            assertEquals(2, step.registered.size(), "one registration in each cache");
            assertTrue(bytes < ThreadBytes.MEASURED, bytes + " B over " + ThreadBytes.MEASURED + " hits");
        }
    }

    @Test
    void registersOverlappingAndAdjacentRangesOnTheirOwn() {
        try (RegistrationCache cache = cache(Long.MAX_VALUE)) {
            MemorySegment buffer = pages(4);
            cache.acquire(buffer.asSlice(0, 2 * PAGE)).close();
            // Overlaps the first but is not contained in it: a registration of its own.
            cache.acquire(buffer.asSlice(PAGE, 2 * PAGE)).close();
            // Adjacent to the first: not merged.
            cache.acquire(buffer.asSlice(3 * PAGE, PAGE)).close();
            assertEquals(3, step.registered.size());
            assertEquals(0, cache.statistics().hits());
            // Each of those is now found again.
            cache.acquire(buffer.asSlice(PAGE + 10, PAGE)).close();
            cache.acquire(buffer.asSlice(3 * PAGE + 5, 10)).close();
            assertEquals(3, step.registered.size());
            assertEquals(2, cache.statistics().hits());
        }
    }

    @Test
    void countsWholePages() {
        try (RegistrationCache cache = cache(Long.MAX_VALUE)) {
            MemorySegment buffer = pages(3);
            cache.acquire(buffer.asSlice(10, 100)).close();
            assertEquals(PAGE, cache.statistics().registeredBytes());
            cache.acquire(buffer.asSlice(PAGE + PAGE - 8, 16)).close(); // straddles a page boundary
            assertEquals(3 * PAGE, cache.statistics().registeredBytes());
        }
        assertEquals(0, step.live());
    }

    @Test
    void evictsTheLeastRecentlyReleasedUnderTheBudget() {
        try (RegistrationCache cache = cache(3 * PAGE)) {
            MemorySegment a = pages(1);
            MemorySegment b = pages(1);
            MemorySegment c = pages(1);
            MemorySegment d = pages(1);
            cache.acquire(a).close();
            cache.acquire(b).close();
            cache.acquire(c).close();
            cache.acquire(a).close(); // a is now the most recently used: b is the least
            RegistrationFakeStep.Fake fakeB = step.registered.get(1);
            cache.acquire(d).close();
            assertTrue(fakeB.isDeregistered(), "b, the least recently used, is evicted");
            RegistrationStatistics stats = cache.statistics();
            assertEquals(1, stats.evictions());
            assertEquals(3, stats.registrations());
            assertEquals(3 * PAGE, stats.registeredBytes());
            assertEquals(3 * PAGE, stats.budgetBytes());
            assertEquals(MEMLOCK, stats.memlockLimitBytes());
            cache.acquire(a).close();
            cache.acquire(c).close();
            assertEquals(2 + 1, cache.statistics().hits()); // the a before d, then a and c
            cache.acquire(b).close(); // registered again, evicting d (least recent)
            assertTrue(step.registered.get(3).isDeregistered(), "d is evicted");
            assertEquals(5, cache.statistics().misses());
        }
    }

    @Test
    void neverEvictsALeasedRegistration() {
        try (RegistrationCache cache = cache(2 * PAGE)) {
            MemorySegment a = pages(1);
            MemorySegment b = pages(1);
            RegistrationLease leased = cache.acquire(a); // the oldest, but leased
            RegistrationFakeStep.Fake fakeA = RegistrationFakeStep.of(leased);
            fakeA.inUse.incrementAndGet();
            cache.acquire(b).close();
            RegistrationLease c = cache.acquire(pages(1)); // evicts b, not a
            assertFalse(fakeA.isDeregistered());
            assertTrue(step.registered.get(1).isDeregistered());
            assertEquals(2, cache.statistics().leased());
            // Everything is leased: the budget cannot take one more page.
            RegistrationLimitException full = assertThrows(RegistrationLimitException.class, () -> cache.acquire(pages(1)));
            assertNull(full.verb());
            assertEquals(0, full.errno());
            assertEquals(2 * PAGE, full.budgetBytes());
            assertEquals(PAGE, full.requestedBytes());
            assertEquals(MEMLOCK, full.memlockLimitBytes());
            assertTrue(full.getMessage().contains("budget of " + 2 * PAGE + " bytes"), full.getMessage());
            assertTrue(full.getMessage().contains("RLIMIT_MEMLOCK " + MEMLOCK + " bytes"), full.getMessage());
            assertTrue(full.getMessage().contains("ulimit -l"), full.getMessage());
            assertInstanceOf(MessagingException.class, full);
            assertEquals(2, cache.statistics().registrations());
            assertEquals(3, cache.statistics().misses(), "a refusal is not a miss");
            fakeA.inUse.decrementAndGet();
            leased.close();
            cache.acquire(pages(1)).close(); // now a can go
            assertTrue(fakeA.isDeregistered());
            c.close();
        }
        assertEquals(0, step.violations.get(), "a registration in use was deregistered");
        assertEquals(0, step.live());
    }

    @Test
    void refusesARangeLargerThanTheWholeBudgetBeforeEvicting() {
        try (RegistrationCache cache = cache(2 * PAGE)) {
            cache.acquire(pages(1)).close();
            assertThrows(RegistrationLimitException.class, () -> cache.acquire(pages(3)));
            assertEquals(1, cache.statistics().registrations(), "nothing evicted for a range that can never fit");
            assertEquals(1, step.registered.size());
        }
    }

    @Test
    void theKernelsEnomemEvictsEverythingUnleasedAndRetriesOnce() {
        step.kernelLimit = 3 * PAGE;
        try (RegistrationCache cache = cache(Long.MAX_VALUE)) {
            cache.acquire(pages(1)).close();
            cache.acquire(pages(1)).close();
            try (RegistrationLease lease = cache.acquire(pages(2))) { // over the kernel's limit: evict both and retry
                assertEquals(2, cache.statistics().evictions());
                assertEquals(2 * PAGE, cache.statistics().registeredBytes());
                // Leased and over the kernel's limit: the documented exception, the verb's failure as cause.
                RegistrationLimitException refused = assertThrows(RegistrationLimitException.class, () -> cache.acquire(pages(2)));
                assertEquals("ibv_reg_mr", refused.verb());
                assertEquals(Errno.ENOMEM, refused.errno());
                assertInstanceOf(VerbsException.class, refused.getCause());
                String message = refused.getMessage();
                for (String words : List.of("RLIMIT_MEMLOCK of " + MEMLOCK + " bytes", "ulimit -l", "LimitMEMLOCK=",
                        "--ulimit memlock=-1", "IPC_LOCK", "ENOMEM")) {
                    assertTrue(message.contains(words), "the message names " + words + ": " + message);
                }
                assertFalse(RegistrationFakeStep.of(lease).isDeregistered());
            }
            assertEquals(1, cache.statistics().registrations());
        }
    }

    @Test
    void aRegistrationOutsideTheCacheNamesTheMemlockLimitOnlyForTheKernelsRefusal() {
        for (int errno : new int[] {Errno.ENOMEM, Errno.EAGAIN}) {
            VerbsException refusal = new VerbsException("ibv_reg_mr", errno);
            RegistrationLimitException named = assertInstanceOf(RegistrationLimitException.class,
                    RegistrationLimitException.ofRegistration(refusal, 3 * PAGE));
            assertSame(refusal, named.getCause());
            assertEquals("ibv_reg_mr", named.verb());
            assertEquals(errno, named.errno());
            assertEquals(3 * PAGE, named.requestedBytes());
            assertEquals(RegistrationMemlock.read(), named.memlockLimitBytes(), "read now, from /proc/self/limits");
            for (String words : List.of("RLIMIT_MEMLOCK of ", "ulimit -l", "IPC_LOCK", "siw", Errno.name(errno))) {
                assertTrue(named.getMessage().contains(words), "the message names " + words + ": " + named.getMessage());
            }
        }
        VerbsException other = new VerbsException("ibv_reg_mr", Errno.EFAULT);
        assertSame(other, RegistrationLimitException.ofRegistration(other, PAGE));
        VerbsException notRegistration = new VerbsException("ibv_create_cq", Errno.ENOMEM);
        assertSame(notRegistration, RegistrationLimitException.ofRegistration(notRegistration, PAGE));
    }

    @Test
    void otherVerbFailuresPassThroughAndReleaseTheReservation() {
        RegistrationStep failing = memory -> {
            throw new VerbsException("ibv_reg_mr", Errno.EFAULT);
        };
        try (RegistrationCache cache = new RegistrationCache(failing, EnumSet.of(AccessFlag.LOCAL_WRITE), PAGE, MEMLOCK)) {
            for (int i = 0; i < 3; i++) { // a leaked reservation would make the second attempt a budget refusal
                VerbsException e = assertThrows(VerbsException.class, () -> cache.acquire(pages(1)));
                assertEquals(Errno.EFAULT, e.errno());
                assertFalse(e instanceof RegistrationLimitException);
            }
            assertEquals(0, cache.statistics().misses());
        }
    }

    @Test
    @SuppressWarnings("try") // the cache closes (explicitly, again at the end) before the arenas it registered
    void aRegistrationWhoseArenaClosedIsNeverReused() {
        try (RegistrationCache cache = cache(Long.MAX_VALUE)) {
            long size = 64 * PAGE;
            Arena gone = Arena.ofConfined();
            MemorySegment old = gone.allocate(size, PAGE);
            long address = old.address();
            cache.acquire(old).close();
            gone.close();
            // Other memory at that address: the allocator hands freed memory out again, mostly at once.
            MemorySegment reused = null;
            List<Arena> tries = new ArrayList<>();
            for (int i = 0; i < 20 && reused == null; i++) {
                Arena next = Arena.ofConfined();
                tries.add(next);
                MemorySegment candidate = next.allocate(size, PAGE);
                reused = candidate.address() == address ? candidate : null;
            }
            try {
                assumeTrue(reused != null, "the allocator did not give the freed address out again");
                try (RegistrationLease lease = cache.acquire(reused)) {
                    assertNotSame(step.registered.get(0), RegistrationFakeStep.of(lease));
                    assertTrue(step.registered.get(0).isDeregistered());
                }
                assertEquals(0, cache.statistics().hits());
                assertEquals(1, cache.statistics().evictions());
            } finally {
                cache.close();
                tries.forEach(Arena::close);
            }
        }
    }

    @Test
    void refusesHeapAndEmptyMemory() {
        try (RegistrationCache cache = cache(Long.MAX_VALUE)) {
            assertThrows(IllegalArgumentException.class, () -> cache.acquire(MemorySegment.ofArray(new byte[64])));
            assertThrows(IllegalArgumentException.class, () -> cache.acquire(pages(1).asSlice(0, 0)));
            assertThrows(NullPointerException.class, () -> cache.acquire(null));
        }
    }

    @Test
    void closeDeregistersTheIdleAtOnceAndTheLeasedAtTheirRelease() {
        RegistrationCache cache = cache(Long.MAX_VALUE);
        cache.acquire(pages(1)).close();
        RegistrationLease leased = cache.acquire(pages(2));
        RegistrationFakeStep.Fake fake = RegistrationFakeStep.of(leased);
        cache.close();
        assertTrue(step.registered.get(0).isDeregistered());
        assertFalse(fake.isDeregistered(), "a leased registration outlives close until its lease closes");
        assertThrows(IllegalStateException.class, () -> cache.acquire(pages(1)));
        cache.close();
        leased.close();
        assertTrue(fake.isDeregistered());
        assertFalse(leased.isOpen());
        assertThrows(IllegalStateException.class, leased::region);
        leased.close(); // idempotent: no second deregistration (the fake fails on one)
        RegistrationStatistics stats = cache.statistics();
        assertEquals(0, stats.registrations());
        assertEquals(0, stats.registeredBytes());
        assertEquals(0, step.live());
    }

    @Test
    void aLeaseClosedTwiceReleasesOnce() {
        try (RegistrationCache cache = cache(Long.MAX_VALUE)) {
            MemorySegment buffer = pages(1);
            RegistrationLease first = cache.acquire(buffer);
            RegistrationLease second = cache.acquire(buffer);
            first.close();
            first.close();
            assertEquals(1, cache.statistics().leased(), "the second lease still holds the registration");
            second.close();
            assertEquals(0, cache.statistics().leased());
        }
    }

    /** Threads acquiring and releasing slices of a working set twice the budget: no registration in use is ever deregistered. */
    @Test
    void concurrentLeasesAreNeverEvicted() throws Exception {
        int buffers = 16;
        List<MemorySegment> workingSet = new ArrayList<>();
        for (int i = 0; i < buffers; i++) {
            workingSet.add(pages(2));
        }
        try (RegistrationCache cache = cache(buffers * PAGE); ExecutorService threads = Executors.newFixedThreadPool(4)) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long seed = t;
                done.add(threads.submit(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    for (int i = 0; i < 2_000; i++) {
                        MemorySegment buffer = workingSet.get(random.nextInt(buffers));
                        long offset = random.nextInt((int) PAGE);
                        try (RegistrationLease lease = cache.acquire(buffer.asSlice(offset, 1 + random.nextInt((int) PAGE)))) {
                            RegistrationFakeStep.Fake fake = RegistrationFakeStep.of(lease);
                            fake.inUse.incrementAndGet();
                            assertFalse(fake.isDeregistered());
                            assertTrue(fake.address <= lease.address()
                                    && lease.address() + lease.memory().byteSize() <= fake.address + fake.length);
                            Thread.onSpinWait();
                            fake.inUse.decrementAndGet();
                        } catch (RegistrationLimitException full) {
                            // four threads may lease more than the budget's 8 buffers at once: allowed
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
            RegistrationStatistics stats = cache.statistics();
            assertEquals(0, stats.leased());
            assertTrue(stats.registeredBytes() <= buffers * PAGE, stats.toString());
            assertTrue(stats.evictions() > 0, stats.toString());
            assertEquals(step.live(), stats.registrations());
        }
        assertEquals(0, step.violations.get(), "a registration in use was deregistered");
        assertEquals(0, step.live());
    }
}
