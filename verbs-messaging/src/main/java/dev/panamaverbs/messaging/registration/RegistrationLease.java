package dev.panamaverbs.messaging.registration;

import dev.panamaverbs.MemoryRegion;
import java.lang.foreign.MemorySegment;

/**
 * A registration held for the caller's memory by {@link RegistrationCache#acquire(MemorySegment)}:
 * while any lease on it is open, the cache never evicts (deregisters) the registration, so work
 * requests that name {@link #lkey()} or {@link #rkey()} may be in flight. Close the lease once
 * their completions have arrived; the registration then stays cached for the next acquisition
 * until the LRU policy evicts it. Closing is idempotent and thread-safe.
 */
public final class RegistrationLease implements AutoCloseable {
    private final RegistrationCache cache;
    /** Set again, with {@link #memory}, when the cache reuses this closed lease (under its lock, before {@link #closed}). */
    private RegistrationCache.Entry entry;
    private MemorySegment memory;
    /** Guarded by the cache's lock; volatile for the accessors' check. */
    private volatile boolean closed;

    RegistrationLease(RegistrationCache cache, RegistrationCache.Entry entry, MemorySegment memory) {
        this.cache = cache;
        this.entry = entry;
        this.memory = memory;
    }

    /**
     * The registration: it contains {@link #memory()} and may be larger (a range registered
     * earlier that contains this one).
     *
     * @return the memory region
     * @throws IllegalStateException once the lease is closed
     */
    public MemoryRegion region() {
        requireOpen();
        return entry.registered.region();
    }

    /**
     * The caller's memory this lease was acquired for.
     *
     * @return the memory
     */
    public MemorySegment memory() {
        return memory;
    }

    /**
     * The local key for scatter/gather entries over {@link #memory()}.
     *
     * @return the region's lkey
     * @throws IllegalStateException once the lease is closed
     */
    public int lkey() {
        return region().lkey();
    }

    /**
     * The remote key a peer uses to reach {@link #memory()} by RDMA at {@link #address()}.
     *
     * @return the region's rkey
     * @throws IllegalStateException once the lease is closed
     */
    public int rkey() {
        return region().rkey();
    }

    /**
     * The address of {@link #memory()}, as work requests and a peer's RDMA name it.
     *
     * @return the memory's address
     */
    public long address() {
        return memory.address();
    }

    /**
     * Where {@link #memory()} starts inside {@link #region()}: the offset for scatter/gather
     * entries ({@code sge(lease.region(), lease.offset(), length)}), 0 unless the registration
     * is a larger range registered earlier.
     *
     * @return the offset in bytes
     * @throws IllegalStateException once the lease is closed
     */
    public long offset() {
        return memory.address() - region().memoryAddress();
    }

    /**
     * Whether the lease is still open.
     *
     * @return whether the lease is still open
     */
    public boolean isOpen() {
        return !closed;
    }

    /** Releases the registration: once no lease holds it, the cache may evict it. Idempotent. */
    @Override
    public void close() {
        cache.release(this);
    }

    RegistrationCache.Entry entry() {
        return entry;
    }

    boolean belongsTo(RegistrationCache owner) {
        return cache == owner;
    }

    /** This closed lease now stands for a lease on {@code newEntry} for {@code newMemory}. Called under the cache's lock. */
    void reopen(RegistrationCache.Entry newEntry, MemorySegment newMemory) {
        entry = newEntry;
        memory = newMemory;
        closed = false;
    }

    /** Marks the lease closed; false when it already was. Called under the cache's lock. */
    boolean markClosed() {
        if (closed) {
            return false;
        }
        closed = true;
        return true;
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("registration lease is closed: its registration may be evicted");
        }
    }

    @Override
    public String toString() {
        return "RegistrationLease[0x" + Long.toHexString(memory.address()) + ", " + memory.byteSize() + " bytes"
                + (closed ? ", closed]" : "]");
    }
}
