package dev.panamaverbs.gateway;

import dev.panamaverbs.loader.internal.LibIbverbs;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.ffm.invoke.verbs_h;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Exported verbs on existing objects that the API reaches through the loader:
 * {@code ibv_rereg_mr}, {@code ibv_query_ece}/{@code ibv_set_ece}, and the import verbs
 * ({@code ibv_import_device}, {@code ibv_import_pd}, {@code ibv_unimport_pd},
 * {@code ibv_import_mr}, {@code ibv_unimport_mr}). C's return conventions; pointers as
 * addresses. Call only once {@code LibIbverbs.LIBRARY.isAvailable()} said yes, and the optional
 * ones (ECE, import: IBVERBS_1.10) only once their symbols resolved.
 */
public final class ObjectVerbs {
    private ObjectVerbs() {}

    /**
     * {@code ibv_rereg_mr(mr, flags, pd, addr, length, access)}.
     *
     * @param errno  a {@code CallState} segment: the errno on failure
     * @param mr     the {@code struct ibv_mr *}
     * @param flags  {@code IBV_REREG_MR_*} flags
     * @param pd     the new protection domain (with {@code IBV_REREG_MR_CHANGE_PD}), else 0
     * @param addr   the new start (with {@code IBV_REREG_MR_CHANGE_TRANSLATION}), else 0
     * @param length the new length (likewise), else 0
     * @param access the new access flags (with {@code IBV_REREG_MR_CHANGE_ACCESS}), else 0
     * @return 0, or an {@code enum ibv_rereg_mr_err_code} (negative) with the errno in {@code errno}
     */
    public static int reregMr(MemorySegment errno, long mr, int flags, long pd, long addr, long length, int access) {
        Memory.requireNonNull(mr, "ibv_rereg_mr", "mr");
        return verbs_h.ibv_rereg_mr(errno, MemorySegment.ofAddress(mr), flags, MemorySegment.ofAddress(pd),
                MemorySegment.ofAddress(addr), length, access);
    }

    /**
     * {@code ibv_query_ece(qp, ece)}.
     *
     * @param qp  the {@code struct ibv_qp *}
     * @param ece a {@code struct ibv_ece} the provider fills
     * @return 0, or the errno
     */
    public static int queryEce(long qp, long ece) {
        return eceVerb("ibv_query_ece", verbs_h::ibv_query_ece, qp, ece);
    }

    /**
     * {@code ibv_set_ece(qp, ece)}.
     *
     * @param qp  the {@code struct ibv_qp *}
     * @param ece the {@code struct ibv_ece} to offer
     * @return 0, or the errno
     */
    public static int setEce(long qp, long ece) {
        return eceVerb("ibv_set_ece", verbs_h::ibv_set_ece, qp, ece);
    }

    /** {@code ibv_query_ece} and {@code ibv_set_ece}: one shape, {@code int f(qp, ece)}. */
    private interface EceCall {
        int call(MemorySegment state, MemorySegment qp, MemorySegment ece);
    }

    private static int eceVerb(String verb, EceCall call, long qp, long ece) {
        Memory.requireNonNull(qp, verb, "qp");
        Memory.requireNonNull(ece, verb, "ece");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            return ExtendedOps.errnoOf(call.call(state, MemorySegment.ofAddress(qp), MemorySegment.ofAddress(ece)), state);
        }
    }

    /**
     * {@code ibv_import_device(cmd_fd)}.
     *
     * @param errno a {@code CallState} segment: the errno on failure
     * @param cmdFd the command file descriptor of the context to import
     * @return the {@code struct ibv_context *}, or 0 with the errno in {@code errno}
     */
    public static long importDevice(MemorySegment errno, int cmdFd) {
        return verbs_h.ibv_import_device(errno, cmdFd).address();
    }

    /**
     * {@code ibv_import_pd(context, pd_handle)}.
     *
     * @param errno    a {@code CallState} segment: the errno on failure
     * @param context  the importing context
     * @param pdHandle the kernel handle of the PD ({@code ibv_pd.handle} in the exporting process)
     * @return the {@code struct ibv_pd *}, or 0 with the errno in {@code errno}
     */
    public static long importPd(MemorySegment errno, long context, int pdHandle) {
        Memory.requireNonNull(context, "ibv_import_pd", "context");
        return verbs_h.ibv_import_pd(errno, MemorySegment.ofAddress(context), pdHandle).address();
    }

    /**
     * {@code ibv_unimport_pd(pd)}: frees the user-space object only.
     *
     * @param pd the imported {@code struct ibv_pd *}
     */
    public static void unimportPd(long pd) {
        unimport("ibv_unimport_pd", "pd", verbs_h::ibv_unimport_pd, pd);
    }

    /**
     * {@code ibv_import_mr(pd, mr_handle)}.
     *
     * @param errno    a {@code CallState} segment: the errno on failure
     * @param pd       the (imported) protection domain the region belongs to
     * @param mrHandle the kernel handle of the region ({@code ibv_mr.handle} in the exporting process)
     * @return the {@code struct ibv_mr *}, or 0 with the errno in {@code errno}
     */
    public static long importMr(MemorySegment errno, long pd, int mrHandle) {
        Memory.requireNonNull(pd, "ibv_import_mr", "pd");
        return verbs_h.ibv_import_mr(errno, MemorySegment.ofAddress(pd), mrHandle).address();
    }

    /**
     * {@code ibv_unimport_mr(mr)}: frees the user-space object only.
     *
     * @param mr the imported {@code struct ibv_mr *}
     */
    public static void unimportMr(long mr) {
        unimport("ibv_unimport_mr", "mr", verbs_h::ibv_unimport_mr, mr);
    }

    /** {@code ibv_unimport_pd} and {@code ibv_unimport_mr}: one shape, {@code void f(object)}. */
    private static void unimport(String verb, String argument,
                                 java.util.function.BiConsumer<MemorySegment, MemorySegment> call, long object) {
        Memory.requireNonNull(object, verb, argument);
        try (Arena arena = Arena.ofConfined()) {
            call.accept(CallState.allocate(arena), MemorySegment.ofAddress(object));
        }
    }
}
