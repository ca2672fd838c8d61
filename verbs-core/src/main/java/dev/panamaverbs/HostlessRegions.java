package dev.panamaverbs;

import dev.panamaverbs.internal.RegistrationChecks;
import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.BitFlag;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.invoke.CallState;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Memory regions without host memory: over device memory ({@code ibv_reg_dm_mr}) and the null
 * region ({@code ibv_alloc_null_mr}). The factory hooks behind {@link ProtectionDomain}'s methods.
 */
final class HostlessRegions {
    private HostlessRegions() {}

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
        pd.acquire();
        memory.acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            long mr = IbverbsCalls.ibv_reg_dm_mr(state, pd.handleAddress(), memory.handleAddress(), offset, length,
                    BitFlag.toBits(flags));
            NativeCalls.checkPointer(verb, MemorySegment.ofAddress(mr), CallState.errno(state));
            return MemoryRegion.adopt(pd, MemorySegment.ofAddress(mr), flags, 0, memory);
        } finally {
            memory.release();
            pd.release();
        }
    }

    /** {@code ibv_alloc_null_mr}: a region whose reads return nothing and whose writes are dropped. */
    static MemoryRegion allocateNull(ProtectionDomain pd) {
        String verb = "ibv_alloc_null_mr";
        Objects.requireNonNull(pd, verb + ": protection domain is null");
        pd.acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            long mr = IbverbsCalls.ibv_alloc_null_mr(state, pd.handleAddress());
            NativeCalls.checkPointer(verb, MemorySegment.ofAddress(mr), CallState.errno(state));
            return MemoryRegion.adopt(pd, MemorySegment.ofAddress(mr), EnumSet.noneOf(AccessFlag.class), 0, null);
        } finally {
            pd.release();
        }
    }
}
