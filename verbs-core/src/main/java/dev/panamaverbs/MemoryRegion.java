package dev.panamaverbs;

import dev.panamaverbs.loader.internal.Pointers;
import dev.panamaverbs.ffm.ibv_mr;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.ffm.invoke.verbs_h;
import dev.panamaverbs.loader.internal.InlineVerbs;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Registered memory (C {@code struct ibv_mr}): native memory the device may read and write, named
 * in work requests by {@link #lkey()} (locally) and {@link #rkey()} (by the remote side).
 *
 * <p>Created by {@link ProtectionDomain#register(MemorySegment, Set)} and its variants; closing it
 * deregisters ({@code ibv_dereg_mr}). Deregistration invalidates the region for later use: after
 * {@link #close()} every accessor, {@link #lkey()} included, throws {@link IllegalStateException}.
 *
 * <h2>Memory lifetime</h2>
 * The region keeps the user's {@link MemorySegment} referenced, so memory of an automatic arena
 * is not freed while registered. Closing the segment's arena while the region is registered is
 * the caller's bug; what it can and cannot do:
 * <ul>
 *   <li>It cannot crash the binding: nothing here reads or writes the registered memory, the
 *       kernel pinned its pages at registration and holds them until {@code ibv_dereg_mr}, and
 *       Java access through {@link #memory()} fails with the arena's own
 *       {@link IllegalStateException}.</li>
 *   <li>The device still owns the range until the region is closed: receives and incoming RDMA
 *       writes land in those pages even if the allocator has handed them out again. Close the
 *       region first, or let the region own its memory:
 *       {@link ProtectionDomain#allocateMemoryRegion(long, Set)} frees it only after
 *       deregistration.</li>
 * </ul>
 *
 * <h2>Addresses</h2>
 * The device sees the region at {@link #iova()} ... {@code iova() + length() - 1}: work requests
 * (local scatter/gather entries and the remote address of RDMA operations) use that range. For
 * regions registered without an explicit I/O virtual address it equals the memory's own address,
 * {@link #memoryAddress()}.
 */
public final class MemoryRegion extends VerbsResource {
    /** Alignment of memory the region allocates itself: a page, so no other object shares its pages. */
    private static final long PAGE_SIZE = 4096;
    private final ProtectionDomain protectionDomain;
    /** The registered user memory; null for a dma-buf region (no CPU mapping). Kept to pin it GC-wise. */
    private final MemorySegment memory;
    /** The arena of memory this region allocated itself; closed after deregistration. Null otherwise. */
    private final Arena ownedArena;
    private final EnumSet<AccessFlag> access;
    private final long memoryAddress;
    private final long length;
    private final long iova;
    // ibv_mr's keys never change after registration (rereg is not offered): cached so the data
    // path reads a Java field, not native memory.
    private final int lkey;
    private final int rkey;
    /** What the region is when it has no host memory ("a dma-buf", "a device memory", "a null"), else null. */
    private final String hostless;

    private MemoryRegion(ProtectionDomain protectionDomain, MemorySegment handle, MemorySegment memory,
            Arena ownedArena, EnumSet<AccessFlag> access, long iova) {
        this(protectionDomain, handle, memory, ownedArena, access, iova, memory == null ? "a dma-buf" : null,
                new VerbsResource[] {protectionDomain});
    }

    /** As above, depending on {@code dependencies} (the domain first; device memory after it). */
    private MemoryRegion(ProtectionDomain protectionDomain, MemorySegment handle, MemorySegment memory,
            Arena ownedArena, EnumSet<AccessFlag> access, long iova, String hostless, VerbsResource[] dependencies) {
        super("MemoryRegion", handle, dependencies);
        this.hostless = hostless;
        this.protectionDomain = protectionDomain;
        this.memory = memory;
        this.ownedArena = ownedArena;
        this.access = access;
        this.memoryAddress = ibv_mr.addr(handle).address();
        this.length = ibv_mr.length(handle);
        this.iova = iova;
        this.lkey = ibv_mr.lkey(handle);
        this.rkey = ibv_mr.rkey(handle);
    }


    // ---- factory hooks (ProtectionDomain's public methods delegate here) ----

    /**
     * {@code ibv_reg_mr}, the header macro (through the loader's {@code InlineVerbs.regMr}):
     * access flags from the optional range (e.g. {@link AccessFlag#RELAXED_ORDERING}) go through
     * {@code ibv_reg_mr_iova2} at the memory's own address, as the macro does.
     */
    static MemoryRegion register(ProtectionDomain pd, MemorySegment memory, Set<AccessFlag> access) {
        String verb = "ibv_reg_mr";
        Objects.requireNonNull(pd, verb + ": protection domain is null");
        EnumSet<AccessFlag> flags = RegistrationChecks.checkAccess(verb, access);
        RegistrationChecks.checkMemory(verb, memory, flags);
        pd.acquire();
        try {
            checkOnDemandPaging(verb, pd, flags);
            MemorySegment mr = regMr(pd, memory.address(), memory.byteSize(), flags);
            return publish(pd, mr, memory, null, flags, memory.address());
        } finally {
            pd.release();
        }
    }

    /**
     * The {@code ibv_reg_mr} macro over {@code length} bytes at {@code address}: optional-range
     * flags need {@code ibv_reg_mr_iova2}, reported by name when libibverbs lacks it.
     */
    private static MemorySegment regMr(ProtectionDomain pd, long address, long length, Set<AccessFlag> flags) {
        int bits = BitFlag.toBits(flags);
        if ((bits & InlineVerbs.ACCESS_OPTIONAL_RANGE) != 0) {
            Capability.REG_MR_IOVA2.require("ibv_reg_mr");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            long mr = InlineVerbs.regMr(state, pd.handleAddress(), address, length, bits);
            return NativeCalls.checkPointer("ibv_reg_mr", MemorySegment.ofAddress(mr), CallState.errno(state));
        }
    }

    /**
     * {@code ibv_reg_mr} over {@code byteSize} bytes of zeroed, page-aligned native memory that the
     * region allocates and owns: the memory is freed when the region closes, after
     * {@code ibv_dereg_mr}, so it can never be freed while the device may still use it.
     */
    static MemoryRegion allocate(ProtectionDomain pd, long byteSize, Set<AccessFlag> access) {
        String verb = "ibv_reg_mr";
        Objects.requireNonNull(pd, verb + ": protection domain is null");
        EnumSet<AccessFlag> flags = RegistrationChecks.checkAccess(verb, access);
        VerbsResource.requireOpen(pd);
        RegistrationChecks.checkRegionSize(verb, byteSize, () -> pd.parentContext().maxAttributes().maxMrSize());
        SizeLimits.checkPinnable(verb, byteSize);
        // Shared: the region may be closed from any thread, and closing it closes this arena.
        Arena arena = Arena.ofShared();
        boolean registered = false;
        try {
            MemorySegment memory = arena.allocate(byteSize, PAGE_SIZE);
            pd.acquire();
            try {
                checkOnDemandPaging(verb, pd, flags);
                MemorySegment mr = regMr(pd, memory.address(), byteSize, flags);
                MemoryRegion region = publish(pd, mr, memory, arena, flags, memory.address());
                registered = true;
                return region;
            } finally {
                pd.release();
            }
        } finally {
            // A failed register() in publish() has already deregistered and closed the arena.
            if (!registered && arena.scope().isAlive()) {
                arena.close();
            }
        }
    }

    /**
     * {@code ibv_reg_mr_iova2}: registers {@code memory} so that the device sees it at
     * {@code iova}. Needs the symbol (libibverbs IBVERBS_1.8).
     */
    static MemoryRegion register(ProtectionDomain pd, MemorySegment memory, Set<AccessFlag> access, long iova) {
        String verb = "ibv_reg_mr_iova2";
        Objects.requireNonNull(pd, verb + ": protection domain is null");
        EnumSet<AccessFlag> flags = RegistrationChecks.checkAccess(verb, access);
        RegistrationChecks.checkMemory(verb, memory, flags);
        Capability.REG_MR_IOVA2.require(verb);
        pd.acquire();
        try (Arena arena = Arena.ofConfined()) {
            checkOnDemandPaging(verb, pd, flags);
            MemorySegment state = CallState.allocate(arena);
            MemorySegment mr = verbs_h.ibv_reg_mr_iova2(state, pd.handleSegment(), memory,
                    memory.byteSize(), iova, BitFlag.toBits(flags));
            NativeCalls.checkPointer("ibv_reg_mr_iova2", mr, CallState.errno(state));
            return publish(pd, mr, memory, null, flags, iova);
        } finally {
            pd.release();
        }
    }

    /**
     * {@code ibv_reg_dmabuf_mr}: registers {@code length} bytes at {@code offset} of the dma-buf
     * {@code fd} (e.g. GPU memory), seen by the device at {@code iova}. Needs the symbol
     * (IBVERBS_1.12) and a provider that implements it (SoftRoCE does not): otherwise
     * {@link dev.panamaverbs.VerbsUnsupportedException}.
     */
    static MemoryRegion registerDmabuf(ProtectionDomain pd, long offset, long length, long iova, int fd,
            Set<AccessFlag> access) {
        String verb = "ibv_reg_dmabuf_mr";
        Objects.requireNonNull(pd, verb + ": protection domain is null");
        EnumSet<AccessFlag> flags = RegistrationChecks.checkAccess(verb, access);
        RegistrationChecks.checkDmabuf(verb, offset, length, fd);
        Capability.REG_DMABUF_MR.require(verb);
        pd.acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            MemorySegment mr = verbs_h.ibv_reg_dmabuf_mr(state, pd.handleSegment(), offset, length, iova, fd,
                    BitFlag.toBits(flags));
            NativeCalls.checkPointer(verb, mr, CallState.errno(state));
            return publish(pd, mr, null, null, flags, iova);
        } finally {
            pd.release();
        }
    }

    /**
     * {@link AccessFlag#ON_DEMAND} needs a device with on-demand paging ({@code odp_caps}); asking
     * the device's cached attributes answers before the kernel would (EOPNOTSUPP).
     */
    private static void checkOnDemandPaging(String verb, ProtectionDomain pd, Set<AccessFlag> flags) {
        if (!flags.contains(AccessFlag.ON_DEMAND)) {
            return;
        }
        boolean supported = pd.parentContext().maxAttributes().extended()
                .map(extended -> extended.onDemandPaging().supported())
                .orElse(false);
        if (!supported) {
            throw new VerbsUnsupportedException(verb, "ON_DEMAND access needs on-demand paging, which "
                    + pd.parentContext().device().name() + " does not support (odp_caps.general_caps lacks IBV_ODP_SUPPORT)");
        }
    }

    private static MemoryRegion publish(ProtectionDomain pd, MemorySegment mr, MemorySegment memory, Arena ownedArena,
            EnumSet<AccessFlag> flags, long iova) {
        MemoryRegion region = new MemoryRegion(pd, Pointers.sized(mr, ibv_mr.SIZE), memory, ownedArena, flags, iova);
        region.register();
        return region;
    }

    /**
     * A region the loader created without host memory ({@code ibv_reg_dm_mr}, {@code
     * ibv_alloc_null_mr}): published under {@code pd}, and under {@code deviceMemory} too when
     * non-null, so that closing the device memory deregisters the region first.
     */
    static MemoryRegion adopt(ProtectionDomain pd, MemorySegment mr, EnumSet<AccessFlag> flags, long iova,
            DeviceMemory deviceMemory) {
        VerbsResource[] dependencies = deviceMemory == null ? new VerbsResource[] {pd}
                : new VerbsResource[] {pd, deviceMemory};
        MemoryRegion region = new MemoryRegion(pd, Pointers.sized(mr, ibv_mr.SIZE), null, null, flags, iova,
                deviceMemory == null ? "a null" : "a device memory", dependencies);
        region.register();
        return region;
    }

    /** {@code ibv_dereg_mr}, then frees memory the region owns (only once the device lets go of it). */
    @Override
    void destroy() {
        int rc;
        try (Arena arena = Arena.ofConfined()) {
            rc = verbs_h.ibv_dereg_mr(CallState.allocate(arena), handleSegment());
        }
        // On failure the registration may still stand: leaking the owned memory is the safe choice.
        NativeCalls.checkReturnedErrno("ibv_dereg_mr", rc);
        if (ownedArena != null) {
            ownedArena.close();
        }
    }

    @Override
    String describe() {
        return "lkey=0x" + Integer.toHexString(lkey) + ", rkey=0x" + Integer.toHexString(rkey)
                + ", iova=0x" + Long.toHexString(iova) + ", length=" + length;
    }

    // ---- accessors: all fail once deregistered ----

    private void requireOpen() {
        if (isClosed()) {
            throw closedException();
        }
    }

    /**
     * The protection domain the region belongs to ({@code ibv_mr.pd}).
     *
     * @return the protection domain the region belongs to ({@code ibv_mr.pd})
     */
    public ProtectionDomain protectionDomain() {
        requireOpen();
        return protectionDomain;
    }

    /**
     * The local key ({@code ibv_mr.lkey}): put it in scatter/gather entries that point into this region.
     *
     * @return the local key ({@code ibv_mr.lkey}): put it in scatter/gather entries that point into this region
     */
    public int lkey() {
        requireOpen();
        return lkey;
    }

    /**
     * The remote key ({@code ibv_mr.rkey}): give it to the peer for RDMA read, write and atomics.
     *
     * @return the remote key ({@code ibv_mr.rkey}): give it to the peer for RDMA read, write and atomics
     */
    public int rkey() {
        requireOpen();
        return rkey;
    }

    /**
     * The start of the registered memory in this process ({@code ibv_mr.addr}).
     *
     * @return the start of the registered memory in this process ({@code ibv_mr.addr})
     */
    public long memoryAddress() {
        requireOpen();
        return memoryAddress;
    }

    /**
     * The registered length in bytes ({@code ibv_mr.length}).
     *
     * @return the registered length in bytes ({@code ibv_mr.length})
     */
    public long length() {
        requireOpen();
        return length;
    }

    /**
     * The address at which the device sees the start of the region: the {@code iova} given to
     * {@code ibv_reg_mr_iova2}/{@code ibv_reg_dmabuf_mr}, else {@link #memoryAddress()}.
     *
     * @return the address at which the device sees the start of the region: the {@code iova} given to {@code ibv_reg_mr_iova2}/{@code ibv_reg_dmabuf_mr}, else {@link #memoryAddress()}
     */
    public long iova() {
        requireOpen();
        return iova;
    }

    /**
     * The access rights granted at registration (a copy).
     *
     * @return the access rights granted at registration (a copy)
     */
    public EnumSet<AccessFlag> access() {
        requireOpen();
        return access.clone();
    }

    /**
     * True for a region over a dma-buf ({@code ibv_reg_dmabuf_mr}), which has no memory in this process.
     *
     * @return true for a region over a dma-buf ({@code ibv_reg_dmabuf_mr}), which has no memory in this process
     */
    public boolean isDmabuf() {
        requireOpen();
        return "a dma-buf".equals(hostless);
    }

    /**
     * The registered memory: the segment given at registration.
     *
     * @throws UnsupportedOperationException for a dma-buf, device memory or null region
     * @return the registered memory: the segment given at registration
     */
    public MemorySegment memory() {
        requireOpen();
        if (memory == null) {
            throw new UnsupportedOperationException(this + " is " + hostless + " region: it has no memory in this process");
        }
        return memory;
    }

    /**
     * The part {@code [offset, offset + length)} of the registered memory, e.g. to fill a buffer
     * before posting it.
     *
     * @throws IndexOutOfBoundsException if the range is not inside the region
     * @param offset the offset in bytes
     * @param length the length in bytes
     * @return the part {@code [offset, offset + length)} of the registered memory
     */
    public MemorySegment slice(long offset, long length) {
        return memory().asSlice(offset, length);
    }

    /**
     * Whether the device-side range {@code [address, address + length)} (the addresses work
     * requests carry, see the class comment) lies inside this region. An empty range counts when
     * its address is inside or at the end of the region.
     *
     * @param address the address
     * @param length the length in bytes
     * @return whether the device-side range {@code [address, address + length)} (the addresses work requests carry, see the class comment) lies inside this region
     */
    public boolean contains(long address, long length) {
        requireOpen();
        return RegistrationChecks.rangeInside(iova, this.length, address, length);
    }

    /**
     * The device-side address of byte {@code offset}, after checking that
     * {@code [offset, offset + length)} lies inside the region: what a scatter/gather entry or a
     * remote address for this part of the region must hold.
     *
     * @throws IndexOutOfBoundsException if the range is not inside the region
     * @throws IllegalStateException if the region is deregistered
     * @param offset the offset in bytes
     * @param length the length in bytes
     * @return the device-side address of byte {@code offset}, after checking that {@code [offset, offset + length)} lies inside the region: what a scatter/gather entry or a remote address for this part of the region must hold
     */
    public long addressAt(long offset, long length) {
        requireOpen();
        Objects.checkFromIndexSize(offset, length, this.length);
        return iova + offset;
    }
}
