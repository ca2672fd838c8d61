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
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Every verb that makes a memory region in a protection domain: {@code ibv_reg_mr} over the
 * caller's memory or memory the region allocates and owns, {@code ibv_reg_mr_iova2},
 * {@code ibv_reg_dmabuf_mr}, and the regions without host memory, over device memory
 * ({@code ibv_reg_dm_mr}) and the null region ({@code ibv_alloc_null_mr}). The factory hooks
 * behind {@link ProtectionDomain}'s methods; the region itself, once made, is {@link MemoryRegion}.
 */
final class RegionRegistration {
    /** Alignment of memory a region allocates itself: a page, so no other object shares its pages. */
    private static final long PAGE_SIZE = 4096;

    private RegionRegistration() {}

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
        return make(verb, List.of(pd), regMr(pd, memory.address(), memory.byteSize(), flags),
                handle -> MemoryRegion.over(pd, handle, memory, null, flags, memory.address()));
    }

    /**
     * The {@code ibv_reg_mr} macro over {@code length} bytes at {@code address}, once the
     * on-demand-paging check passed: optional-range flags need {@code ibv_reg_mr_iova2}, reported
     * by name when libibverbs lacks it.
     */
    private static ToLongFunction<MemorySegment> regMr(ProtectionDomain pd, long address, long length,
            EnumSet<AccessFlag> flags) {
        return state -> {
            MemoryRegion.checkOnDemandPaging("ibv_reg_mr", pd, flags);
            int bits = BitFlag.toBits(flags);
            if ((bits & InlineVerbs.ACCESS_OPTIONAL_RANGE) != 0) {
                Capability.REG_MR_IOVA2.require("ibv_reg_mr");
            }
            return InlineVerbs.regMr(state, pd.handleAddress(), address, length, bits);
        };
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
            MemoryRegion region = make(verb, List.of(pd), regMr(pd, memory.address(), byteSize, flags),
                    handle -> MemoryRegion.over(pd, handle, memory, arena, flags, memory.address()));
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
    static MemoryRegion register(ProtectionDomain pd, MemorySegment memory, Set<AccessFlag> access, long iova) {
        String verb = "ibv_reg_mr_iova2";
        Objects.requireNonNull(pd, verb + ": protection domain is null");
        EnumSet<AccessFlag> flags = RegistrationChecks.checkAccess(verb, access);
        RegistrationChecks.checkMemory(verb, memory, flags);
        Capability.REG_MR_IOVA2.require(verb);
        return make(verb, List.of(pd), state -> {
            MemoryRegion.checkOnDemandPaging(verb, pd, flags);
            return IbverbsCalls.ibv_reg_mr_iova2(state, pd.handleSegment(), memory, memory.byteSize(), iova,
                    BitFlag.toBits(flags)).address();
        }, handle -> MemoryRegion.over(pd, handle, memory, null, flags, iova));
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
        return make(verb, List.of(pd), state -> IbverbsCalls.ibv_reg_dmabuf_mr(state, pd.handleSegment(), offset, length,
                iova, fd, BitFlag.toBits(flags)).address(), handle -> MemoryRegion.over(pd, handle, null, null, flags, iova));
    }

    // ---- regions without host memory ----

    /**
     * {@code ibv_reg_dm_mr}: {@code length} bytes at {@code offset} of {@code memory}, always
     * zero-based ({@code IBV_ACCESS_ZERO_BASED} is added, as the verb requires): work requests
     * address the region from 0.
     */
    static MemoryRegion registerDeviceMemory(ProtectionDomain pd, DeviceMemory memory, long offset, long length,
            Set<AccessFlag> access) {
        String verb = "ibv_reg_dm_mr";
        Objects.requireNonNull(pd, verb + ": protection domain is null");
        Objects.requireNonNull(memory, verb + ": device memory is null");
        EnumSet<AccessFlag> flags = RegistrationChecks.checkAccess(verb, access);
        flags.add(AccessFlag.ZERO_BASED);
        if (length <= 0) {
            throw new IllegalArgumentException(verb + ": length must be above 0, got " + length);
        }
        memory.checkRange(verb, offset, length);
        if (memory.context() != pd.context()) {
            throw new IllegalArgumentException(verb + ": the device memory belongs to another context than the domain");
        }
        return make(verb, List.of(pd, memory), state -> IbverbsCalls.ibv_reg_dm_mr(state, pd.handleAddress(),
                memory.handleAddress(), offset, length, BitFlag.toBits(flags)),
                handle -> MemoryRegion.hostless(pd, handle, flags, memory));
    }

    /** {@code ibv_alloc_null_mr}: a region whose reads return nothing and whose writes are dropped. */
    static MemoryRegion allocateNull(ProtectionDomain pd) {
        String verb = "ibv_alloc_null_mr";
        Objects.requireNonNull(pd, verb + ": protection domain is null");
        return make(verb, List.of(pd), state -> IbverbsCalls.ibv_alloc_null_mr(state, pd.handleAddress()),
                handle -> MemoryRegion.hostless(pd, handle, EnumSet.noneOf(AccessFlag.class), null));
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
