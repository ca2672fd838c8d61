package dev.panamaverbs;

import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.DeviceAttributes;
import dev.panamaverbs.values.MemoryWindowType;
import dev.panamaverbs.values.SharedReceiveQueueOptions;
import dev.panamaverbs.values.WorkQueueState;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.ibv_parent_domain_init_attr;
import dev.panamaverbs.ffm.ibv_pd;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.ObjectVerbs;
import dev.panamaverbs.gateway.Pointers;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.Set;

/**
 * A protection domain (C {@code struct ibv_pd}): the scope that ties memory regions, windows,
 * address handles, shared receive queues and queue pairs together; a queue pair can only use
 * memory registered in its own domain. Allocated by {@link Context#allocateProtectionDomain()}
 * ({@code ibv_alloc_pd}); {@link #close()} closes everything created from it, newest first, then
 * frees it ({@code ibv_dealloc_pd}).
 */
public final class ProtectionDomain extends VerbsResource {
    private final Context context;
    /** {@code ibv_pd.handle}, the kernel's id, copied while the native object is alive (for toString). */
    private final int kernelHandle;

    /**
     * The open type 2 windows of this domain, so that a LOCAL_INV posted on one of its queue pairs
     * can mark the window whose rkey it names free again ({@link #invalidated}). Guarded by itself.
     */
    private final java.util.List<MemoryWindow> type2Windows = new java.util.ArrayList<>();

    /** True for a domain imported from another process ({@code ibv_import_pd}): closing unimports it. */
    private final boolean imported;

    private ProtectionDomain(Context context, MemorySegment handle, boolean imported) {
        super("ProtectionDomain", handle, context);
        this.context = context;
        this.kernelHandle = ibv_pd.handle(handle);
        this.imported = imported;
    }

    /** A parent domain: depends on its protection domain and, if any, its thread domain. */
    private ProtectionDomain(Context context, MemorySegment handle, VerbsResource... dependencies) {
        super("ParentDomain", handle, dependencies);
        this.context = context;
        this.kernelHandle = ibv_pd.handle(handle);
        this.imported = false;
    }

