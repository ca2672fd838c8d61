package dev.panamaverbs.gateway;

import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_srq;
import dev.panamaverbs.ffm.ibv_srq_init_attr_ex;
import dev.panamaverbs.ffm.ibv_xrcd;
import dev.panamaverbs.ffm.verbs_context;
import dev.panamaverbs.ffm.invoke.verbs_context$calls;
import dev.panamaverbs.ffm.invoke.verbs_h;

import java.lang.foreign.MemorySegment;

/**
 * The {@code static inline} XRC verbs of verbs.h: XRC domains, extended shared receive queues,
 * SRQ numbers and opening a shareable queue pair. Each goes through {@code struct verbs_context}
 * under {@code verbs_get_ctx_op}'s guard ({@link ExtendedOps#op}): a provider without the op
 * answers EOPNOTSUPP (in {@code errno} for the verbs that return a pointer).
 */
public final class XrcOps {
    /** Offset of {@code verbs_context.open_xrcd}. */
    public static final long OPEN_XRCD = verbs_context.open_xrcd$OFFSET;
    /** Offset of {@code verbs_context.close_xrcd}. */
    public static final long CLOSE_XRCD = verbs_context.close_xrcd$OFFSET;
    /** Offset of {@code verbs_context.create_srq_ex}. */
    public static final long CREATE_SRQ_EX = verbs_context.create_srq_ex$OFFSET;
    /** Offset of {@code verbs_context.get_srq_num}. */
    public static final long GET_SRQ_NUM = verbs_context.get_srq_num$OFFSET;
    /** Offset of {@code verbs_context.open_qp}. */
    public static final long OPEN_QP = verbs_context.open_qp$OFFSET;

    private XrcOps() {}

    /**
     * {@code ibv_open_xrcd(context, xrcd_init_attr)}: {@code vctx->open_xrcd(...)}.
     *
     * @param errno    a {@code CallState} segment: the errno on failure
     * @param context  the device context
     * @param initAttr a {@code struct ibv_xrcd_init_attr}
     * @return the {@code struct ibv_xrcd *}, or 0 with the errno in {@code errno}
     */
    public static long openXrcd(MemorySegment errno, long context, long initAttr) {
        Memory.requireNonNull(context, "ibv_open_xrcd", "context");
        Memory.requireNonNull(initAttr, "ibv_open_xrcd", "xrcd_init_attr");
        MemorySegment function = ExtendedOps.opOrUnsupported(errno, context, OPEN_XRCD);
        return function == null ? 0 : verbs_context$calls.open_xrcd(function, errno, MemorySegment.ofAddress(context),
                MemorySegment.ofAddress(initAttr)).address();
    }

    /**
     * {@code ibv_close_xrcd(xrcd)}: {@code vctx->close_xrcd(xrcd)} of {@code xrcd->context}.
     *
     * @param xrcd the {@code struct ibv_xrcd *}
     * @return 0, or the errno (EOPNOTSUPP when the provider lacks the op)
     */
    public static int closeXrcd(long xrcd) {
        Memory.requireNonNull(xrcd, "ibv_close_xrcd", "xrcd");
        long function = ExtendedOps.op(Memory.readLong(xrcd + ibv_xrcd.context$OFFSET), CLOSE_XRCD);
        return function == 0 ? OpsTable.EOPNOTSUPP
                : verbs_context$calls.close_xrcd$raw(MemorySegment.ofAddress(function), xrcd);
    }

    /**
     * {@code ibv_create_srq_ex(context, srq_init_attr_ex)}: as the header, plain
     * {@code ibv_create_srq(attr->pd, attr)} when {@code comp_mask} asks for no more than a PD and a
     * basic type; else {@code vctx->create_srq_ex(context, attr)}.
     *
     * @param errno     a {@code CallState} segment: the errno on failure
     * @param context   the device context
     * @param initAttrEx a {@code struct ibv_srq_init_attr_ex}
     * @return the {@code struct ibv_srq *}, or 0 with the errno in {@code errno}
     */
    public static long createSrqEx(MemorySegment errno, long context, long initAttrEx) {
        Memory.requireNonNull(context, "ibv_create_srq_ex", "context");
        Memory.requireNonNull(initAttrEx, "ibv_create_srq_ex", "srq_init_attr_ex");
        int mask = Memory.readInt(initAttrEx + ibv_srq_init_attr_ex.comp_mask$OFFSET);
        int type = Memory.readInt(initAttrEx + ibv_srq_init_attr_ex.srq_type$OFFSET);
        if ((mask & ~(VerbsConstants.IBV_SRQ_INIT_ATTR_PD | VerbsConstants.IBV_SRQ_INIT_ATTR_TYPE)) == 0
                && (mask & VerbsConstants.IBV_SRQ_INIT_ATTR_PD) != 0
                && ((mask & VerbsConstants.IBV_SRQ_INIT_ATTR_TYPE) == 0 || type == VerbsConstants.IBV_SRQT_BASIC)) {
            long pd = Memory.readLong(initAttrEx + ibv_srq_init_attr_ex.pd$OFFSET);
            Memory.requireNonNull(pd, "ibv_create_srq_ex", "srq_init_attr_ex->pd");
            return verbs_h.ibv_create_srq(errno, MemorySegment.ofAddress(pd), MemorySegment.ofAddress(initAttrEx))
                    .address();
        }
        MemorySegment function = ExtendedOps.opOrUnsupported(errno, context, CREATE_SRQ_EX);
        return function == null ? 0 : verbs_context$calls.create_srq_ex(function, errno,
                MemorySegment.ofAddress(context), MemorySegment.ofAddress(initAttrEx)).address();
    }

    /**
     * {@code ibv_get_srq_num(srq, srq_num)}: {@code vctx->get_srq_num(srq, srq_num)} of
     * {@code srq->context}.
     *
     * @param srq    the shared receive queue
     * @param srqNum a {@code uint32_t} the number is written to
     * @return 0, or the errno (EOPNOTSUPP when the provider lacks the op)
     */
    public static int getSrqNum(long srq, long srqNum) {
        Memory.requireNonNull(srq, "ibv_get_srq_num", "srq");
        Memory.requireNonNull(srqNum, "ibv_get_srq_num", "srq_num");
        long function = ExtendedOps.op(Memory.readLong(srq + ibv_srq.context$OFFSET), GET_SRQ_NUM);
        return function == 0 ? OpsTable.EOPNOTSUPP
                : verbs_context$calls.get_srq_num$raw(MemorySegment.ofAddress(function), srq, srqNum);
    }

    /**
     * {@code ibv_open_qp(context, qp_open_attr)}: {@code vctx->open_qp(context, qp_open_attr)}.
     *
     * @param errno    a {@code CallState} segment: the errno on failure
     * @param context  the device context
     * @param openAttr a {@code struct ibv_qp_open_attr}
     * @return the {@code struct ibv_qp *}, or 0 with the errno in {@code errno}
     */
    public static long openQp(MemorySegment errno, long context, long openAttr) {
        Memory.requireNonNull(context, "ibv_open_qp", "context");
        Memory.requireNonNull(openAttr, "ibv_open_qp", "qp_open_attr");
        MemorySegment function = ExtendedOps.opOrUnsupported(errno, context, OPEN_QP);
        return function == null ? 0 : verbs_context$calls.open_qp(function, errno, MemorySegment.ofAddress(context),
                MemorySegment.ofAddress(openAttr)).address();
    }
}
