package dev.panamaverbs;

import dev.panamaverbs.ffm.ibv_mr;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.gateway.InlineVerbs;
import dev.panamaverbs.internal.RegistrationChecks;
import dev.panamaverbs.internal.SizeLimits;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.BitFlag;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Every verb that makes a memory region in a protection domain: {@code ibv_reg_mr} over the
 * caller's memory or memory the region allocates and owns, {@code ibv_reg_mr_iova2},
 * {@code ibv_reg_dmabuf_mr}, and the regions without host memory, over device memory
 * ({@code ibv_reg_dm_mr}) and the null region ({@code ibv_alloc_null_mr}). The factory hooks
 * behind the protection domain's register methods; the region itself, once made, is
 * {@link MemoryRegion}. The domain comes in as a {@link Domain}: what these verbs need of it.
 */
final class RegionRegistration {
    /** Alignment of memory a region allocates itself: a page, so no other object shares its pages. */
    private static final long PAGE_SIZE = 4096;

    private RegionRegistration() {}

    /**
     * The protection domain as the region verbs see it: the resource (held across the verb, its
     * handle passed to it), its context (device limits, the context device memory must share),
     * the on-demand-paging check of {@link MemoryRegion} and the two ways to wrap a new
     * {@code ibv_mr} as a region of it, which the domain supplies.
     */
    record Domain(VerbsResource pd, Context context, BiConsumer<String, Set<AccessFlag>> checkOnDemandPaging,
                  OverMemory over, Hostless hostless) {}

    /** {@link MemoryRegion}'s {@code over}: a region over host memory (null for a dma-buf). */
    @FunctionalInterface
    interface OverMemory {
        MemoryRegion wrap(MemorySegment handle, MemorySegment memory, Arena ownedArena, EnumSet<AccessFlag> flags, long iova);
    }

    /** {@link MemoryRegion}'s {@code hostless}: a region without host memory, on device memory or none. */
    @FunctionalInterface
    interface Hostless {
        MemoryRegion wrap(MemorySegment handle, EnumSet<AccessFlag> flags, DeviceMemory deviceMemory);
    }

    /**
     * {@code ibv_reg_mr}, the header macro (through the loader's {@code InlineVerbs.regMr}):
     * access flags from the optional range (e.g. {@link AccessFlag#RELAXED_ORDERING}) go through
     * {@code ibv_reg_mr_iova2} at the memory's own address, as the macro does.
     */
    static MemoryRegion register(Domain domain, MemorySegment memory, Set<AccessFlag> access) {
        String verb = "ibv_reg_mr";
        EnumSet<AccessFlag> flags = RegistrationChecks.checkAccess(verb, access);
        RegistrationChecks.checkMemory(verb, memory, flags);
        return make(verb, List.of(domain.pd()), regMr(domain, memory.address(), memory.byteSize(), flags),
                handle -> domain.over().wrap(handle, memory, null, flags, memory.address()));
    }

    /**
     * The {@code ibv_reg_mr} macro over {@code length} bytes at {@code address}, once the
     * on-demand-paging check passed: optional-range flags need {@code ibv_reg_mr_iova2}, reported
     * by name when libibverbs lacks it.
     */
    private static ToLongFunction<MemorySegment> regMr(Domain domain, long address, long length,
            EnumSet<AccessFlag> flags) {
        return state -> {
            domain.checkOnDemandPaging().accept("ibv_reg_mr", flags);
            int bits = BitFlag.toBits(flags);
            if ((bits & InlineVerbs.ACCESS_OPTIONAL_RANGE) != 0) {
                Capability.REG_MR_IOVA2.require("ibv_reg_mr");
            }
            return InlineVerbs.regMr(state, domain.pd().handleAddress(), address, length, bits);
        };
    }

    /**
     * {@code ibv_reg_mr} over {@code byteSize} bytes of zeroed, page-aligned native memory that the
     * region allocates and owns: the memory is freed when the region closes, after
     * {@code ibv_dereg_mr}, so it can never be freed while the device may still use it.
     */
    static MemoryRegion allocate(Domain domain, long byteSize, Set<AccessFlag> access) {
        String verb = "ibv_reg_mr";
        EnumSet<AccessFlag> flags = RegistrationChecks.checkAccess(verb, access);
        VerbsResource.requireOpen(domain.pd());
        RegistrationChecks.checkRegionSize(verb, byteSize, () -> domain.context().maxAttributes().maxMrSize());
        SizeLimits.checkPinnable(verb, byteSize);
        // Shared: the region may be closed from any thread, and closing it closes this arena.
        Arena arena = Arena.ofShared();
        boolean registered = false;
        try {
            MemorySegment memory = arena.allocate(byteSize, PAGE_SIZE);
            MemoryRegion region = make(verb, List.of(domain.pd()), regMr(domain, memory.address(), byteSize, flags),
                    handle -> domain.over().wrap(handle, memory, arena, flags, memory.address()));
            registered = true;
            return region;
        } finally {
            // A failed register() of the new region has already deregistered it and closed the arena.
            if (!registered && arena.scope().isAlive()) {
                arena.close();
            }
        }
    }

