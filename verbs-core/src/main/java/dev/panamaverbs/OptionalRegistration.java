package dev.panamaverbs;

import dev.panamaverbs.error.VerbsUnsupportedException;
import dev.panamaverbs.library.Capability;
import dev.panamaverbs.loader.LibIbverbs;
import dev.panamaverbs.loader.Natives;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The registration verbs newer than the required set: {@code ibv_reg_mr_iova2} (IBVERBS_1.8) and
 * {@code ibv_reg_dmabuf_mr} (IBVERBS_1.12). Their handles are null when the loaded libibverbs
 * lacks the symbol; callers check first and report {@link VerbsUnsupportedException}.
 */
final class OptionalRegistration {
    private OptionalRegistration() {}

    private static final class Native {
        static final MethodHandle IBV_REG_MR_IOVA2 = Natives.optionalDowncall("ibv_reg_mr_iova2").orElse(null);
        static final MethodHandle IBV_REG_DMABUF_MR = Natives.optionalDowncall("ibv_reg_dmabuf_mr").orElse(null);
    }

    static void requireIova2() {
        if (!LibIbverbs.has(Capability.REG_MR_IOVA2)) {
            throw new VerbsUnsupportedException("ibv_reg_mr_iova2",
                    "the loaded libibverbs (" + LibIbverbs.libraryPath() + ") does not export it (needs IBVERBS_1.8)");
        }
    }

    static void requireDmabuf() {
        if (!LibIbverbs.has(Capability.REG_DMABUF_MR)) {
            throw new VerbsUnsupportedException("ibv_reg_dmabuf_mr",
                    "the loaded libibverbs (" + LibIbverbs.libraryPath() + ") does not export it (needs IBVERBS_1.12)");
        }
    }

    /** {@code ibv_reg_mr_iova2(pd, addr, length, iova, access)}; call only after {@link #requireIova2()}. */
    static MemorySegment regMrIova2(MemorySegment state, MemorySegment pd, long address, long length, long iova, int access) {
        try {
            return (MemorySegment) Native.IBV_REG_MR_IOVA2.invokeExact(state, pd, MemorySegment.ofAddress(address),
                    length, iova, access);
        } catch (Throwable t) {
            throw NativeCalls.propagate("ibv_reg_mr_iova2", t);
        }
    }

    /** {@code ibv_reg_dmabuf_mr(pd, offset, length, iova, fd, access)}; call only after {@link #requireDmabuf()}. */
    static MemorySegment regDmabufMr(MemorySegment state, MemorySegment pd, long offset, long length, long iova,
            int fd, int access) {
        try {
            return (MemorySegment) Native.IBV_REG_DMABUF_MR.invokeExact(state, pd, offset, length, iova, fd, access);
        } catch (Throwable t) {
            throw NativeCalls.propagate("ibv_reg_dmabuf_mr", t);
        }
    }
}