    /** {@code ibv_alloc_parent_domain}: the factory hook behind {@link #allocateParentDomain(ThreadDomain)}. */
    private static ProtectionDomain allocateParent(ProtectionDomain pd, ThreadDomain td) {
        String verb = "ibv_alloc_parent_domain";
        if (td != null && td.context() != pd.context()) {
            throw new IllegalArgumentException(verb + ": the thread domain belongs to another context than the domain");
        }
        pd.acquire();
        if (td != null) {
            td.acquire();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_parent_domain_init_attr.LAYOUT);
            ibv_parent_domain_init_attr.pd(attr, pd.handleSegment());
            ibv_parent_domain_init_attr.td(attr, td == null ? MemorySegment.NULL : td.handleSegment());
            MemorySegment state = CallState.allocate(arena);
            long parent = IbverbsCalls.ibv_alloc_parent_domain(state, pd.context.handleAddress(), attr.address());
            NativeCalls.checkPointer(verb, MemorySegment.ofAddress(parent), CallState.errno(state));
            ProtectionDomain domain = new ProtectionDomain(pd.context, Pointers.sized(parent, ibv_pd.SIZE),
                    td == null ? new VerbsResource[] {pd} : new VerbsResource[] {pd, td});
            domain.register();
            return domain;
        } finally {
            if (td != null) {
                td.release();
            }
            pd.release();
        }
    }

    /**
     * {@code ibv_alloc_parent_domain}: a parent domain over this protection domain, usable wherever
     * a {@code ProtectionDomain} is (queue pairs, regions, shared receive queues created from it
     * belong to this domain); with a {@code threadDomain}, the provider may drop its locks for the
     * objects created from it. Freed by {@code ibv_dealloc_pd} when closed; closing this domain or
     * the thread domain closes it first. SoftRoCE has none ({@link VerbsUnsupportedException},
     * EOPNOTSUPP).
     *
     * @param threadDomain the thread domain, or null for none
     * @return the parent domain
     * @throws IllegalArgumentException if the thread domain is of another context
     * @throws VerbsUnsupportedException if the provider has no parent domains
     * @throws VerbsException if the verb fails otherwise
     */
    public ProtectionDomain allocateParentDomain(ThreadDomain threadDomain) {
        return allocateParent(this, threadDomain);
    }

    /**
     * {@code ibv_reg_dm_mr}: registers {@code length} bytes at {@code offset} of device memory so
     * work requests reach it through the region's keys. The region is zero-based
     * ({@code IBV_ACCESS_ZERO_BASED} is always added): addresses in work requests count from 0.
     * Closing the device memory closes the region first.
     *
     * @param memory the device memory, of this domain's context
     * @param offset the offset in the device memory
     * @param length the bytes to register, above 0
     * @param access the access flags
     * @return the region
     * @throws IllegalArgumentException for a range outside the device memory, another context, or
     *         remote write/atomic access without local write
     * @throws VerbsException if the verb fails
     */
    public MemoryRegion registerDeviceMemory(DeviceMemory memory, long offset, long length, Set<AccessFlag> access) {
        return RegionRegistration.registerDeviceMemory(regionDomain(), memory, offset, length, access);
    }

    /**
     * {@code ibv_alloc_null_mr}: a region with an lkey only, whose scatter/gather entries read
     * nothing and drop what is written to them (e.g. to discard part of a receive). SoftRoCE has
     * none ({@link VerbsUnsupportedException}, EOPNOTSUPP).
     *
     * @return the region
     * @throws VerbsUnsupportedException if the provider has no null regions
     * @throws VerbsException if the verb fails otherwise
     */
    public MemoryRegion allocateNullMemoryRegion() {
        return RegionRegistration.allocateNull(regionDomain());
    }

    /** This domain as the region verbs see it: itself, its context, and the region code that names it. */
    private RegionRegistration.Domain regionDomain() {
        return new RegionRegistration.Domain(this, context,
                (verb, flags) -> MemoryRegion.checkOnDemandPaging(verb, this, flags),
                (handle, memory, arena, flags, iova) -> MemoryRegion.over(this, handle, memory, arena, flags, iova),
                (handle, flags, deviceMemory) -> MemoryRegion.hostless(this, handle, flags, deviceMemory));
    }

    /** {@code ibv_alloc_pd}: the factory hook behind {@link Context#allocateProtectionDomain()}. */
    static ProtectionDomain allocate(Context context) {
        Objects.requireNonNull(context, "ibv_alloc_pd: context is null");
        context.acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            MemorySegment pd = IbverbsCalls.ibv_alloc_pd(state, context.handleSegment());
            NativeCalls.checkPointer("ibv_alloc_pd", pd, CallState.errno(state));
            ProtectionDomain domain = new ProtectionDomain(context, Pointers.sized(pd, ibv_pd.SIZE), false);
            domain.register();
            return domain;
        } finally {
            context.release();
        }
    }

    /** {@code ibv_import_pd}: the factory hook behind {@link Context#importProtectionDomain(int)}. */
    static ProtectionDomain importFrom(Context context, int pdHandle) {
        String verb = "ibv_import_pd";
        Objects.requireNonNull(context, verb + ": context is null");
        return ResourceCreation.importFrom(verb, ibv_pd.SIZE, context,
                state -> ObjectVerbs.importPd(state, context.handleAddress(), pdHandle),
                handle -> new ProtectionDomain(context, handle, true));
    }

    /**
     * The kernel's handle of this domain ({@code ibv_pd.handle}): what another process passes to
     * {@code ibv_import_pd} ({@link Context#importProtectionDomain(int)}).
     *
     * @return the kernel handle
     * @throws IllegalStateException if closed
     */
    public int kernelHandle() {
        return whileOpen(kernelHandle);
    }

    /**
     * True for a domain imported from another process ({@code ibv_import_pd}): closing it calls
     * {@code ibv_unimport_pd}; the exporter deallocates it.
     *
     * @return whether the domain is imported
     * @throws IllegalStateException if closed
     */
    public boolean isImported() {
        return whileOpen(imported);
    }

    /**
     * {@code ibv_import_mr}: the memory region with kernel handle {@code mrHandle}
     * ({@link MemoryRegion#kernelHandle()} in the exporting process), registered in the domain
     * this one imports. A child of this domain; closing it calls {@code ibv_unimport_mr}: the
     * exporter deregisters it. Its keys, address and length are the exporter's; it has no memory
     * in this process.
     *
     * @param mrHandle the kernel handle of the region
     * @return the imported region
     * @throws VerbsUnsupportedException when the provider cannot import (its errno), or
     *         libibverbs is older than 1.10 ({@link Capability#IMPORT})
     * @throws VerbsException with the errno on another failure
     * @throws IllegalStateException if closed
     */
    public MemoryRegion importMemoryRegion(int mrHandle) {
        return MemoryRegion.importFrom(this, mrHandle);
    }

    @Override
    protected String describe() {
        return (imported ? "imported, handle=" : "handle=") + kernelHandle;
    }

    /** {@code ibv_dealloc_pd}; {@code ibv_unimport_pd} for an imported domain. */
    @Override
    protected void destroy() {
        if (imported) {
            ObjectVerbs.unimportPd(handleAddress());
            return;
        }
        NativeCalls.destroy("ibv_dealloc_pd", IbverbsCalls::ibv_dealloc_pd, handleSegment());
    }

    /**
     * The context the domain was allocated on ({@code ibv_pd.context}).
     *
     * @return the context the domain was allocated on ({@code ibv_pd.context})
     */
    public Context context() {
        return whileOpen(context);
    }

    /** The parent without the closed check, for children that still need it while the domain closes. */
    Context parentContext() {
        return context;
    }

    /**
     * {@code ibv_reg_mr}: registers {@code memory}, a native segment (e.g. from
     * {@code Arena.allocate}), so the device may access it with {@code access}. Access flags from
     * the optional range, such as {@link AccessFlag#RELAXED_ORDERING}, follow the header macro:
     * they go through {@code ibv_reg_mr_iova2}, which masks them where the kernel lacks them.
     *
     * <p>The region keeps {@code memory} referenced while registered. Closing its arena before
     * closing the region is a bug (see {@link MemoryRegion}): the kernel keeps the pages pinned
     * until {@code ibv_dereg_mr}, but the device may still write into them. Prefer
     * {@link #allocateMemoryRegion(long, Set)} when the region can own its memory.
     *
     * @throws IllegalArgumentException for a heap or empty segment, a closed arena, a read-only
     *         segment with write access, or remote write/atomic access without local write
     * @throws dev.panamaverbs.VerbsUnsupportedException for {@link AccessFlag#ON_DEMAND}
     *         on a device without on-demand paging, or optional-range flags without
     *         {@code ibv_reg_mr_iova2} in libibverbs
     * @throws IllegalStateException if this domain is closed
     * @throws dev.panamaverbs.VerbsException when the verb fails (e.g. ENOMEM: the locked
     *         memory limit, {@code ulimit -l}, is too low)
     * @param memory the native memory to register
     * @param access the access flags
     * @return {@code ibv_reg_mr}: registers {@code memory}, a native segment
     */
    public MemoryRegion register(MemorySegment memory, Set<AccessFlag> access) {
        return RegionRegistration.register(regionDomain(), memory, access);
    }

    /**
     * {@code ibv_reg_mr} over {@code byteSize} bytes of new zeroed, page-aligned native memory
     * owned by the region ({@link MemoryRegion#memory()}): closing the region deregisters it and
     * only then frees the memory, so the memory can never be freed while the device may use it.
     *
     * @throws IllegalArgumentException for a size not above 0, above the device's
     *         {@code max_mr_size} ({@link DeviceAttributes#maxMrSize()}) or above the machine's
     *         physical memory ({@code MemTotal}: registered memory is pinned), or forbidden
     *         access combinations; all before allocating
     * @param byteSize the size in bytes
     * @param access the access flags
     * @return {@code ibv_reg_mr} over {@code byteSize} bytes of new zeroed, page-aligned native memory owned by the region ({@link MemoryRegion#memory()}): closing the region deregisters it and only then frees the memory, so the memory can never be freed while the device may use it
     */
    public MemoryRegion allocateMemoryRegion(long byteSize, Set<AccessFlag> access) {
        return RegionRegistration.allocate(regionDomain(), byteSize, access);
    }

    /**
     * {@code ibv_reg_mr_iova2}: as {@link #register(MemorySegment, Set)}, but the device sees the
     * memory at {@code iova} (work requests and the remote side address it from there).
     *
     * @throws dev.panamaverbs.VerbsUnsupportedException when libibverbs lacks
     *         {@code ibv_reg_mr_iova2} (older than IBVERBS_1.8)
     * @param memory the native memory to register
     * @param access the access flags
     * @param iova the I/O virtual address
     * @return {@code ibv_reg_mr_iova2}: as {@link #register(MemorySegment, Set)}, but the device sees the memory at {@code iova} (work requests and the remote side address it from there)
     */
    public MemoryRegion register(MemorySegment memory, Set<AccessFlag> access, long iova) {
        return RegionRegistration.register(regionDomain(), memory, access, iova);
    }

    /**
     * {@code ibv_reg_dmabuf_mr}: registers {@code length} bytes at {@code offset} of the dma-buf
     * behind {@code fd} (e.g. GPU memory exported by its driver), seen by the device at {@code iova}.
     *
     * @throws dev.panamaverbs.VerbsUnsupportedException when libibverbs lacks the symbol or
     *         the provider does not support dma-buf (SoftRoCE does not)
     * @param offset the offset in bytes
     * @param length the length in bytes
     * @param iova the I/O virtual address
     * @param fd the file descriptor
     * @param access the access flags
     * @return {@code ibv_reg_dmabuf_mr}: registers {@code length} bytes at {@code offset} of the dma-buf behind {@code fd}
     */
    public MemoryRegion registerDmabuf(long offset, long length, long iova, int fd, Set<AccessFlag> access) {
        return RegionRegistration.registerDmabuf(regionDomain(), offset, length, iova, fd, access);
    }

    /**
     * {@code ibv_alloc_mw}: a memory window of {@code type}.
     *
     * @throws dev.panamaverbs.VerbsUnsupportedException when the device has no windows of that type
     * @param type the window type (1 or 2)
     * @return the memory window
     */
    public MemoryWindow allocateMemoryWindow(MemoryWindowType type) {
        return MemoryWindow.allocate(this, type);
    }

    /**
     * {@code ibv_create_ah}: an address handle for sending to {@code attributes}' destination over
     * unreliable datagram queue pairs. On RoCE ports the attributes must carry a GRH.
     *
     * @param attributes the destination (its GID, LID, port and GRH)
     * @return the address handle
     */
    public AddressHandle createAddressHandle(AddressHandleAttributes attributes) {
        return AddressHandle.create(this, attributes);
    }

    /**
     * {@code ibv_create_ah_from_wc}: an address handle back to the sender of the datagram that
     * completed as entry {@code index} of {@code completions} (a UD server's reply path: send to
     * {@link Completions#sourceQp(int)} through it). See
     * {@link AddressHandleAttributes#fromCompletion} for {@code grh}.
     *
     * @param completions the polled completions
     * @param index       the receive's entry
     * @param grh         the first 40 bytes of the receive's buffer, or null without a GRH
     * @param port        the port the datagram arrived on
     * @return the address handle
     * @throws IllegalArgumentException for a port out of range, a failed completion, or a missing
     *         or short {@code grh} where the completion has one
     * @throws VerbsException if the verb fails
     */
    public AddressHandle createAddressHandle(Completions completions, int index, MemorySegment grh, int port) {
        return AddressHandle.fromCompletion(this, completions, index, grh, port);
    }

    /**
     * {@code ibv_create_qp}: a queue pair in this domain, see {@link QueuePairOptions}.
     *
     * @param options the queue pair's type, queues and limits
     * @return the new queue pair
     */
    public QueuePair createQueuePair(QueuePairOptions options) {
        return QueuePairCreation.create(this, parentContext(), options,
                (handle, granted, extended) -> new QueuePair(this, options, handle, granted, extended));
    }

    /**
     * {@code ibv_create_srq}: a shared receive queue in this domain, see {@link SharedReceiveQueueOptions}.
     *
     * @param options the queue's depth and scatter/gather limit
     * @return the shared receive queue
     */
    public SharedReceiveQueue createSharedReceiveQueue(SharedReceiveQueueOptions options) {
        return SharedReceiveQueue.create(this, options);
    }

    /**
     * {@code ibv_create_wq}: a receive work queue of this domain, see {@link WorkQueue}.
     *
     * @param options the completion queue and sizes
     * @return the work queue, in {@link WorkQueueState#RESET}
     * @throws IllegalArgumentException for a completion queue of another context
     * @throws VerbsUnsupportedException if the provider has no work queues (SoftRoCE: EOPNOTSUPP)
     * @throws VerbsException if the verb fails otherwise
     */
    public WorkQueue createWorkQueue(WorkQueueOptions options) {
        return WorkQueue.create(this, options);
    }

    /**
     * {@code ibv_create_srq_ex} with {@code IBV_SRQT_XRC}: an XRC shared receive queue of this
     * domain in {@code xrcDomain}, completing into {@code completionQueue}. XRC senders address it
     * by {@link SharedReceiveQueue#number()}. Closing the XRC domain or the queue closes it first.
     *
     * @param xrcDomain       the XRC domain, of this domain's context
     * @param completionQueue where its receives complete, of this domain's context
     * @param options         sizes and limit, checked against {@code max_srq_wr}/{@code max_srq_sge}
     * @return the shared receive queue
     * @throws IllegalArgumentException for another context or sizes above the device's
     * @throws VerbsUnsupportedException if the provider has no XRC
     * @throws VerbsException if the verb fails otherwise
     */
    public SharedReceiveQueue createXrcSharedReceiveQueue(XrcDomain xrcDomain, CompletionQueue completionQueue,
            SharedReceiveQueueOptions options) {
        return SharedReceiveQueue.createXrc(this, xrcDomain, completionQueue, options);
    }

    /** Tracks a new type 2 window of this domain (see {@link #invalidated}). */
    void addType2Window(MemoryWindow window) {
        synchronized (type2Windows) {
            type2Windows.add(window);
        }
    }

    /** Stops tracking a type 2 window (it is being freed). */
    void removeType2Window(MemoryWindow window) {
        synchronized (type2Windows) {
            type2Windows.remove(window);
        }
    }

    /**
     * A LOCAL_INV of {@code rkey} was posted on a queue pair of this domain: the type 2 window
     * bound with that rkey, if any, may be bound again. An index loop: allocates nothing.
     */
    void invalidated(int rkey) {
        synchronized (type2Windows) {
            for (int i = 0; i < type2Windows.size(); i++) {
                type2Windows.get(i).invalidatedIfRkey(rkey);
            }
        }
    }
}
