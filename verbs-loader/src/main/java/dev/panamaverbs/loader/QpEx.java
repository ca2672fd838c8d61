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

    /** {@code ibv_wr_start}: {@code qp->wr_start(qp);} */
    public static void wrStart(long qpx) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_start$OFFSET, "ibv_wr_start", STRUCT, "wr_start");
        try {
            VOID_Q.invokeExact(MemorySegment.ofAddress(f), qpx);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /**
     * {@code ibv_wr_complete}: {@code return qp->wr_complete(qp);}
     *
     * @return 0 when the batch was posted, else the errno value (nothing of the batch was posted)
     */
    public static int wrComplete(long qpx) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_complete$OFFSET, "ibv_wr_complete", STRUCT, "wr_complete");
        try {
            return (int) INT_Q.invokeExact(MemorySegment.ofAddress(f), qpx);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wr_abort}: {@code qp->wr_abort(qp);} */
    public static void wrAbort(long qpx) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_abort$OFFSET, "ibv_wr_abort", STRUCT, "wr_abort");
        try {
            VOID_Q.invokeExact(MemorySegment.ofAddress(f), qpx);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wr_send}: {@code qp->wr_send(qp);} */
    public static void wrSend(long qpx) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_send$OFFSET, "ibv_wr_send", STRUCT, "wr_send");
        try {
            VOID_Q_CRITICAL.invokeExact(MemorySegment.ofAddress(f), qpx);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wr_send_imm}: {@code qp->wr_send_imm(qp, imm_data);} ({@code immData} is big-endian, as in C) */
    public static void wrSendImm(long qpx, int immData) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_send_imm$OFFSET, "ibv_wr_send_imm", STRUCT, "wr_send_imm");
        callU32(f, qpx, immData);
    }

    /** {@code ibv_wr_send_inv}: {@code qp->wr_send_inv(qp, invalidate_rkey);} */
    public static void wrSendInv(long qpx, int invalidateRkey) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_send_inv$OFFSET, "ibv_wr_send_inv", STRUCT, "wr_send_inv");
        callU32(f, qpx, invalidateRkey);
    }

    /** {@code ibv_wr_local_inv}: {@code qp->wr_local_inv(qp, invalidate_rkey);} */
    public static void wrLocalInv(long qpx, int invalidateRkey) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_local_inv$OFFSET, "ibv_wr_local_inv", STRUCT, "wr_local_inv");
        callU32(f, qpx, invalidateRkey);
    }

    /** {@code ibv_wr_set_xrc_srqn}: {@code qp->wr_set_xrc_srqn(qp, remote_srqn);} */
    public static void wrSetXrcSrqn(long qpx, int remoteSrqn) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_set_xrc_srqn$OFFSET, "ibv_wr_set_xrc_srqn", STRUCT, "wr_set_xrc_srqn");
        callU32(f, qpx, remoteSrqn);
    }

    private static void callU32(long f, long qpx, int value) {
        try {
            Q_U32.invokeExact(MemorySegment.ofAddress(f), qpx, value);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wr_rdma_write}: {@code qp->wr_rdma_write(qp, rkey, remote_addr);} */
    public static void wrRdmaWrite(long qpx, int rkey, long remoteAddr) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_rdma_write$OFFSET, "ibv_wr_rdma_write", STRUCT, "wr_rdma_write");
        callU32U64(f, qpx, rkey, remoteAddr);
    }

    /** {@code ibv_wr_rdma_read}: {@code qp->wr_rdma_read(qp, rkey, remote_addr);} */
    public static void wrRdmaRead(long qpx, int rkey, long remoteAddr) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_rdma_read$OFFSET, "ibv_wr_rdma_read", STRUCT, "wr_rdma_read");
        callU32U64(f, qpx, rkey, remoteAddr);
    }

    private static void callU32U64(long f, long qpx, int rkey, long remoteAddr) {
        try {
            Q_U32_U64.invokeExact(MemorySegment.ofAddress(f), qpx, rkey, remoteAddr);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wr_rdma_write_imm}: {@code qp->wr_rdma_write_imm(qp, rkey, remote_addr, imm_data);} */
    public static void wrRdmaWriteImm(long qpx, int rkey, long remoteAddr, int immData) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_rdma_write_imm$OFFSET, "ibv_wr_rdma_write_imm", STRUCT, "wr_rdma_write_imm");
        try {
            Q_U32_U64_U32.invokeExact(MemorySegment.ofAddress(f), qpx, rkey, remoteAddr, immData);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wr_set_sge}: {@code qp->wr_set_sge(qp, lkey, addr, length);} */
    public static void wrSetSge(long qpx, int lkey, long addr, int length) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_set_sge$OFFSET, "ibv_wr_set_sge", STRUCT, "wr_set_sge");
        try {
            Q_U32_U64_U32.invokeExact(MemorySegment.ofAddress(f), qpx, lkey, addr, length);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wr_atomic_fetch_add}: {@code qp->wr_atomic_fetch_add(qp, rkey, remote_addr, add);} */
    public static void wrAtomicFetchAdd(long qpx, int rkey, long remoteAddr, long add) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_atomic_fetch_add$OFFSET, "ibv_wr_atomic_fetch_add", STRUCT, "wr_atomic_fetch_add");
        try {
            Q_U32_U64_U64.invokeExact(MemorySegment.ofAddress(f), qpx, rkey, remoteAddr, add);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wr_atomic_write}: {@code qp->wr_atomic_write(qp, rkey, remote_addr, atomic_wr);} ({@code atomicWr}: 8 bytes) */
    public static void wrAtomicWrite(long qpx, int rkey, long remoteAddr, long atomicWr) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_atomic_write$OFFSET, "ibv_wr_atomic_write", STRUCT, "wr_atomic_write");
        Memory.requireNonNull(atomicWr, "ibv_wr_atomic_write", "atomic_wr");
        try {
            Q_U32_U64_U64.invokeExact(MemorySegment.ofAddress(f), qpx, rkey, remoteAddr, atomicWr);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wr_atomic_cmp_swp}: {@code qp->wr_atomic_cmp_swp(qp, rkey, remote_addr, compare, swap);} */
    public static void wrAtomicCmpSwp(long qpx, int rkey, long remoteAddr, long compare, long swap) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_atomic_cmp_swp$OFFSET, "ibv_wr_atomic_cmp_swp", STRUCT, "wr_atomic_cmp_swp");
        try {
            Q_U32_U64_U64_U64.invokeExact(MemorySegment.ofAddress(f), qpx, rkey, remoteAddr, compare, swap);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wr_set_inline_data}: {@code qp->wr_set_inline_data(qp, addr, length);} */
    public static void wrSetInlineData(long qpx, long addr, long length) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_set_inline_data$OFFSET, "ibv_wr_set_inline_data", STRUCT, "wr_set_inline_data");
        if (length > 0) {
            Memory.requireNonNull(addr, "ibv_wr_set_inline_data", "addr");
        }
        callPointerPointer(f, qpx, addr, length);
    }

    /** {@code ibv_wr_set_sge_list}: {@code qp->wr_set_sge_list(qp, num_sge, sg_list);} */
    public static void wrSetSgeList(long qpx, long numSge, long sgList) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_set_sge_list$OFFSET, "ibv_wr_set_sge_list", STRUCT, "wr_set_sge_list");
        if (numSge > 0) {
            Memory.requireNonNull(sgList, "ibv_wr_set_sge_list", "sg_list");
        }
        callPointerPointer(f, qpx, numSge, sgList);
    }

    /** {@code ibv_wr_set_inline_data_list}: {@code qp->wr_set_inline_data_list(qp, num_buf, buf_list);} */
    public static void wrSetInlineDataList(long qpx, long numBuf, long bufList) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_set_inline_data_list$OFFSET, "ibv_wr_set_inline_data_list", STRUCT, "wr_set_inline_data_list");
        if (numBuf > 0) {
            Memory.requireNonNull(bufList, "ibv_wr_set_inline_data_list", "buf_list");
        }
        callPointerPointer(f, qpx, numBuf, bufList);
    }

    private static void callPointerPointer(long f, long qpx, long a, long b) {
        try {
            Q_P_P.invokeExact(MemorySegment.ofAddress(f), qpx, a, b);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wr_set_ud_addr}: {@code qp->wr_set_ud_addr(qp, ah, remote_qpn, remote_qkey);} */
    public static void wrSetUdAddr(long qpx, long ah, int remoteQpn, int remoteQkey) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_set_ud_addr$OFFSET, "ibv_wr_set_ud_addr", STRUCT, "wr_set_ud_addr");
        Memory.requireNonNull(ah, "ibv_wr_set_ud_addr", "ah");
        try {
            Q_P_U32_U32.invokeExact(MemorySegment.ofAddress(f), qpx, ah, remoteQpn, remoteQkey);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wr_bind_mw}: {@code qp->wr_bind_mw(qp, mw, rkey, bind_info);} */
    public static void wrBindMw(long qpx, long mw, int rkey, long bindInfo) {
        long f = FunctionPointers.read(qpx, ibv_qp_ex.wr_bind_mw$OFFSET, "ibv_wr_bind_mw", STRUCT, "wr_bind_mw");
        Memory.requireNonNull(mw, "ibv_wr_bind_mw", "mw");
        Memory.requireNonNull(bindInfo, "ibv_wr_bind_mw", "bind_info");
        try {
            Q_P_U32_P.invokeExact(MemorySegment.ofAddress(f), qpx, mw, rkey, bindInfo);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }
}
