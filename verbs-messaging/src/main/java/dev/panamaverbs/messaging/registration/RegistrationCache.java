package dev.panamaverbs.messaging.registration;

import dev.panamaverbs.Context;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.VerbsUnsupportedException;
import dev.panamaverbs.values.AccessFlag;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Registers ({@code ibv_reg_mr}) a caller's memory on first use and reuses the registration
 * afterwards, so that registration stays off the hot path. {@link #acquire(MemorySegment)}
 * answers with a {@link RegistrationLease}:
 * <ul>
 * <li><b>Reuse.</b> A registration is reused for any range it contains whole (the same segment,
 *     or a slice of it). A range that no registration contains is registered on its own, even
 *     when it overlaps or adjoins registered ones: registrations are never merged, because two
 *     segments side by side may be separate allocations that the kernel cannot register as one.
 *     A registration whose memory's arena has closed is never reused (the address may now belong
 *     to other memory): it is deregistered when found. Memory that outlives no arena (e.g.
 *     {@code MemorySegment.ofAddress} views) must stay allocated while it is cached.</li>
 * <li><b>Leases pin.</b> A registration with an open lease is never evicted; work requests
 *     using it may be in flight. Closing the lease makes it evictable again.</li>
 * <li><b>Budget.</b> The bytes registered, counted in whole 4 KiB pages as the kernel pins them,
 *     stay within a {@link RegistrationBudget}: before registering, the least recently released
 *     unleased registrations are evicted ({@code ibv_dereg_mr}) until the new range fits. The
 *     default budget is one half of {@code RLIMIT_MEMLOCK} ({@code ulimit -l}) read from
 *     {@code /proc/self/limits} when the cache opens, none when that limit is unlimited.</li>
 * <li><b>The limit.</b> When the budget cannot take a range because every registration is
 *     leased, or when the kernel refuses {@code ibv_reg_mr} with {@code ENOMEM}/{@code EAGAIN}
 *     (the memory lock limit, even after evicting every unleased registration and retrying once),
 *     {@link RegistrationLimitException} names the limit in bytes and the fix.</li>
 * <li><b>On-demand paging.</b> {@link AccessFlag#ON_DEMAND} in the access flags asks for ODP
 *     registrations (the kernel pins nothing; the budget still counts them); a device without
 *     ODP ({@code odp_caps.general_caps} lacks {@code IBV_ODP_SUPPORT}) is refused when the cache
 *     opens with {@link VerbsUnsupportedException} naming the device.</li>
 * <li><b>Close.</b> {@link #close()} deregisters every unleased registration at once; a leased
 *     one is deregistered when its last lease closes, never under work in flight. New
 *     acquisitions are refused. Close the cache before its protection domain (closing the
 *     domain first closes every region of it, leased or not).</li>
 * </ul>
 * Thread-safe: one lock guards the bookkeeping; the verbs themselves run outside it, so a slow
 * {@code ibv_reg_mr} does not hold up hits on other threads. Two threads missing on the same range
 * at once may each register it; both registrations are cached and age out alike.
 */
public final class RegistrationCache implements AutoCloseable {
    /** The page size the budget counts in (the kernel pins whole pages). */
    static final long PAGE_SIZE = 4096;

    private final RegistrationStep step;
    private final Set<AccessFlag> access;
    private final long budget;
    private final long memlockLimit;

    private final ReentrantLock lock = new ReentrantLock();
    /** Every registration by start address (then end, then a sequence number for duplicates). */
    private final TreeSet<Entry> byAddress = new TreeSet<>();
    /**
     * Unleased registrations, least recently released first (the eviction order): a list linked
     * through the entries themselves, so that leasing and releasing allocate nothing.
     */
    private final IdleList idle = new IdleList();
    /** The key a lookup searches from (under the lock): made once rather than per lookup. */
    private final Entry probe = Entry.probe();
    /** Entries taken out under the lock, deregistered after it ({@link #takeDropped}). */
    private final List<Entry> droppedUnderLock = new ArrayList<>();
    /** The longest range ever cached: bounds how far back a containment search looks. */
    private long longest;
    private long sequence;
    private long registeredBytes;
    /** Bytes of registrations under way (the verb runs outside the lock), already in the budget. */
    private long reservedBytes;
    private long leasedBytes;
    private int leasedCount;
    private long hits;
    private long misses;
    private long evictions;
    private boolean closed;

    RegistrationCache(RegistrationStep step, Set<AccessFlag> access, long budget, long memlockLimit) {
        this.step = step;
        this.access = Collections.unmodifiableSet(EnumSet.copyOf(access));
        this.budget = budget;
        this.memlockLimit = memlockLimit;
    }

    /**
     * A cache over {@code pd} with the {@linkplain RegistrationBudget#defaultBudget() default
     * budget}: one half of the memory lock limit.
     *
     * @param pd the protection domain every registration belongs to
     * @param access the access flags of every registration (e.g. {@code LOCAL_WRITE}, plus the
     *        remote ones for RDMA targets, plus {@code ON_DEMAND} for on-demand paging)
     * @return the cache
     * @throws VerbsUnsupportedException for {@code ON_DEMAND} on a device without on-demand paging
     * @throws IllegalArgumentException for empty access flags
     */
    public static RegistrationCache open(ProtectionDomain pd, Set<AccessFlag> access) {
        return open(pd, access, RegistrationBudget.defaultBudget());
    }

    /**
     * A cache over {@code pd} under {@code budget}; the memory lock limit is read now from
     * {@code /proc/self/limits}.
     *
     * @param pd the protection domain every registration belongs to
     * @param access the access flags of every registration
     * @param budget how many bytes may stay registered
     * @return the cache
     * @throws VerbsUnsupportedException for {@code ON_DEMAND} on a device without on-demand paging
     * @throws IllegalArgumentException for empty access flags
     */
    public static RegistrationCache open(ProtectionDomain pd, Set<AccessFlag> access, RegistrationBudget budget) {
        Objects.requireNonNull(pd, "registration cache: protection domain is null");
        Objects.requireNonNull(access, "registration cache: access flags are null");
        Objects.requireNonNull(budget, "registration cache: budget is null");
        if (access.isEmpty()) {
            throw new IllegalArgumentException("registration cache: no access flags (at least LOCAL_WRITE or a remote one)");
        }
        // A copy: the caller's set may change later, every registration must get the same flags.
        Set<AccessFlag> flags = Collections.unmodifiableSet(EnumSet.copyOf(access));
        if (flags.contains(AccessFlag.ON_DEMAND)) {
            requireOnDemandPaging(pd.context());
        }
        long memlock = RegistrationMemlock.read();
        return new RegistrationCache(RegistrationStep.of(pd, flags), flags, budget.resolve(memlock), memlock);
    }

    private static void requireOnDemandPaging(Context context) {
        boolean supported = context.maxAttributes().extended()
                .map(extended -> extended.onDemandPaging().supported()).orElse(false);
        if (!supported) {
            throw new VerbsUnsupportedException("ibv_reg_mr", "the registration cache was asked for ON_DEMAND access,"
                    + " but device " + context.device().name() + " does not offer on-demand paging"
                    + " (odp_caps.general_caps lacks IBV_ODP_SUPPORT); open the cache without ON_DEMAND to pin pages");
        }
    }

    /**
     * A lease on a registration containing {@code memory}: a cached one (a hit) or, on a miss,
     * a new {@code ibv_reg_mr} of {@code memory}, after evicting unleased registrations as the
     * budget needs. Close the lease once no work request uses it.
     *
     * @param memory native memory to be used by work requests
     * @return the lease
     * @throws IllegalArgumentException for a heap or empty segment (and what {@code ibv_reg_mr}
     *         refuses before the verb, e.g. a read-only segment with write access)
     * @throws IllegalStateException once the cache is closed
     * @throws RegistrationLimitException when the budget cannot take the range (every
     *         registration leased) or the kernel refuses it under the memory lock limit
     * @throws VerbsException when {@code ibv_reg_mr} fails otherwise
     */
    public RegistrationLease acquire(MemorySegment memory) {
        return acquire(memory, null);
    }

    /**
     * As {@link #acquire(MemorySegment)}, reusing {@code closedLease} for the answer instead of
     * making a new lease object: for a caller that keeps its leases, so that a hit allocates
     * nothing. {@code closedLease} must be a lease of this cache that was closed, and no other
     * reference to it may be used afterwards (it now stands for the new lease).
     *
     * @param memory native memory to be used by work requests
     * @param closedLease a closed lease of this cache to reuse, or null for a new one
     * @return the lease ({@code closedLease} when given)
     * @throws IllegalArgumentException for a heap or empty segment, or a {@code closedLease}
     *         that is open or of another cache
     * @throws IllegalStateException once the cache is closed
     * @throws RegistrationLimitException as {@link #acquire(MemorySegment)}
     * @throws VerbsException when {@code ibv_reg_mr} fails otherwise
     */
    public RegistrationLease acquire(MemorySegment memory, RegistrationLease closedLease) {
        Objects.requireNonNull(memory, "registration cache: memory is null");
        if (closedLease != null && (closedLease.isOpen() || !closedLease.belongsTo(this))) {
            throw new IllegalArgumentException("registration cache: the lease to reuse must be a closed lease of this cache, not "
                    + closedLease);
        }
        if (!memory.isNative() || memory.byteSize() == 0) {
            throw new IllegalArgumentException("ibv_reg_mr: the registration cache registers native, non-empty memory, not "
                    + memory);
        }
        long start = memory.address();
        long end = start + memory.byteSize();
        long need = pages(start, end);
        List<Entry> dropped = null;
        lock.lock();
        try {
            requireOpen();
            Entry hit = find(start, end);
            if (hit != null) {
                hits++;
                return lease(hit, memory, closedLease);
            }
            makeRoom(need);
            reservedBytes += need;
        } finally {
            dropped = takeDropped();
            lock.unlock();
            deregister(dropped);
        }
        RegistrationStep.Registered registered = null;
        try {
            registered = register(memory, need);
        } finally {
            if (registered == null) {
                unreserve(need);
            }
        }
        return insert(memory, start, end, need, registered, closedLease);
    }

    /**
     * The counters now.
     *
     * @return a snapshot of the counters
     */
    public RegistrationStatistics statistics() {
        lock.lock();
        try {
            return new RegistrationStatistics(hits, misses, evictions, byAddress.size(), leasedCount, registeredBytes,
                    budget, memlockLimit);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The access flags of every registration.
     *
     * @return the access flags
     */
    public Set<AccessFlag> access() {
        return access;
    }

    /**
     * Deregisters ({@code ibv_dereg_mr}) every unleased registration now; a leased one when its
     * last lease closes. Later acquisitions throw {@link IllegalStateException}. Idempotent.
     */
    @Override
    public void close() {
        List<Entry> dropped = null;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            while (!idle.isEmpty()) {
                remove(idle.first());
            }
        } finally {
            dropped = takeDropped();
            lock.unlock();
            deregister(dropped);
        }
    }

    /** Releases {@code lease}: once no lease holds its registration, it becomes evictable. */
    void release(RegistrationLease lease) {
        List<Entry> dropped = null;
        lock.lock();
        try {
            if (!lease.markClosed()) {
                return;
            }
            Entry entry = lease.entry();
            if (--entry.leases > 0) {
                return;
            }
            leasedCount--;
            leasedBytes -= entry.pinnedBytes;
            if (closed) {
                remove(entry);
            } else {
                idle.addLast(entry);
            }
        } finally {
            dropped = takeDropped();
            lock.unlock();
            deregister(dropped);
        }
    }

    // ---- under the lock ----

    /**
     * The registration containing [start, end) whose memory is still alive; unleased ones whose
     * arena closed are dropped on the way.
     */
    private Entry find(long start, long end) {
        Entry found = null;
        // Ranges starting at or before start, latest start first; none starting before
        // end - longest can reach end. Walked key by key: a view and its iterator would be
        // objects per lookup.
        probe.start = start;
        // lower() finds the next by comparison, so the walk goes on past an entry removed here.
        for (Entry entry = byAddress.floor(probe); entry != null; entry = byAddress.lower(entry)) {
            if (entry.start < end - longest) {
                break;
            }
            if (entry.end < end) {
                continue;
            }
            if (!entry.memory.scope().isAlive()) {
                if (entry.leases == 0) {
                    evictions++;
                    remove(entry);
                }
                continue;
            }
            found = entry;
            break;
        }
        return found;
    }

    /** Evicts least recently released registrations until {@code need} more bytes fit the budget. */
    private void makeRoom(long need) {
        if (need > budget - leasedBytes - reservedBytes) {
            // Even evicting every unleased registration would not make room: evict none.
            throw RegistrationLimitException.budgetExhausted(need, registeredBytes + reservedBytes, leasedBytes, budget,
                    memlockLimit);
        }
        while (need > budget - registeredBytes - reservedBytes && !idle.isEmpty()) {
            evictions++;
            remove(idle.first());
        }
    }

    private RegistrationLease lease(Entry entry, MemorySegment memory, RegistrationLease closedLease) {
        if (entry.leases++ == 0) {
            idle.remove(entry);
            leasedCount++;
            leasedBytes += entry.pinnedBytes;
        }
        if (closedLease == null) {
            return new RegistrationLease(this, entry, memory);
        }
        closedLease.reopen(entry, memory);
        return closedLease;
    }

    /** Takes {@code entry} out of the cache; deregistered once the lock is released ({@link #takeDropped}). */
    private void remove(Entry entry) {
        byAddress.remove(entry);
        idle.remove(entry);
        registeredBytes -= entry.pinnedBytes;
        droppedUnderLock.add(entry);
    }

    /** {@return the entries removed under the lock, to deregister after it, or null when none} (made only then) */
    private List<Entry> takeDropped() {
        if (droppedUnderLock.isEmpty()) {
            return null;
        }
        List<Entry> dropped = List.copyOf(droppedUnderLock);
        droppedUnderLock.clear();
        return dropped;
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("registration cache is closed");
        }
    }

    // ---- outside the lock ----

    /**
     * The verb, and on {@code ENOMEM}/{@code EAGAIN} (the memory lock limit) once more after
     * evicting every unleased registration: other registrations of the process count too.
     */
    private RegistrationStep.Registered register(MemorySegment memory, long need) {
        for (boolean retried = false; ; retried = true) {
            try {
                return step.register(memory);
            } catch (VerbsException e) {
                if (!RegistrationLimitException.isMemlockRefusal(e)) {
                    throw e;
                }
                // a retry only when evicting freed something; the second refusal is final
                if (retried || !evictAllIdle()) {
                    throw RegistrationLimitException.kernelRefused(e, need, statistics().registeredBytes(), budget,
                            memlockLimit);
                }
            }
        }
    }


    /** Evicts every unleased registration; whether there was one. */
    private boolean evictAllIdle() {
        List<Entry> dropped = null;
        lock.lock();
        try {
            while (!idle.isEmpty()) {
                evictions++;
                remove(idle.first());
            }
        } finally {
            dropped = takeDropped();
            lock.unlock();
            deregister(dropped);
        }
        return dropped != null;
    }

    private void unreserve(long need) {
        lock.lock();
        try {
            reservedBytes -= need;
        } finally {
            lock.unlock();
        }
    }

    /** Caches a new registration with one lease; a cache closed meanwhile deregisters it again. */
    private RegistrationLease insert(MemorySegment memory, long start, long end, long need,
            RegistrationStep.Registered registered, RegistrationLease closedLease) {
        lock.lock();
        try {
            reservedBytes -= need;
            if (!closed) {
                Entry entry = new Entry(start, end, sequence++, memory, registered);
                byAddress.add(entry);
                registeredBytes += need;
                misses++;
                longest = Math.max(longest, end - start);
                return lease(entry, memory, closedLease);
            }
        } finally {
            lock.unlock();
        }
        registered.deregister();
        throw new IllegalStateException("registration cache was closed while registering");
    }

    /** {@code ibv_dereg_mr} of each (none when null); the first failure thrown once all were tried. */
    private static void deregister(List<Entry> entries) {
        if (entries == null) {
            return;
        }
        RuntimeException failure = null;
        for (Entry entry : entries) {
            try {
                entry.registered.deregister();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** The bytes of the whole pages [start, end) touches. */
    static long pages(long start, long end) {
        long first = start & -PAGE_SIZE;
        long last = (end + PAGE_SIZE - 1) & -PAGE_SIZE;
        return last - first;
    }

    @Override
    public String toString() {
        return "RegistrationCache[" + statistics() + "]";
    }

    /**
     * One cached registration, and its place in {@link #byAddress} (by start, end, then a
     * sequence number for duplicates); its mutable fields are guarded by the cache's lock.
     */
    static final class Entry implements Comparable<Entry> {
        /** Never changed once cached: only the cache's {@link #probe} is moved from lookup to lookup. */
        long start;
        final long end;
        final long sequence;
        final MemorySegment memory;
        final RegistrationStep.Registered registered;
        final long pinnedBytes;
        int leases;
        /** Neighbours in {@link IdleList} while unleased; {@code inIdle} says whether it is there. */
        Entry idlePrevious;
        Entry idleNext;
        boolean inIdle;

        Entry(long start, long end, long sequence, MemorySegment memory, RegistrationStep.Registered registered) {
            this.start = start;
            this.end = end;
            this.sequence = sequence;
            this.memory = memory;
            this.registered = registered;
            this.pinnedBytes = registered == null ? 0 : pages(start, end); // what the budget counts
        }

        /** {@return a probe: no registration, after every range that starts where it is moved} */
        static Entry probe() {
            return new Entry(0, Long.MAX_VALUE, Long.MAX_VALUE, null, null);
        }

        @Override
        public int compareTo(Entry other) {
            int order = Long.compare(start, other.start);
            if (order == 0) {
                order = Long.compare(end, other.end);
            }
            return order != 0 ? order : Long.compare(sequence, other.sequence);
        }
    }

    /** The unleased entries, least recently released first, linked through the entries (no node per entry). */
    static final class IdleList {
        private Entry first;
        private Entry last;

        boolean isEmpty() {
            return first == null;
        }

        Entry first() {
            return first;
        }

        void addLast(Entry entry) {
            if (entry.inIdle) {
                return;
            }
            entry.inIdle = true;
            entry.idlePrevious = last;
            entry.idleNext = null;
            if (last == null) {
                first = entry;
            } else {
                last.idleNext = entry;
            }
            last = entry;
        }

        void remove(Entry entry) {
            if (!entry.inIdle) {
                return;
            }
            if (entry.idlePrevious == null) {
                first = entry.idleNext;
            } else {
                entry.idlePrevious.idleNext = entry.idleNext;
            }
            if (entry.idleNext == null) {
                last = entry.idlePrevious;
            } else {
                entry.idleNext.idlePrevious = entry.idlePrevious;
            }
            entry.idlePrevious = null;
            entry.idleNext = null;
            entry.inIdle = false;
        }
    }
}