    /**
     * {@code ibv_reg_mr_iova2}: registers {@code memory} so that the device sees it at
     * {@code iova}. Needs the symbol (libibverbs IBVERBS_1.8).
     */
    static MemoryRegion register(Domain domain, MemorySegment memory, Set<AccessFlag> access, long iova) {
        String verb = "ibv_reg_mr_iova2";
        EnumSet<AccessFlag> flags = RegistrationChecks.checkAccess(verb, access);
        RegistrationChecks.checkMemory(verb, memory, flags);
        Capability.REG_MR_IOVA2.require(verb);
        return make(verb, List.of(domain.pd()), state -> {
            domain.checkOnDemandPaging().accept(verb, flags);
            return IbverbsCalls.ibv_reg_mr_iova2(state, domain.pd().handleSegment(), memory, memory.byteSize(), iova,
                    BitFlag.toBits(flags)).address();
        }, handle -> domain.over().wrap(handle, memory, null, flags, iova));
    }

    /**
     * {@code ibv_reg_dmabuf_mr}: registers {@code length} bytes at {@code offset} of the dma-buf
     * {@code fd} (e.g. GPU memory), seen by the device at {@code iova}. Needs the symbol
     * (IBVERBS_1.12) and a provider that implements it (SoftRoCE does not): otherwise
     * {@link dev.panamaverbs.VerbsUnsupportedException}.
     */
    static MemoryRegion registerDmabuf(Domain domain, long offset, long length, long iova, int fd,
            Set<AccessFlag> access) {
        String verb = "ibv_reg_dmabuf_mr";
        EnumSet<AccessFlag> flags = RegistrationChecks.checkAccess(verb, access);
        RegistrationChecks.checkDmabuf(verb, offset, length, fd);
        Capability.REG_DMABUF_MR.require(verb);
        return make(verb, List.of(domain.pd()), state -> IbverbsCalls.ibv_reg_dmabuf_mr(state, domain.pd().handleSegment(), offset, length,
                iova, fd, BitFlag.toBits(flags)).address(), handle -> domain.over().wrap(handle, null, null, flags, iova));
    }

    // ---- regions without host memory ----

    /**
     * {@code ibv_reg_dm_mr}: {@code length} bytes at {@code offset} of {@code memory}, always
     * zero-based ({@code IBV_ACCESS_ZERO_BASED} is added, as the verb requires): work requests
     * address the region from 0.
     */
    static MemoryRegion registerDeviceMemory(Domain domain, DeviceMemory memory, long offset, long length,
            Set<AccessFlag> access) {
        String verb = "ibv_reg_dm_mr";
        Objects.requireNonNull(memory, verb + ": device memory is null");
        EnumSet<AccessFlag> flags = RegistrationChecks.checkAccess(verb, access);
        flags.add(AccessFlag.ZERO_BASED);
        if (length <= 0) {
            throw new IllegalArgumentException(verb + ": length must be above 0, got " + length);
        }
        memory.checkRange(verb, offset, length);
        VerbsResource.requireOpen(domain.pd()); // as reading the domain's context would
        if (memory.context() != domain.context()) {
            throw new IllegalArgumentException(verb + ": the device memory belongs to another context than the domain");
        }
        return make(verb, List.of(domain.pd(), memory), state -> IbverbsCalls.ibv_reg_dm_mr(state, domain.pd().handleAddress(),
                memory.handleAddress(), offset, length, BitFlag.toBits(flags)),
                handle -> domain.hostless().wrap(handle, flags, memory));
    }

    /** {@code ibv_alloc_null_mr}: a region whose reads return nothing and whose writes are dropped. */
    static MemoryRegion allocateNull(Domain domain) {
        String verb = "ibv_alloc_null_mr";
        return make(verb, List.of(domain.pd()), state -> IbverbsCalls.ibv_alloc_null_mr(state, domain.pd().handleAddress()),
                handle -> domain.hostless().wrap(handle, EnumSet.noneOf(AccessFlag.class), null));
    }

    /**
     * Every region verb's one path, {@link ResourceCreation#create}: {@code held} (the domain
     * first) stay open across {@code call}, which answers the new {@code ibv_mr} or NULL with
     * errno (thrown naming the verb), and the region built from its handle is registered with its
     * parents before it is handed out.
     */
    private static MemoryRegion make(String verb, List<VerbsResource> held, ToLongFunction<MemorySegment> call,
            Function<MemorySegment, MemoryRegion> wrap) {
        return ResourceCreation.create(verb, ibv_mr.SIZE, held, arena -> MemorySegment.NULL,
                (state, noAttributes) -> call.applyAsLong(state), (handle, noAttributes) -> wrap.apply(handle));
    }
}
