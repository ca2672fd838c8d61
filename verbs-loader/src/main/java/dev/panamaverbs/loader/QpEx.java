package dev.panamaverbs.loader;

import dev.panamaverbs.error.VerbsUnsupportedException;
import dev.panamaverbs.ffm.ibv_qp_ex;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The {@code ibv_wr_*} work-request API: each {@code static inline ibv_wr_xxx(qp, ...)} of verbs.h
 * is {@code qp->wr_xxx(qp, ...)}, a function pointer in {@code struct ibv_qp_ex}. Arguments are
 * raw addresses; nothing allocates. A pointer the provider left NULL raises
 * {@link VerbsUnsupportedException}.
 *
 * <p>A batch is {@code wrStart}, then per request: {@link #setWrId}/{@link #setWrFlags}, one
 * opcode call ({@code wrSend}, {@code wrRdmaWrite}...), its data ({@code wrSetSge}...); then
 * {@code wrComplete} (or {@code wrAbort}). Several downcalls per request: one
 * {@link OpsTable#postSend} of a pre-filled request is cheaper unless a batch shares the
 * start/complete pair.
 *
 * <p>Data path: {@link #resolve(long)} once per QP, at creation, into an immutable
 * {@link Functions}; then the invokers taking it ({@code wrStart(fns, qpx)},
 * {@code wrSetSge(fns, qpx, ...)}...), which read no pointer and allocate nothing, even
 * interpreted. There are no per-call {@code (long qpx, ...)} forms of the {@code wr_*} calls:
 * reading the pointer and wrapping it in a new {@link MemorySegment} on every call allocated on the
 * data path. {@link #setWrId} and {@link #setWrFlags} write plain fields of {@code qpx}.
 */
public final class QpEx {
    private static final Linker.Option CRITICAL = Linker.Option.critical(false);

    // One handle per signature. The fill calls only write the WQE in user memory: critical.
    // wr_start/wr_complete/wr_abort take the queue lock and ring the doorbell (a syscall on rxe).
    private static final MethodHandle VOID_Q = FunctionPointers.invoker(ibv_qp_ex.wr_start$DESC);
    private static final MethodHandle VOID_Q_CRITICAL = FunctionPointers.invoker(ibv_qp_ex.wr_send$DESC, CRITICAL);
    private static final MethodHandle INT_Q = FunctionPointers.invoker(ibv_qp_ex.wr_complete$DESC);
    private static final MethodHandle Q_U32 = FunctionPointers.invoker(ibv_qp_ex.wr_send_imm$DESC, CRITICAL);
    private static final MethodHandle Q_U32_U64 = FunctionPointers.invoker(ibv_qp_ex.wr_rdma_write$DESC, CRITICAL);
    private static final MethodHandle Q_U32_U64_U32 = FunctionPointers.invoker(ibv_qp_ex.wr_rdma_write_imm$DESC, CRITICAL);
    private static final MethodHandle Q_U32_U64_U64 = FunctionPointers.invoker(ibv_qp_ex.wr_atomic_fetch_add$DESC, CRITICAL);
    private static final MethodHandle Q_U32_U64_U64_U64 = FunctionPointers.invoker(ibv_qp_ex.wr_atomic_cmp_swp$DESC, CRITICAL);
    private static final MethodHandle Q_P_P = FunctionPointers.invoker(ibv_qp_ex.wr_set_inline_data$DESC, CRITICAL);
    private static final MethodHandle Q_P_U32_U32 = FunctionPointers.invoker(ibv_qp_ex.wr_set_ud_addr$DESC, CRITICAL);
    private static final MethodHandle Q_P_U32_P = FunctionPointers.invoker(ibv_qp_ex.wr_bind_mw$DESC, CRITICAL);

    private static final String STRUCT = "struct ibv_qp_ex";

    private QpEx() {}

    /**
     * The function pointers of one {@code struct ibv_qp_ex}, read once by {@link #resolve(long)}
     * when the QP is created: a provider never changes them afterwards. Each is the segment a
     * downcall takes as its target; one the provider left NULL (an opcode it does not support)
     * is {@link MemorySegment#NULL} and its invoker raises {@link VerbsUnsupportedException}.
     * Immutable; share it between threads freely.
     */
    public record Functions(MemorySegment wrStart,
                            MemorySegment wrComplete,
                            MemorySegment wrAbort,
                            MemorySegment wrSend,
                            MemorySegment wrSendImm,
                            MemorySegment wrSendInv,
                            MemorySegment wrLocalInv,
                            MemorySegment wrSetXrcSrqn,
                            MemorySegment wrRdmaWrite,
                            MemorySegment wrRdmaRead,
                            MemorySegment wrRdmaWriteImm,
                            MemorySegment wrSetSge,
                            MemorySegment wrAtomicFetchAdd,
                            MemorySegment wrAtomicWrite,
                            MemorySegment wrAtomicCmpSwp,
                            MemorySegment wrSetInlineData,
                            MemorySegment wrSetSgeList,
                            MemorySegment wrSetInlineDataList,
                            MemorySegment wrSetUdAddr,
                            MemorySegment wrBindMw) {
        public Functions {
            java.util.Objects.requireNonNull(wrStart, "wrStart");
            java.util.Objects.requireNonNull(wrComplete, "wrComplete");
            java.util.Objects.requireNonNull(wrAbort, "wrAbort");
            java.util.Objects.requireNonNull(wrSend, "wrSend");
            java.util.Objects.requireNonNull(wrSendImm, "wrSendImm");
            java.util.Objects.requireNonNull(wrSendInv, "wrSendInv");
            java.util.Objects.requireNonNull(wrLocalInv, "wrLocalInv");
            java.util.Objects.requireNonNull(wrSetXrcSrqn, "wrSetXrcSrqn");
            java.util.Objects.requireNonNull(wrRdmaWrite, "wrRdmaWrite");
            java.util.Objects.requireNonNull(wrRdmaRead, "wrRdmaRead");
            java.util.Objects.requireNonNull(wrRdmaWriteImm, "wrRdmaWriteImm");
            java.util.Objects.requireNonNull(wrSetSge, "wrSetSge");
            java.util.Objects.requireNonNull(wrAtomicFetchAdd, "wrAtomicFetchAdd");
            java.util.Objects.requireNonNull(wrAtomicWrite, "wrAtomicWrite");
            java.util.Objects.requireNonNull(wrAtomicCmpSwp, "wrAtomicCmpSwp");
            java.util.Objects.requireNonNull(wrSetInlineData, "wrSetInlineData");
            java.util.Objects.requireNonNull(wrSetSgeList, "wrSetSgeList");
            java.util.Objects.requireNonNull(wrSetInlineDataList, "wrSetInlineDataList");
            java.util.Objects.requireNonNull(wrSetUdAddr, "wrSetUdAddr");
            java.util.Objects.requireNonNull(wrBindMw, "wrBindMw");
        }
    }

    /**
     * Reads every {@code wr_*} function pointer of {@code qpx} once, for the {@code Functions}
     * invokers below ({@link #wrStart(Functions, long)} etc.), which then read no pointer and
     * allocate nothing per call, even interpreted.
     *
     * @param qpx {@code struct ibv_qp_ex *} (see {@link #fromQp(long)})
     * @throws VerbsUnsupportedException when the provider left {@code wr_start}, {@code wr_complete}
     *         or {@code wr_abort} NULL
     * @throws IllegalArgumentException if {@code qpx} is NULL
     */
    public static Functions resolve(long qpx) {
        Memory.requireNonNull(qpx, "ibv_qp_ex", "qp");
        return new Functions(
                MemorySegment.ofAddress(FunctionPointers.read(qpx, ibv_qp_ex.wr_start$OFFSET, "ibv_wr_start", STRUCT, "wr_start")),
                MemorySegment.ofAddress(FunctionPointers.read(qpx, ibv_qp_ex.wr_complete$OFFSET, "ibv_wr_complete", STRUCT, "wr_complete")),
                MemorySegment.ofAddress(FunctionPointers.read(qpx, ibv_qp_ex.wr_abort$OFFSET, "ibv_wr_abort", STRUCT, "wr_abort")),
                optional(qpx, ibv_qp_ex.wr_send$OFFSET),
                optional(qpx, ibv_qp_ex.wr_send_imm$OFFSET),
                optional(qpx, ibv_qp_ex.wr_send_inv$OFFSET),
                optional(qpx, ibv_qp_ex.wr_local_inv$OFFSET),
                optional(qpx, ibv_qp_ex.wr_set_xrc_srqn$OFFSET),
                optional(qpx, ibv_qp_ex.wr_rdma_write$OFFSET),
                optional(qpx, ibv_qp_ex.wr_rdma_read$OFFSET),
                optional(qpx, ibv_qp_ex.wr_rdma_write_imm$OFFSET),
                optional(qpx, ibv_qp_ex.wr_set_sge$OFFSET),
                optional(qpx, ibv_qp_ex.wr_atomic_fetch_add$OFFSET),
                optional(qpx, ibv_qp_ex.wr_atomic_write$OFFSET),
                optional(qpx, ibv_qp_ex.wr_atomic_cmp_swp$OFFSET),
                optional(qpx, ibv_qp_ex.wr_set_inline_data$OFFSET),
                optional(qpx, ibv_qp_ex.wr_set_sge_list$OFFSET),
                optional(qpx, ibv_qp_ex.wr_set_inline_data_list$OFFSET),
                optional(qpx, ibv_qp_ex.wr_set_ud_addr$OFFSET),
                optional(qpx, ibv_qp_ex.wr_bind_mw$OFFSET));
    }

    private static MemorySegment optional(long qpx, long offset) {
        return FunctionPointers.readOptional(qpx, offset);
    }

    /** {@code f}, unless the provider left it NULL. */
    private static MemorySegment present(MemorySegment f, String verb, String field) {
        return FunctionPointers.present(f, verb, STRUCT, field);
    }

    // ---- the data path: through resolved functions, allocation-free ----

    /** {@code ibv_wr_start} through {@code fns.wrStart()}. */
    public static void wrStart(Functions fns, long qpx) {
        Memory.requireNonNull(qpx, "ibv_wr_start", "qp");
        try {
            VOID_Q.invokeExact(fns.wrStart(), qpx);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /**
     * {@code ibv_wr_complete} through {@code fns.wrComplete()}.
     *
     * @return 0 when the batch was posted, else the errno value (nothing of the batch was posted)
     */
    public static int wrComplete(Functions fns, long qpx) {
        Memory.requireNonNull(qpx, "ibv_wr_complete", "qp");
        try {
            return (int) INT_Q.invokeExact(fns.wrComplete(), qpx);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wr_abort} through {@code fns.wrAbort()}. */
    public static void wrAbort(Functions fns, long qpx) {
        Memory.requireNonNull(qpx, "ibv_wr_abort", "qp");
        try {
            VOID_Q.invokeExact(fns.wrAbort(), qpx);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wr_send} through {@code fns.wrSend()}. */
    public static void wrSend(Functions fns, long qpx) {
        MemorySegment f = present(fns.wrSend(), "ibv_wr_send", "wr_send");
        Memory.requireNonNull(qpx, "ibv_wr_send", "qp");
        try {
            VOID_Q_CRITICAL.invokeExact(f, qpx);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wr_send_imm} through {@code fns.wrSendImm()} ({@code immData} big-endian, as in C). */
    public static void wrSendImm(Functions fns, long qpx, int immData) {
        callU32(present(fns.wrSendImm(), "ibv_wr_send_imm", "wr_send_imm"), qpx, immData);
    }

    /** {@code ibv_wr_send_inv} through {@code fns.wrSendInv()}. */
    public static void wrSendInv(Functions fns, long qpx, int invalidateRkey) {
        callU32(present(fns.wrSendInv(), "ibv_wr_send_inv", "wr_send_inv"), qpx, invalidateRkey);
    }

    /** {@code ibv_wr_local_inv} through {@code fns.wrLocalInv()}. */
    public static void wrLocalInv(Functions fns, long qpx, int invalidateRkey) {
        callU32(present(fns.wrLocalInv(), "ibv_wr_local_inv", "wr_local_inv"), qpx, invalidateRkey);
    }

    /** {@code ibv_wr_set_xrc_srqn} through {@code fns.wrSetXrcSrqn()}. */
    public static void wrSetXrcSrqn(Functions fns, long qpx, int remoteSrqn) {
        callU32(present(fns.wrSetXrcSrqn(), "ibv_wr_set_xrc_srqn", "wr_set_xrc_srqn"), qpx, remoteSrqn);
    }

    /** {@code ibv_wr_rdma_write} through {@code fns.wrRdmaWrite()}. */
    public static void wrRdmaWrite(Functions fns, long qpx, int rkey, long remoteAddr) {
        callU32U64(present(fns.wrRdmaWrite(), "ibv_wr_rdma_write", "wr_rdma_write"), qpx, rkey, remoteAddr);
    }

    /** {@code ibv_wr_rdma_read} through {@code fns.wrRdmaRead()}. */
    public static void wrRdmaRead(Functions fns, long qpx, int rkey, long remoteAddr) {
        callU32U64(present(fns.wrRdmaRead(), "ibv_wr_rdma_read", "wr_rdma_read"), qpx, rkey, remoteAddr);
    }

    /** {@code ibv_wr_rdma_write_imm} through {@code fns.wrRdmaWriteImm()}. */
    public static void wrRdmaWriteImm(Functions fns, long qpx, int rkey, long remoteAddr, int immData) {
        callU32U64U32(present(fns.wrRdmaWriteImm(), "ibv_wr_rdma_write_imm", "wr_rdma_write_imm"),
                qpx, rkey, remoteAddr, immData);
    }

    /** {@code ibv_wr_set_sge} through {@code fns.wrSetSge()}. */
    public static void wrSetSge(Functions fns, long qpx, int lkey, long addr, int length) {
        callU32U64U32(present(fns.wrSetSge(), "ibv_wr_set_sge", "wr_set_sge"), qpx, lkey, addr, length);
    }

    /** {@code ibv_wr_atomic_fetch_add} through {@code fns.wrAtomicFetchAdd()}. */
    public static void wrAtomicFetchAdd(Functions fns, long qpx, int rkey, long remoteAddr, long add) {
        callU32U64U64(present(fns.wrAtomicFetchAdd(), "ibv_wr_atomic_fetch_add", "wr_atomic_fetch_add"),
                qpx, rkey, remoteAddr, add);
    }

    /** {@code ibv_wr_atomic_write} through {@code fns.wrAtomicWrite()} ({@code atomicWr}: 8 bytes). */
    public static void wrAtomicWrite(Functions fns, long qpx, int rkey, long remoteAddr, long atomicWr) {
        MemorySegment f = present(fns.wrAtomicWrite(), "ibv_wr_atomic_write", "wr_atomic_write");
        Memory.requireNonNull(atomicWr, "ibv_wr_atomic_write", "atomic_wr");
        callU32U64U64(f, qpx, rkey, remoteAddr, atomicWr);
    }

    /** {@code ibv_wr_atomic_cmp_swp} through {@code fns.wrAtomicCmpSwp()}. */
    public static void wrAtomicCmpSwp(Functions fns, long qpx, int rkey, long remoteAddr, long compare, long swap) {
        MemorySegment f = present(fns.wrAtomicCmpSwp(), "ibv_wr_atomic_cmp_swp", "wr_atomic_cmp_swp");
        Memory.requireNonNull(qpx, "ibv_wr_atomic_cmp_swp", "qp");
        try {
            Q_U32_U64_U64_U64.invokeExact(f, qpx, rkey, remoteAddr, compare, swap);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wr_set_inline_data} through {@code fns.wrSetInlineData()}. */
    public static void wrSetInlineData(Functions fns, long qpx, long addr, long length) {
        MemorySegment f = present(fns.wrSetInlineData(), "ibv_wr_set_inline_data", "wr_set_inline_data");
        if (length > 0) {
            Memory.requireNonNull(addr, "ibv_wr_set_inline_data", "addr");
        }
        callPointerPointer(f, qpx, addr, length);
    }

    /** {@code ibv_wr_set_sge_list} through {@code fns.wrSetSgeList()}. */
    public static void wrSetSgeList(Functions fns, long qpx, long numSge, long sgList) {
        MemorySegment f = present(fns.wrSetSgeList(), "ibv_wr_set_sge_list", "wr_set_sge_list");
        if (numSge > 0) {
            Memory.requireNonNull(sgList, "ibv_wr_set_sge_list", "sg_list");
        }
        callPointerPointer(f, qpx, numSge, sgList);
    }

    /** {@code ibv_wr_set_inline_data_list} through {@code fns.wrSetInlineDataList()}. */
    public static void wrSetInlineDataList(Functions fns, long qpx, long numBuf, long bufList) {
        MemorySegment f = present(fns.wrSetInlineDataList(), "ibv_wr_set_inline_data_list", "wr_set_inline_data_list");
        if (numBuf > 0) {
            Memory.requireNonNull(bufList, "ibv_wr_set_inline_data_list", "buf_list");
        }
        callPointerPointer(f, qpx, numBuf, bufList);
    }

    /** {@code ibv_wr_set_ud_addr} through {@code fns.wrSetUdAddr()}. */
    public static void wrSetUdAddr(Functions fns, long qpx, long ah, int remoteQpn, int remoteQkey) {
        MemorySegment f = present(fns.wrSetUdAddr(), "ibv_wr_set_ud_addr", "wr_set_ud_addr");
        Memory.requireNonNull(qpx, "ibv_wr_set_ud_addr", "qp");
        Memory.requireNonNull(ah, "ibv_wr_set_ud_addr", "ah");
        try {
            Q_P_U32_U32.invokeExact(f, qpx, ah, remoteQpn, remoteQkey);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wr_bind_mw} through {@code fns.wrBindMw()}. */
    public static void wrBindMw(Functions fns, long qpx, long mw, int rkey, long bindInfo) {
        MemorySegment f = present(fns.wrBindMw(), "ibv_wr_bind_mw", "wr_bind_mw");
        Memory.requireNonNull(qpx, "ibv_wr_bind_mw", "qp");
        Memory.requireNonNull(mw, "ibv_wr_bind_mw", "mw");
        Memory.requireNonNull(bindInfo, "ibv_wr_bind_mw", "bind_info");
        try {
            Q_P_U32_P.invokeExact(f, qpx, mw, rkey, bindInfo);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    private static void callU32(MemorySegment f, long qpx, int value) {
        Memory.requireNonNull(qpx, "ibv_qp_ex", "qp");
        try {
            Q_U32.invokeExact(f, qpx, value);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    private static void callU32U64(MemorySegment f, long qpx, int key, long remoteAddr) {
        Memory.requireNonNull(qpx, "ibv_qp_ex", "qp");
        try {
            Q_U32_U64.invokeExact(f, qpx, key, remoteAddr);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    private static void callU32U64U32(MemorySegment f, long qpx, int a, long b, int c) {
        Memory.requireNonNull(qpx, "ibv_qp_ex", "qp");
        try {
            Q_U32_U64_U32.invokeExact(f, qpx, a, b, c);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    private static void callU32U64U64(MemorySegment f, long qpx, int a, long b, long c) {
        Memory.requireNonNull(qpx, "ibv_qp_ex", "qp");
        try {
            Q_U32_U64_U64.invokeExact(f, qpx, a, b, c);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    private static void callPointerPointer(MemorySegment f, long qpx, long a, long b) {
        Memory.requireNonNull(qpx, "ibv_qp_ex", "qp");
        try {
            Q_P_P.invokeExact(f, qpx, a, b);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    // ---- the extended QP and its plain fields, no function pointer ----

    /**
     * {@code ibv_qp_to_qp_ex(qp)}: the {@code struct ibv_qp_ex *} of a QP created with
     * {@code IBV_QP_INIT_ATTR_SEND_OPS_FLAGS}.
     *
     * @throws VerbsUnsupportedException without {@link Capability#QP_EX}, or when the QP has no
     *         extended form (libibverbs returned NULL)
     */
    public static long fromQp(long qp) {
        Memory.requireNonNull(qp, "ibv_qp_to_qp_ex", "qp");
        LibIbverbs.ensureAvailable();
        MethodHandle handle = ExportedCalls.QP_TO_QP_EX;
        if (handle == null) {
            throw new VerbsUnsupportedException("ibv_qp_to_qp_ex", "this libibverbs does not export ibv_qp_to_qp_ex@IBVERBS_1.6");
        }
        long qpx;
        try (Arena arena = Arena.ofConfined()) {
            qpx = (long) handle.invokeExact(CallState.allocate(arena), qp);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
        if (qpx == 0) {
            throw new VerbsUnsupportedException("ibv_qp_to_qp_ex",
                    "the QP was not created with IBV_QP_INIT_ATTR_SEND_OPS_FLAGS");
        }
        return qpx;
    }

    /** {@code qp->wr_id = wrId}: the id of the next request's completion. */
    public static void setWrId(long qpx, long wrId) {
        Memory.requireNonNull(qpx, "ibv_qp_ex.wr_id", "qp");
        Memory.writeLong(qpx + ibv_qp_ex.wr_id$OFFSET, wrId);
    }

    /** {@code qp->wr_flags = flags}: {@code enum ibv_send_flags} of the next request. */
    public static void setWrFlags(long qpx, int flags) {
        Memory.requireNonNull(qpx, "ibv_qp_ex.wr_flags", "qp");
        Memory.writeInt(qpx + ibv_qp_ex.wr_flags$OFFSET, flags);
    }
}
