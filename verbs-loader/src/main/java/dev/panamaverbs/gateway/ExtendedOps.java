package dev.panamaverbs.gateway;

import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_context;
import dev.panamaverbs.ffm.ibv_device_attr_ex;
import dev.panamaverbs.ffm.ibv_port_attr;
import dev.panamaverbs.ffm.ibv_qp_init_attr_ex;
import dev.panamaverbs.ffm.ibv_srq_init_attr_ex;
import dev.panamaverbs.ffm.ibv_wq;
import dev.panamaverbs.ffm.ibv_wq_init_attr;
import dev.panamaverbs.ffm.ibv_query_device_ex_input;
import dev.panamaverbs.ffm.verbs_context;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.ffm.invoke.Downcalls;
import dev.panamaverbs.ffm.invoke.verbs_context$calls;
import dev.panamaverbs.ffm.invoke.verbs_h;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The {@code static inline} verbs of verbs.h that reach the provider through
 * {@code struct verbs_context}, the extended context that sits immediately before
 * {@code struct ibv_context} in memory. Every op is guarded as the header's
 * {@code verbs_get_ctx_op} does: the context must say it is extended ({@code abi_compat}), the
 * provider's {@code sz} must cover the op, and the pointer must be non-NULL. An op that fails the
 * guard answers EOPNOTSUPP, as the header does, or takes the header's fallback where it has one.
 *
 * <p>Control-path verbs with C's return conventions (0 or an errno; a pointer, or 0 with errno
 * set). Call them only once {@code LibIbverbs.LIBRARY.isAvailable()} said yes.
 */
public final class ExtendedOps {
    private static final int EINVAL = 22;
    private static final int ENOSYS = 38;
    private static final int EOPNOTSUPP_ANSWER = OpsTable.EOPNOTSUPP;

    /** {@code __VERBS_ABI_IS_EXTENDED}: {@code (void *)UINTPTR_MAX}. */
    private static final long ABI_IS_EXTENDED = -1L;
    private static final long ABI_COMPAT = ibv_context.abi_compat$OFFSET;
    /** {@code offsetof(struct verbs_context, context)}: container_of's distance. */
    private static final long CONTEXT_IN_VERBS_CONTEXT = verbs_context.context$OFFSET;
    private static final long SZ = verbs_context.sz$OFFSET;
    private static final long VERBS_CONTEXT_SIZE = verbs_context.SIZE;

    /** Offsets of the ops in {@code struct verbs_context}, for {@link #hasOp}. */
    public static final long QUERY_PORT = verbs_context.query_port$OFFSET;
    /** Offset of {@code verbs_context.create_cq_ex}, for {@link #hasOp}. */
    public static final long CREATE_CQ_EX = verbs_context.create_cq_ex$OFFSET;
    /** Offset of {@code verbs_context.create_qp_ex}, for {@link #hasOp}. */
    public static final long CREATE_QP_EX = verbs_context.create_qp_ex$OFFSET;
    /** Offset of {@code verbs_context.query_device_ex}, for {@link #hasOp}. */
    public static final long QUERY_DEVICE_EX = verbs_context.query_device_ex$OFFSET;

    private ExtendedOps() {}

    /**
     * {@code verbs_get_ctx}: the {@code struct verbs_context *} around {@code context}, or 0 when
     * the provider's context is not extended ({@code abi_compat != __VERBS_ABI_IS_EXTENDED}).
     *
     * @param context the device context
     * @return {@code verbs_get_ctx}: the {@code struct verbs_context *} around {@code context}, or 0 when the provider's context is not extended ({@code abi_compat != __VERBS_ABI_IS_EXTENDED})
     */
    public static long verbsContext(long context) {
        Memory.requireNonNull(context, "verbs_get_ctx", "context");
        if (Memory.readLong(context + ABI_COMPAT) != ABI_IS_EXTENDED) {
            return 0;
        }
        return context - CONTEXT_IN_VERBS_CONTEXT;
    }

    /**
     * {@code verbs_get_ctx_op(ctx, op) != NULL}: the provider's context is extended, its
     * {@code sz} reaches the op ({@code sz >= sizeof(struct verbs_context) - offsetof(op)}), and
     * the op is set.
     *
     * @param opOffset one of the offset constants above, or any {@code verbs_context.<op>$OFFSET}
     * @param context the device context
     * @return {@code true} if so
     */
    public static boolean hasOp(long context, long opOffset) {
        return op(context, opOffset) != 0;
    }

    /**
     * The op at {@code opOffset}, or null with EOPNOTSUPP in {@code errno}: how every extended
     * verb answers when the provider lacks the op (also for the generated {@link IbverbsCalls}).
     */
    static MemorySegment opOrUnsupported(MemorySegment errno, long context, long opOffset) {
        long function = op(context, opOffset);
        if (function == 0) {
            Errnos.set(errno, OpsTable.EOPNOTSUPP);
            return null;
        }
        return MemorySegment.ofAddress(function);
    }

