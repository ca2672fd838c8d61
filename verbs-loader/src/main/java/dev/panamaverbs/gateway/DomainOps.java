package dev.panamaverbs.gateway;

import dev.panamaverbs.ffm.ibv_dm;
import dev.panamaverbs.ffm.ibv_pd;
import dev.panamaverbs.ffm.ibv_qp;
import dev.panamaverbs.ffm.ibv_td;
import dev.panamaverbs.ffm.verbs_context;
import dev.panamaverbs.ffm.invoke.ibv_dm$calls;
import dev.panamaverbs.ffm.invoke.verbs_context$calls;

import java.lang.foreign.MemorySegment;

/**
 * The {@code static inline} verbs of verbs.h for device memory, null memory regions, thread
 * domains, parent domains and packet pacing. Each reaches the provider through
 * {@code struct verbs_context} under {@code verbs_get_ctx_op}'s guard ({@link ExtendedOps#op}), as
 * the header does: a provider without the op answers EOPNOTSUPP (in {@code errno} for the verbs
 * that return a pointer, as the return value for the others).
 */
public final class DomainOps {
    /** Offset of {@code verbs_context.alloc_dm}. */
    public static final long ALLOC_DM = verbs_context.alloc_dm$OFFSET;
    /** Offset of {@code verbs_context.free_dm}. */
    public static final long FREE_DM = verbs_context.free_dm$OFFSET;
    /** Offset of {@code verbs_context.reg_dm_mr}. */
    public static final long REG_DM_MR = verbs_context.reg_dm_mr$OFFSET;
    /** Offset of {@code verbs_context.alloc_null_mr}. */
    public static final long ALLOC_NULL_MR = verbs_context.alloc_null_mr$OFFSET;
    /** Offset of {@code verbs_context.alloc_td}. */
    public static final long ALLOC_TD = verbs_context.alloc_td$OFFSET;
    /** Offset of {@code verbs_context.dealloc_td}. */
    public static final long DEALLOC_TD = verbs_context.dealloc_td$OFFSET;
    /** Offset of {@code verbs_context.alloc_parent_domain}. */
    public static final long ALLOC_PARENT_DOMAIN = verbs_context.alloc_parent_domain$OFFSET;
    /** Offset of {@code verbs_context.modify_qp_rate_limit}. */
    public static final long MODIFY_QP_RATE_LIMIT = verbs_context.modify_qp_rate_limit$OFFSET;

    private DomainOps() {}

    /**
     * {@code ibv_alloc_dm(context, attr)}: {@code vctx->alloc_dm(context, attr)}.
     *
     * @param errno   a {@code CallState} segment: the errno on failure
     * @param context the device context
     * @param attr    a {@code struct ibv_alloc_dm_attr}
     * @return the {@code struct ibv_dm *}, or 0 with the errno in {@code errno}
     */
    public static long allocDm(MemorySegment errno, long context, long attr) {
        Memory.requireNonNull(context, "ibv_alloc_dm", "context");
        Memory.requireNonNull(attr, "ibv_alloc_dm", "attr");
        MemorySegment function = ExtendedOps.opOrUnsupported(errno, context, ALLOC_DM);
        return function == null ? 0 : verbs_context$calls.alloc_dm(function, errno,
                MemorySegment.ofAddress(context), MemorySegment.ofAddress(attr)).address();
    }

    /**
     * {@code ibv_free_dm(dm)}: {@code vctx->free_dm(dm)} of {@code dm->context}.
     *
     * @param dm the {@code struct ibv_dm *}
     * @return 0, or the errno (EOPNOTSUPP when the provider lacks the op)
     */
    public static int freeDm(long dm) {
        Memory.requireNonNull(dm, "ibv_free_dm", "dm");
        long function = ExtendedOps.op(Memory.readLong(dm + ibv_dm.context$OFFSET), FREE_DM);
        return function == 0 ? OpsTable.EOPNOTSUPP : verbs_context$calls.free_dm$raw(MemorySegment.ofAddress(function), dm);
    }

    /**
     * {@code ibv_memcpy_to_dm(dm, dm_offset, host_addr, length)}: {@code dm->memcpy_to_dm(...)}.
     *
     * @param dm       the {@code struct ibv_dm *}
     * @param dmOffset the offset in the device memory
     * @param host     the source in host memory
     * @param length   the bytes to copy
     * @return 0, or the errno
     */
    public static int memcpyToDm(long dm, long dmOffset, long host, long length) {
        Memory.requireNonNull(dm, "ibv_memcpy_to_dm", "dm");
        Memory.requireNonNull(host, "ibv_memcpy_to_dm", "host_addr");
        long function = Memory.readLong(dm + ibv_dm.memcpy_to_dm$OFFSET);
        return function == 0 ? OpsTable.EOPNOTSUPP
                : ibv_dm$calls.memcpy_to_dm$raw(MemorySegment.ofAddress(function), dm, dmOffset, host, length);
    }

    /**
     * {@code ibv_memcpy_from_dm(host_addr, dm, dm_offset, length)}: {@code dm->memcpy_from_dm(...)}.
     *
     * @param host     the destination in host memory
     * @param dm       the {@code struct ibv_dm *}
     * @param dmOffset the offset in the device memory
     * @param length   the bytes to copy
     * @return 0, or the errno
     */
    public static int memcpyFromDm(long host, long dm, long dmOffset, long length) {
        Memory.requireNonNull(dm, "ibv_memcpy_from_dm", "dm");
        Memory.requireNonNull(host, "ibv_memcpy_from_dm", "host_addr");
        long function = Memory.readLong(dm + ibv_dm.memcpy_from_dm$OFFSET);
        return function == 0 ? OpsTable.EOPNOTSUPP
                : ibv_dm$calls.memcpy_from_dm$raw(MemorySegment.ofAddress(function), host, dm, dmOffset, length);
    }

