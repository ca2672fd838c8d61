package dev.panamaverbs;

import dev.panamaverbs.internal.RegistrationChecks;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.internal.SizeLimits;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.BitFlag;
import dev.panamaverbs.values.MemoryAdvice;
import dev.panamaverbs.gateway.Pointers;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.ibv_mr;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.InlineVerbs;
import dev.panamaverbs.gateway.ExtendedOps;
import dev.panamaverbs.gateway.ObjectVerbs;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_sge;
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
 * deregisters ({@code ibv_dereg_mr}). {@link #reregister(Set)} changes its access (and
 * {@link #reregister(MemorySegment, Set)} its memory) in place ({@code ibv_rereg_mr}), while no
 * post holds it; its keys are read again then. A region imported from another process
 * ({@link ProtectionDomain#importMemoryRegion(int)}) is unimported on close ({@code ibv_unimport_mr}). Deregistration invalidates the region for later use: after
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
    /** The arena of memory this region allocated itself; closed after deregistration. Null otherwise. */
    private final Arena ownedArena;
    /** True for a region imported from another process ({@code ibv_import_mr}): closing unimports it. */
    private final boolean imported;
    /** What the region is when it has no host memory ("a dma-buf", "an imported", "a device memory", "a null"), else null. */
    private final String hostless;
    // What ibv_rereg_mr may change: written only inside the region's exclusive use (reregister),
    // while no post holds the region; volatile so every thread sees the new values at once.
    /** The registered user memory; null for a region without host memory (no CPU mapping here). Kept to pin it GC-wise. */
    private volatile MemorySegment memory;
    private volatile EnumSet<AccessFlag> access;
    private volatile long memoryAddress;
    private volatile long length;
    private volatile long iova;
    // Cached so the data path reads a Java field, not native memory; reregister re-reads them.
    private volatile int lkey;
    private volatile int rkey;
    /**
     * Set when ibv_rereg_mr failed in the kernel (IBV_REREG_MR_ERR_CMD*): the region must only be
     * closed. {@link SendPath} reads the field itself, so a post runs no code of this file.
     */
    volatile boolean unusable;

    private MemoryRegion(ProtectionDomain protectionDomain, MemorySegment handle, MemorySegment memory,
            Arena ownedArena, EnumSet<AccessFlag> access, long iova, boolean imported) {
        this(protectionDomain, handle, memory, ownedArena, access, iova, imported,
                memory != null ? null : imported ? "an imported" : "a dma-buf", new VerbsResource[] {protectionDomain});
    }

    /** As above, depending on {@code dependencies} (the domain first; device memory after it). */
    private MemoryRegion(ProtectionDomain protectionDomain, MemorySegment handle, MemorySegment memory,
            Arena ownedArena, EnumSet<AccessFlag> access, long iova, boolean imported, String hostless,
            VerbsResource[] dependencies) {
        super("MemoryRegion", handle, dependencies);
        this.hostless = hostless;
        this.protectionDomain = protectionDomain;
        this.memory = memory;
        this.ownedArena = ownedArena;
        this.imported = imported;
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
            MemorySegment mr = IbverbsCalls.ibv_reg_mr_iova2(state, pd.handleSegment(), memory,
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
            MemorySegment mr = IbverbsCalls.ibv_reg_dmabuf_mr(state, pd.handleSegment(), offset, length, iova, fd,
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
        MemoryRegion region = new MemoryRegion(pd, Pointers.sized(mr, ibv_mr.SIZE), memory, ownedArena, flags, iova, false);
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
        MemoryRegion region = new MemoryRegion(pd, Pointers.sized(mr, ibv_mr.SIZE), null, null, flags, iova, false,
                deviceMemory == null ? "a null" : "a device memory", dependencies);
        region.register();
        return region;
    }

    /**
     * {@code ibv_dereg_mr}, then frees memory the region owns (only once the device lets go of it);
     * {@code ibv_unimport_mr} for an imported region (the exporting process still owns it).
     */
    @Override
    protected void destroy() {
        if (imported) {
            ObjectVerbs.unimportMr(handleAddress());
            return;
        }
        int rc;
        try (Arena arena = Arena.ofConfined()) {
            rc = IbverbsCalls.ibv_dereg_mr(CallState.allocate(arena), handleSegment());
        }
        // On failure the registration may still stand: leaking the owned memory is the safe choice.
        NativeCalls.checkReturnedErrno("ibv_dereg_mr", rc);
        if (ownedArena != null) {
            ownedArena.close();
        }
    }

    @Override
    protected String describe() {
        return "lkey=0x" + Integer.toHexString(lkey) + ", rkey=0x" + Integer.toHexString(rkey)
                + ", iova=0x" + Long.toHexString(iova) + ", length=" + length;
    }

    // ---- ibv_rereg_mr ----

    /**
     * {@code ibv_rereg_mr} with {@code IBV_REREG_MR_CHANGE_ACCESS}: the region keeps its memory
     * and domain and gets {@code access} instead of its access rights. {@link #lkey()} and
     * {@link #rkey()} are read again afterwards: a provider may change them, and requests built
     * before with the old keys must be built again.
     *
     * <p>Refused (IllegalStateException, before any native call) while a post holds the region
     * or a memory window is bound to it, and while another thread re-registers it; a concurrent
     * post is refused until this returns.
     *
     * @param access the new access rights (REMOTE_WRITE and REMOTE_ATOMIC need LOCAL_WRITE)
     * @throws VerbsUnsupportedException when the provider does not re-register (its errno)
     * @throws VerbsException with the errno on another failure; the region keeps its old
     *         registration unless the kernel failed the command ({@code IBV_REREG_MR_ERR_CMD}),
     *         after which it may only be closed
     * @throws IllegalStateException if closed, in use, or bound to a memory window
     */
    public void reregister(Set<AccessFlag> access) {
        requireOpen();
        String verb = "ibv_rereg_mr";
        EnumSet<AccessFlag> flags = RegistrationChecks.checkAccess(verb, access);
        rereg(verb, VerbsConstants.IBV_REREG_MR_CHANGE_ACCESS, null, flags);
    }

    /**
     * {@code ibv_rereg_mr} with {@code IBV_REREG_MR_CHANGE_TRANSLATION | IBV_REREG_MR_CHANGE_ACCESS}:
     * the region covers {@code memory} instead, with {@code access}, in the same domain; it keeps
     * {@code memory} referenced from now on (and no longer the old memory). The device sees the
     * new memory at its own address ({@link #iova()} becomes {@link #memoryAddress()}). Keys,
     * refusals and failures as {@link #reregister(Set)}.
     *
     * @param memory the native memory to cover instead
     * @param access the access rights
     * @throws UnsupportedOperationException for a region that owns its memory
     *         ({@link ProtectionDomain#allocateMemoryRegion}), a dma-buf or an imported region
     * @throws VerbsUnsupportedException when the provider does not re-register (its errno)
     * @throws VerbsException with the errno on another failure
     * @throws IllegalStateException if closed, in use, or bound to a memory window
     */
    public void reregister(MemorySegment memory, Set<AccessFlag> access) {
        requireOpen(); // a closed region says so before any question about its memory
        String verb = "ibv_rereg_mr";
        EnumSet<AccessFlag> flags = RegistrationChecks.checkAccess(verb, access);
        RegistrationChecks.checkMemory(verb, memory, flags);
        if (ownedArena != null || hostless != null) {
            throw new UnsupportedOperationException(verb + ": " + this + (ownedArena != null
                    ? " owns its memory: close it and register the new memory instead"
                    : " has no memory of this process to translate (" + hostless + " region)"));
        }
        rereg(verb, VerbsConstants.IBV_REREG_MR_CHANGE_TRANSLATION | VerbsConstants.IBV_REREG_MR_CHANGE_ACCESS,
                memory, flags);
    }

    private void rereg(String verb, int rereg, MemorySegment newMemory, EnumSet<AccessFlag> flags) {
        requireOpen();
        if (imported) {
            throw new UnsupportedOperationException(verb + ": " + this + " is imported: the exporting process owns it");
        }
        if (!liveDependents().isEmpty()) {
            throw new IllegalStateException(verb + ": " + this + " has memory windows bound to it " + liveDependents());
        }
        checkOnDemandPaging(verb, protectionDomain, flags);
        if (!tryBeginExclusive()) {
            requireOpen();
            throw new IllegalStateException(verb + ": " + this + " is in use (a post holds it, or another thread"
                    + " re-registers it)");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            long address = newMemory == null ? 0 : newMemory.address();
            long size = newMemory == null ? 0 : newMemory.byteSize();
            int rc = ObjectVerbs.reregMr(state, handleAddress(), rereg, 0, address, size, BitFlag.toBits(flags));
            int errno = CallState.errno(state);
            MemorySegment mr = handleSegment();
            if (rc == 0 || rc == VerbsConstants.IBV_REREG_MR_ERR_DO_FORK_OLD) {
                // The new registration stands (DO_FORK_OLD: only the old range's fork marking failed).
                lkey = ibv_mr.lkey(mr);
                rkey = ibv_mr.rkey(mr);
                access = flags;
                if (newMemory != null) {
                    memory = newMemory;
                    memoryAddress = ibv_mr.addr(mr).address();
                    length = ibv_mr.length(mr);
                    iova = memoryAddress;
                }
                if (rc == 0) {
                    return;
                }
            } else if (rc == VerbsConstants.IBV_REREG_MR_ERR_CMD || rc == VerbsConstants.IBV_REREG_MR_ERR_CMD_AND_DO_FORK_NEW) {
                if (!Errno.meansUnsupported(errno)) {
                    unusable = true;
                }
            }
            int reported = errno != 0 ? errno : Errno.EINVAL;
            if (Errno.meansUnsupported(reported)) {
                throw new VerbsUnsupportedException(verb, reported);
            }
            throw new VerbsException(verb, reported, verb + " answered " + rc + " (enum ibv_rereg_mr_err_code) for " + this);
        } finally {
            endExclusive();
        }
    }

    // ---- ibv_advise_mr ----

    /**
     * {@code ibv_advise_mr} over {@code [offset, offset + length)} of this region (one
     * scatter/gather entry): asks the device to fault in the pages of an on-demand-paging region
     * ({@link AccessFlag#ON_DEMAND}) before they are used.
     *
     * @param advice what to prefetch for
     * @param offset the offset in the region
     * @param length the length in bytes (1 .. 2^32-1)
     * @param flush  {@code IBV_ADVISE_MR_FLAG_FLUSH}: return only once the pages are mapped
     *               (synchronous); otherwise the provider may work in the background
     * @throws VerbsUnsupportedException when the provider has no {@code advise_mr} op, or answers
     *         EOPNOTSUPP (e.g. a region without on-demand paging)
     * @throws VerbsException with the provider's errno on another failure
     * @throws IndexOutOfBoundsException if the range is not inside the region
     * @throws IllegalStateException if closed
     */
    public void advise(MemoryAdvice advice, long offset, long length, boolean flush) {
        String verb = "ibv_advise_mr";
        java.util.Objects.requireNonNull(advice, verb + ": advice");
        requireOpen();
        java.util.Objects.checkFromIndexSize(offset, length, this.length);
        if (length == 0 || length > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException(verb + ": sge.length must be in 1..2^32-1, got " + length);
        }
        acquire();
        protectionDomain.acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sge = arena.allocate(ibv_sge.LAYOUT);
            ibv_sge.addr(sge, iova + offset);
            ibv_sge.length(sge, (int) length);
            ibv_sge.lkey(sge, lkey);
            int rc = IbverbsCalls.ibv_advise_mr(protectionDomain.handleAddress(), advice.value(),
                    flush ? VerbsConstants.IBV_ADVISE_MR_FLAG_FLUSH : 0, sge.address(), 1);
            if (rc != 0 && Errno.meansUnsupported(Math.abs(rc))) {
                throw new VerbsUnsupportedException(verb, Math.abs(rc));
            }
            NativeCalls.checkReturnedErrno(verb, rc);
        } finally {
            protectionDomain.release();
            release();
        }
    }

    // ---- ibv_import_mr ----

    /** {@code ibv_import_mr}: the factory hook behind {@link ProtectionDomain#importMemoryRegion(int)}. */
    static MemoryRegion importFrom(ProtectionDomain pd, int mrHandle) {
        return ResourceCreation.importFrom("ibv_import_mr", ibv_mr.SIZE, pd,
                state -> ObjectVerbs.importMr(state, pd.handleAddress(), mrHandle),
                sized -> new MemoryRegion(pd, sized, null, null, EnumSet.noneOf(AccessFlag.class),
                        ibv_mr.addr(sized).address(), true));
    }

    /**
     * The kernel's handle of this region ({@code ibv_mr.handle}): what another process passes to
     * {@code ibv_import_mr} ({@link ProtectionDomain#importMemoryRegion(int)}) on a context
     * imported from this one.
     *
     * @return the kernel handle
     * @throws IllegalStateException if closed
     */
    public int kernelHandle() {
        requireOpen();
        return ibv_mr.handle(handleSegment());
    }

    /**
     * True for a region imported from another process ({@code ibv_import_mr}): closing it
     * unimports it ({@code ibv_unimport_mr}), the exporter deregisters it; its access rights are
     * not known here ({@link #access()} is empty) and it has no memory in this process.
     *
     * @return whether the region is imported
     * @throws IllegalStateException if closed
     */
    public boolean isImported() {
        requireOpen();
        return imported;
    }

    // ---- accessors: all fail once deregistered ----

    private void requireOpen() {
        if (isClosed()) {
            throw closedException();
        }
        if (unusable) {
            throw new IllegalStateException(this + ": ibv_rereg_mr failed in the kernel, the region may only be closed");
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
     * @param address the range's first device address
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