    /** The op's function pointer when {@code verbs_get_ctx_op} would find it, else 0. */
    static long op(long context, long opOffset) {
        long verbsContext = verbsContext(context);
        if (verbsContext == 0) {
            return 0;
        }
        long sz = Memory.readLong(verbsContext + SZ);
        // Unsigned compare: a garbage huge sz must not pass as "small".
        if (Long.compareUnsigned(sz, VERBS_CONTEXT_SIZE - opOffset) < 0) {
            return 0;
        }
        return Memory.readLong(verbsContext + opOffset);
    }

    /**
     * {@code ibv_query_port} (the macro, {@code ___ibv_query_port}): through
     * {@code vctx->query_port(context, port_num, port_attr, sizeof(*port_attr))} when the provider
     * has it; else, as the header does, zero the whole {@code ibv_port_attr} and call the
     * exported compat {@code ibv_query_port}, which fills only its legacy prefix.
     *
     * @param portAttr a {@code struct ibv_port_attr} of {@code ibv_port_attr.SIZE} bytes
     * @return 0, or the errno
     * @param context the device context
     * @param portNum the port number (1-based)
     */
    public static int queryPort(long context, int portNum, long portAttr) {
        Memory.requireNonNull(context, "ibv_query_port", "context");
        Memory.requireNonNull(portAttr, "ibv_query_port", "port_attr");
        byte port = portNumber(portNum, "ibv_query_port");
        long function = op(context, QUERY_PORT);
        if (function != 0) {
            return verbs_context$calls.query_port$raw(MemorySegment.ofAddress(function), context, port, portAttr,
                    ibv_port_attr.SIZE);
        }
        Memory.zero(portAttr, ibv_port_attr.SIZE);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            int rc = verbs_h.ibv_query_port(state, MemorySegment.ofAddress(context), port,
                    MemorySegment.ofAddress(portAttr));
            return errnoOf(rc, state);
        }
    }

    /**
     * {@code ibv_create_qp_ex}: when {@code comp_mask == IBV_QP_INIT_ATTR_PD}, plain
     * {@code ibv_create_qp(attr->pd, (struct ibv_qp_init_attr *)attr)}; else
     * {@code vctx->create_qp_ex(context, attr)}, EOPNOTSUPP when the provider lacks it.
     *
     * @param errno        a {@code CallState} segment: the errno on failure
     * @param qpInitAttrEx a {@code struct ibv_qp_init_attr_ex}
     * @return the {@code struct ibv_qp *}, or 0 with the errno in {@code errno}
     * @param context the device context
     */
    public static long createQpEx(MemorySegment errno, long context, long qpInitAttrEx) {
        Memory.requireNonNull(context, "ibv_create_qp_ex", "context");
        Memory.requireNonNull(qpInitAttrEx, "ibv_create_qp_ex", "qp_init_attr_ex");
        int mask = Memory.readInt(qpInitAttrEx + ibv_qp_init_attr_ex.comp_mask$OFFSET);
        if (mask == VerbsConstants.IBV_QP_INIT_ATTR_PD) {
            long pd = Memory.readLong(qpInitAttrEx + ibv_qp_init_attr_ex.pd$OFFSET);
            Memory.requireNonNull(pd, "ibv_create_qp_ex", "qp_init_attr_ex->pd");
            return verbs_h.ibv_create_qp(errno, MemorySegment.ofAddress(pd), MemorySegment.ofAddress(qpInitAttrEx))
                    .address();
        }
        MemorySegment function = opOrUnsupported(errno, context, CREATE_QP_EX);
        return function == null ? 0 : verbs_context$calls.create_qp_ex(function, errno,
                MemorySegment.ofAddress(context), MemorySegment.ofAddress(qpInitAttrEx)).address();
    }

    /** {@link #queryDeviceEx}'s answer when only {@code attr->orig_attr} was filled (legacy query). */
    public static final int LEGACY_ATTRIBUTES_ONLY = -1;

    /**
     * {@code ibv_query_device_ex}: EINVAL when {@code input->comp_mask} is set; else
     * {@code vctx->query_device_ex(context, input, attr, sizeof(*attr))}; when the provider lacks it
     * or answers EOPNOTSUPP/ENOSYS, zero {@code attr} and fill {@code attr->orig_attr} with the
     * legacy {@code ibv_query_device}.
     *
     * @param input 0 or a {@code struct ibv_query_device_ex_input}
     * @param attr  a {@code struct ibv_device_attr_ex} of {@code ibv_device_attr_ex.SIZE} bytes
     * @return 0 when the provider's {@code query_device_ex} filled all of {@code attr};
     *         {@link #LEGACY_ATTRIBUTES_ONLY} when the legacy query filled only {@code orig_attr}
     *         (the rest is zeros, not values); else the errno
     * @param context the device context
     */
    public static int queryDeviceEx(long context, long input, long attr) {
        Memory.requireNonNull(context, "ibv_query_device_ex", "context");
        Memory.requireNonNull(attr, "ibv_query_device_ex", "attr");
        if (input != 0 && Memory.readInt(input + ibv_query_device_ex_input.comp_mask$OFFSET) != 0) {
            return EINVAL;
        }
        long function = op(context, QUERY_DEVICE_EX);
        if (function != 0) {
            int rc = verbs_context$calls.query_device_ex$raw(MemorySegment.ofAddress(function), context, input, attr,
                    ibv_device_attr_ex.SIZE);
            if (rc != EOPNOTSUPP_ANSWER && rc != ENOSYS) {
                return rc;
            }
        }
        Memory.zero(attr, ibv_device_attr_ex.SIZE);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            int rc = verbs_h.ibv_query_device(state, MemorySegment.ofAddress(context),
                    MemorySegment.ofAddress(attr + ibv_device_attr_ex.orig_attr$OFFSET));
            rc = errnoOf(rc, state);
            return rc == 0 ? LEGACY_ATTRIBUTES_ONLY : rc;
        }
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
        MemorySegment function = ExtendedOps.opOrUnsupported(errno, context, verbs_context.create_srq_ex$OFFSET);
        return function == null ? 0 : verbs_context$calls.create_srq_ex(function, errno,
                MemorySegment.ofAddress(context), MemorySegment.ofAddress(initAttrEx)).address();
    }

    /**
     * {@code ibv_create_wq(context, wq_init_attr)}: {@code vctx->create_wq(context, attr)}; on
     * success, as the header, {@code wq->wq_context = attr->wq_context},
     * {@code wq->events_completed = 0} and {@code pthread_mutex_init}/{@code pthread_cond_init}
     * of {@code wq->mutex}/{@code wq->cond}.
     *
     * @param errno    a {@code CallState} segment: the errno on failure
     * @param context  the device context
     * @param initAttr a {@code struct ibv_wq_init_attr}
     * @return the {@code struct ibv_wq *}, or 0 with the errno in {@code errno}
     */
    public static long createWq(MemorySegment errno, long context, long initAttr) {
        Memory.requireNonNull(context, "ibv_create_wq", "context");
        Memory.requireNonNull(initAttr, "ibv_create_wq", "wq_init_attr");
        MemorySegment function = ExtendedOps.opOrUnsupported(errno, context, verbs_context.create_wq$OFFSET);
        if (function == null) {
            return 0;
        }
        long wq = verbs_context$calls.create_wq(function, errno, MemorySegment.ofAddress(context),
                MemorySegment.ofAddress(initAttr)).address();
        if (wq != 0) {
            Memory.writeLong(wq + ibv_wq.wq_context$OFFSET, Memory.readLong(initAttr + ibv_wq_init_attr.wq_context$OFFSET));
            Memory.writeInt(wq + ibv_wq.events_completed$OFFSET, 0);
            try {
                int unused = (int) Pthread.MUTEX_INIT.invokeExact(MemorySegment.ofAddress(wq + ibv_wq.mutex$OFFSET),
                        MemorySegment.NULL);
                unused = (int) Pthread.COND_INIT.invokeExact(MemorySegment.ofAddress(wq + ibv_wq.cond$OFFSET),
                        MemorySegment.NULL);
            } catch (Throwable t) {
                throw new IllegalStateException("ibv_create_wq: pthread init", t);
            }
        }
        return wq;
    }

    /** libc's pthread initializers, which the header's ibv_create_wq calls on the new WQ. */
    private static final class Pthread {
        static final MethodHandle MUTEX_INIT = Downcalls.handle(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS))
                .bindTo(Downcalls.libc("pthread_mutex_init"));
        static final MethodHandle COND_INIT = Downcalls.handle(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS))
                .bindTo(Downcalls.libc("pthread_cond_init"));
    }

    /** Verbs that "return errno" sometimes return -1 with errno set instead; take the real errno then. */
    static int errnoOf(int rc, MemorySegment state) {
        if (rc >= 0) {
            return rc;
        }
        int errno = CallState.errno(state);
        return errno != 0 ? errno : -rc;
    }

    static byte portNumber(int portNum, String verb) {
        if (portNum < 0 || portNum > 255) {
            throw new IllegalArgumentException(verb + ": port_num " + portNum + " is not a uint8_t");
        }
        return (byte) portNum;
    }
}
