package dev.panamaverbs;

import dev.panamaverbs.ffm.ibv_context;
import dev.panamaverbs.ffm.ibv_context_ops;
import dev.panamaverbs.loader.CallState;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * {@code ibv_bind_mw}, which verbs.h defines {@code static inline} as
 * {@code mw->context->ops.bind_mw(qp, mw, mw_bind)}: libibverbs exports no symbol for it, and the
 * loader's {@code OpsTable} covers {@code alloc_mw}/{@code dealloc_mw} but not this one. One
 * generic handle, called with the function pointer read from {@code struct ibv_context_ops}; a
 * NULL pointer means the provider does not offer the verb.
 */
final class WindowOps {
    private WindowOps() {}

    private static final class Native {
        private static final Linker LINKER = Linker.nativeLinker();
        static final MethodHandle BIND_MW = LINKER.downcallHandle(ibv_context_ops.bind_mw$DESC, CallState.CAPTURE_ERRNO);
    }

    /** {@code context->ops.bind_mw}, or NULL when the provider has none. */
    static MemorySegment bindMwPointer(MemorySegment context) {
        return ibv_context_ops.bind_mw(ibv_context.ops(context));
    }

    /** {@code int bind_mw(struct ibv_qp *qp, struct ibv_mw *mw, struct ibv_mw_bind *mw_bind)}: 0 or an errno. */
    static int bindMw(MemorySegment function, MemorySegment state, MemorySegment qp, MemorySegment mw,
            MemorySegment bind) {
        try {
            return (int) Native.BIND_MW.invokeExact(function, state, qp, mw, bind);
        } catch (Throwable t) {
            throw NativeCalls.propagate("ibv_bind_mw", t);
        }
    }
}