    /**
     * {@code ibv_reg_dm_mr(pd, dm, dm_offset, length, access)}: {@code vctx->reg_dm_mr(...)} of
     * {@code pd->context}.
     *
     * @param errno    a {@code CallState} segment: the errno on failure
     * @param pd       the protection domain
     * @param dm       the device memory
     * @param dmOffset the offset in the device memory
     * @param length   the bytes to register
     * @param access   {@code IBV_ACCESS_*} bits
     * @return the {@code struct ibv_mr *}, or 0 with the errno in {@code errno}
     */
    public static long regDmMr(MemorySegment errno, long pd, long dm, long dmOffset, long length, int access) {
        Memory.requireNonNull(pd, "ibv_reg_dm_mr", "pd");
        Memory.requireNonNull(dm, "ibv_reg_dm_mr", "dm");
        MemorySegment function = ExtendedOps.opOrUnsupported(errno, Memory.readLong(pd + ibv_pd.context$OFFSET), REG_DM_MR);
        return function == null ? 0 : verbs_context$calls.reg_dm_mr(function, errno, MemorySegment.ofAddress(pd),
                MemorySegment.ofAddress(dm), dmOffset, length, access).address();
    }

    /**
     * {@code ibv_alloc_null_mr(pd)}: {@code vctx->alloc_null_mr(pd)} of {@code pd->context}.
     *
     * @param errno a {@code CallState} segment: the errno on failure
     * @param pd    the protection domain
     * @return the {@code struct ibv_mr *}, or 0 with the errno in {@code errno}
     */
    public static long allocNullMr(MemorySegment errno, long pd) {
        Memory.requireNonNull(pd, "ibv_alloc_null_mr", "pd");
        MemorySegment function = ExtendedOps.opOrUnsupported(errno, Memory.readLong(pd + ibv_pd.context$OFFSET), ALLOC_NULL_MR);
        return function == null ? 0 : verbs_context$calls.alloc_null_mr(function, errno, MemorySegment.ofAddress(pd))
                .address();
    }

    /**
     * {@code ibv_alloc_td(context, init_attr)}: {@code vctx->alloc_td(context, init_attr)}.
     *
     * @param errno    a {@code CallState} segment: the errno on failure
     * @param context  the device context
     * @param initAttr a {@code struct ibv_td_init_attr}
     * @return the {@code struct ibv_td *}, or 0 with the errno in {@code errno}
     */
    public static long allocTd(MemorySegment errno, long context, long initAttr) {
        Memory.requireNonNull(context, "ibv_alloc_td", "context");
        Memory.requireNonNull(initAttr, "ibv_alloc_td", "init_attr");
        MemorySegment function = ExtendedOps.opOrUnsupported(errno, context, ALLOC_TD);
        return function == null ? 0 : verbs_context$calls.alloc_td(function, errno, MemorySegment.ofAddress(context),
                MemorySegment.ofAddress(initAttr)).address();
    }

    /**
     * {@code ibv_dealloc_td(td)}: {@code vctx->dealloc_td(td)} of {@code td->context}.
     *
     * @param td the {@code struct ibv_td *}
     * @return 0, or the errno (EOPNOTSUPP when the provider lacks the op)
     */
    public static int deallocTd(long td) {
        Memory.requireNonNull(td, "ibv_dealloc_td", "td");
        long function = ExtendedOps.op(Memory.readLong(td + ibv_td.context$OFFSET), DEALLOC_TD);
        return function == 0 ? OpsTable.EOPNOTSUPP
                : verbs_context$calls.dealloc_td$raw(MemorySegment.ofAddress(function), td);
    }

    /**
     * {@code ibv_alloc_parent_domain(context, attr)}: {@code vctx->alloc_parent_domain(context, attr)}.
     *
     * @param errno   a {@code CallState} segment: the errno on failure
     * @param context the device context
     * @param attr    a {@code struct ibv_parent_domain_init_attr}
     * @return the parent domain's {@code struct ibv_pd *}, or 0 with the errno in {@code errno}
     */
    public static long allocParentDomain(MemorySegment errno, long context, long attr) {
        Memory.requireNonNull(context, "ibv_alloc_parent_domain", "context");
        Memory.requireNonNull(attr, "ibv_alloc_parent_domain", "attr");
        MemorySegment function = ExtendedOps.opOrUnsupported(errno, context, ALLOC_PARENT_DOMAIN);
        return function == null ? 0 : verbs_context$calls.alloc_parent_domain(function, errno,
                MemorySegment.ofAddress(context), MemorySegment.ofAddress(attr)).address();
    }

    /**
     * {@code ibv_modify_qp_rate_limit(qp, attr)}: {@code vctx->modify_qp_rate_limit(qp, attr)} of
     * {@code qp->context}.
     *
     * @param qp   the queue pair
     * @param attr a {@code struct ibv_qp_rate_limit_attr}
     * @return 0, or the errno (EOPNOTSUPP when the provider lacks the op)
     */
    public static int modifyQpRateLimit(long qp, long attr) {
        Memory.requireNonNull(qp, "ibv_modify_qp_rate_limit", "qp");
        Memory.requireNonNull(attr, "ibv_modify_qp_rate_limit", "attr");
        long function = ExtendedOps.op(Memory.readLong(qp + ibv_qp.context$OFFSET), MODIFY_QP_RATE_LIMIT);
        return function == 0 ? OpsTable.EOPNOTSUPP
                : verbs_context$calls.modify_qp_rate_limit$raw(MemorySegment.ofAddress(function), qp, attr);
    }
}
