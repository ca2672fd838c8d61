package dev.panamaverbs;

import dev.panamaverbs.internal.RegistrationChecks;
import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.internal.SizeLimits;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.BitFlag;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.gateway.InlineVerbs;
import dev.panamaverbs.ffm.invoke.CallState;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Registering memory the device may reach from this process's side: {@code ibv_reg_mr} over the
 * caller's memory or memory the region allocates and owns, {@code ibv_reg_mr_iova2} and
 * {@code ibv_reg_dmabuf_mr}, with the checks that answer before the kernel would. The factory
 * hooks behind {@link ProtectionDomain}'s methods; the region itself, once registered, is
 * {@link MemoryRegion} (and regions without host memory are {@link HostlessRegions}').
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
        pd.acquire();
        try {
            checkOnDemandPaging(verb, pd, flags);
            MemorySegment mr = regMr(pd, memory.address(), memory.byteSize(), flags);
            return MemoryRegion.publish(pd, mr, memory, null, flags, memory.address());
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
                MemoryRegion region = MemoryRegion.publish(pd, mr, memory, arena, flags, memory.address());
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
            return MemoryRegion.publish(pd, mr, memory, null, flags, iova);
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
            return MemoryRegion.publish(pd, mr, null, null, flags, iova);
        } finally {
            pd.release();
        }
    }

    /**
     * {@link AccessFlag#ON_DEMAND} needs a device with on-demand paging ({@code odp_caps}); asking
     * the device's cached attributes answers before the kernel would (EOPNOTSUPP).
     */
    static void checkOnDemandPaging(String verb, ProtectionDomain pd, Set<AccessFlag> flags) {
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
}
