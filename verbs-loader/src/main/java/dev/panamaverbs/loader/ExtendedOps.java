package dev.panamaverbs.loader;

import dev.panamaverbs.error.Errno;
import dev.panamaverbs.error.VerbsException;
import dev.panamaverbs.error.VerbsUnsupportedException;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_context;
import dev.panamaverbs.ffm.ibv_device_attr_ex;
import dev.panamaverbs.ffm.ibv_port_attr;
import dev.panamaverbs.ffm.ibv_qp_init_attr_ex;
import dev.panamaverbs.ffm.ibv_query_device_ex_input;
import dev.panamaverbs.ffm.verbs_context;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The {@code static inline} verbs of verbs.h that reach the provider through
 * {@code struct verbs_context}, the extended context that sits immediately before
 * {@code struct ibv_context} in memory. Every op is guarded as the header's
 * {@code verbs_get_ctx_op} does: the context must say it is extended ({@code abi_compat}), the
 * provider's {@code sz} must cover the op, and the pointer must be non-NULL. An op that fails the
 * guard raises {@link VerbsUnsupportedException}, or takes the header's fallback where it has one.
 *
 * <p>Control-path verbs: they throw {@link VerbsException} (errno inside) instead of returning
 * error codes. Call them only after {@link LibIbverbs#ensureAvailable()} succeeded.
 */
@SuppressWarnings("restricted") // native access is granted to this module on purpose
public final class ExtendedOps {
    private static final Linker LINKER = Linker.nativeLinker();

    /** {@code __VERBS_ABI_IS_EXTENDED}: {@code (void *)UINTPTR_MAX}. */
    private static final long ABI_IS_EXTENDED = -1L;
    private static final long ABI_COMPAT = ibv_context.abi_compat$OFFSET;
    /** {@code offsetof(struct verbs_context, context)}: container_of's distance. */
    private static final long CONTEXT_IN_VERBS_CONTEXT = verbs_context.context$OFFSET;
    private static final long SZ = verbs_context.sz$OFFSET;
    private static final long VERBS_CONTEXT_SIZE = verbs_context.SIZE;

    /** Offsets of the ops in {@code struct verbs_context}, for {@link #hasOp}. */
    public static final long QUERY_PORT = verbs_context.query_port$OFFSET;
    public static final long CREATE_CQ_EX = verbs_context.create_cq_ex$OFFSET;
    public static final long CREATE_QP_EX = verbs_context.create_qp_ex$OFFSET;
    public static final long QUERY_DEVICE_EX = verbs_context.query_device_ex$OFFSET;

    /** {@code int (*)(struct ibv_context *, uint8_t, struct ibv_port_attr *, size_t)}. */
    private static final MethodHandle QUERY_PORT_CALL = LINKER.downcallHandle(
            Natives.withRawAddresses(verbs_context.query_port$DESC));
    /** {@code struct ibv_cq_ex *(*)(struct ibv_context *, struct ibv_cq_init_attr_ex *)}, errno captured. */
    private static final MethodHandle CREATE_CQ_EX_CALL = LINKER.downcallHandle(
            Natives.withRawAddresses(verbs_context.create_cq_ex$DESC), CallState.CAPTURE_ERRNO);
    /** {@code struct ibv_qp *(*)(struct ibv_context *, struct ibv_qp_init_attr_ex *)}, errno captured. */
    private static final MethodHandle CREATE_QP_EX_CALL = LINKER.downcallHandle(
            Natives.withRawAddresses(verbs_context.create_qp_ex$DESC), CallState.CAPTURE_ERRNO);
    /** {@code int (*)(struct ibv_context *, const struct ibv_query_device_ex_input *, struct ibv_device_attr_ex *, size_t)}. */
    private static final MethodHandle QUERY_DEVICE_EX_CALL = LINKER.downcallHandle(
            Natives.withRawAddresses(verbs_context.query_device_ex$DESC));

    private ExtendedOps() {}

    /**
     * {@code verbs_get_ctx}: the {@code struct verbs_context *} around {@code context}, or 0 when
     * the provider's context is not extended ({@code abi_compat != __VERBS_ABI_IS_EXTENDED}).
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
     */
    public static boolean hasOp(long context, long opOffset) {
        return op(context, opOffset) != 0;
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

    private static String missing(long context, String op) {
        long verbsContext = verbsContext(context);
        if (verbsContext == 0) {
            return "the provider's ibv_context is not a verbs_context (abi_compat is not __VERBS_ABI_IS_EXTENDED)";
        }
        long sz = Memory.readLong(verbsContext + SZ);
        return "the provider's verbs_context (sz " + sz + " of " + VERBS_CONTEXT_SIZE + " bytes) has no " + op;
    }

    /**
     * {@code ibv_query_port} (the macro, {@code ___ibv_query_port}): through
     * {@code vctx->query_port(context, port_num, port_attr, sizeof(*port_attr))} when the provider
     * has it; else, as the header does, zero the whole {@code ibv_port_attr} and call the
     * exported compat {@code ibv_query_port}, which fills only its legacy prefix.
     *
     * @param portAttr a {@code struct ibv_port_attr} of {@code ibv_port_attr.SIZE} bytes
     * @throws VerbsException with the errno the verb returned
     */
    public static void queryPort(long context, int portNum, long portAttr) {
        Memory.requireNonNull(context, "ibv_query_port", "context");
        Memory.requireNonNull(portAttr, "ibv_query_port", "port_attr");
        byte port = portNumber(portNum, "ibv_query_port");
        long function = op(context, QUERY_PORT);
        int rc;
        try {
            if (function != 0) {
                rc = (int) QUERY_PORT_CALL.invokeExact(MemorySegment.ofAddress(function), context, port, portAttr,
                        ibv_port_attr.SIZE);
            } else {
                Memory.zero(portAttr, ibv_port_attr.SIZE);
                LibIbverbs.ensureAvailable();
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment state = CallState.allocate(arena);
                    rc = (int) ExportedCalls.QUERY_PORT.invokeExact(state, context, port, portAttr);
                    rc = errnoOf(rc, state);
                }
            }
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
        if (rc != 0) {
            throw VerbsException.of("ibv_query_port", rc);
        }
    }

    /**
     * {@code ibv_create_cq_ex}: {@code vctx = verbs_get_ctx_op(context, create_cq_ex); if (!vctx)
     * { errno = EOPNOTSUPP; return NULL; } return vctx->create_cq_ex(context, cq_attr);}
     *
     * @param cqInitAttrEx a {@code struct ibv_cq_init_attr_ex}
     * @return the {@code struct ibv_cq_ex *}
     * @throws VerbsUnsupportedException when the provider lacks create_cq_ex
     * @throws VerbsException with errno when it returned NULL
     */
    public static long createCqEx(long context, long cqInitAttrEx) {
        Memory.requireNonNull(context, "ibv_create_cq_ex", "context");
        Memory.requireNonNull(cqInitAttrEx, "ibv_create_cq_ex", "cq_attr");
        long function = op(context, CREATE_CQ_EX);
        if (function == 0) {
            throw new VerbsUnsupportedException("ibv_create_cq_ex", missing(context, "create_cq_ex"));
        }
        return createThrough(CREATE_CQ_EX_CALL, function, context, cqInitAttrEx, "ibv_create_cq_ex");
    }

    /**
     * {@code ibv_create_qp_ex}: when {@code comp_mask == IBV_QP_INIT_ATTR_PD}, plain
     * {@code ibv_create_qp(attr->pd, (struct ibv_qp_init_attr *)attr)}; else
     * {@code vctx->create_qp_ex(context, attr)}, EOPNOTSUPP when the provider lacks it.
     *
     * @param qpInitAttrEx a {@code struct ibv_qp_init_attr_ex}
     * @return the {@code struct ibv_qp *}
     */
    public static long createQpEx(long context, long qpInitAttrEx) {
        Memory.requireNonNull(context, "ibv_create_qp_ex", "context");
        Memory.requireNonNull(qpInitAttrEx, "ibv_create_qp_ex", "qp_init_attr_ex");
        int mask = Memory.readInt(qpInitAttrEx + ibv_qp_init_attr_ex.comp_mask$OFFSET);
        if (mask == VerbsConstants.IBV_QP_INIT_ATTR_PD) {
            long pd = Memory.readLong(qpInitAttrEx + ibv_qp_init_attr_ex.pd$OFFSET);
            Memory.requireNonNull(pd, "ibv_create_qp_ex", "qp_init_attr_ex->pd");
            LibIbverbs.ensureAvailable();
            long qp;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment state = CallState.allocate(arena);
                qp = (long) ExportedCalls.CREATE_QP.invokeExact(state, pd, qpInitAttrEx);
                if (qp == 0) {
                    throw VerbsException.of("ibv_create_qp_ex", CallState.errno(state));
                }
            } catch (Throwable t) {
                throw Invoke.rethrow(t);
            }
            return qp;
        }
        long function = op(context, CREATE_QP_EX);
        if (function == 0) {
            throw new VerbsUnsupportedException("ibv_create_qp_ex", missing(context, "create_qp_ex"));
        }
        return createThrough(CREATE_QP_EX_CALL, function, context, qpInitAttrEx, "ibv_create_qp_ex");
    }

    private static long createThrough(MethodHandle call, long function, long context, long attr, String verb) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            long created = (long) call.invokeExact(MemorySegment.ofAddress(function), state, context, attr);
            if (created == 0) {
                throw VerbsException.of(verb, CallState.errno(state));
            }
            return created;
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /**
     * {@code ibv_query_device_ex}: EINVAL when {@code input->comp_mask} is set; else
     * {@code vctx->query_device_ex(context, input, attr, sizeof(*attr))}; when the provider lacks it
     * or answers EOPNOTSUPP/ENOSYS, zero {@code attr} and fill {@code attr->orig_attr} with the
     * legacy {@code ibv_query_device}.
     *
     * @param input 0 or a {@code struct ibv_query_device_ex_input}
     * @param attr  a {@code struct ibv_device_attr_ex} of {@code ibv_device_attr_ex.SIZE} bytes
     * @return true when the provider's {@code query_device_ex} filled all of {@code attr}; false
     *         when the legacy query filled only {@code attr->orig_attr} (the rest is zeros, not values)
     */
    public static boolean queryDeviceEx(long context, long input, long attr) {
        Memory.requireNonNull(context, "ibv_query_device_ex", "context");
        Memory.requireNonNull(attr, "ibv_query_device_ex", "attr");
        if (input != 0 && Memory.readInt(input + ibv_query_device_ex_input.comp_mask$OFFSET) != 0) {
            throw new VerbsException("ibv_query_device_ex", Errno.EINVAL, "input->comp_mask must be 0");
        }
        long function = op(context, QUERY_DEVICE_EX);
        int rc;
        try {
            if (function != 0) {
                rc = (int) QUERY_DEVICE_EX_CALL.invokeExact(MemorySegment.ofAddress(function), context, input, attr,
                        ibv_device_attr_ex.SIZE);
                if (!Errno.meansUnsupported(rc)) {
                    if (rc != 0) {
                        throw VerbsException.of("ibv_query_device_ex", rc);
                    }
                    return true;
                }
            }
            Memory.zero(attr, ibv_device_attr_ex.SIZE);
            LibIbverbs.ensureAvailable();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment state = CallState.allocate(arena);
                rc = (int) ExportedCalls.QUERY_DEVICE.invokeExact(state, context,
                        attr + ibv_device_attr_ex.orig_attr$OFFSET);
                rc = errnoOf(rc, state);
            }
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
        if (rc != 0) {
            throw VerbsException.of("ibv_query_device_ex", rc);
        }
        return false;
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
