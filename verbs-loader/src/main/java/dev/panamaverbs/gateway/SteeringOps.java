package dev.panamaverbs.gateway;

import dev.panamaverbs.ffm.ibv_counters;
import dev.panamaverbs.ffm.ibv_flow;
import dev.panamaverbs.ffm.ibv_qp;
import dev.panamaverbs.ffm.verbs_context;
import dev.panamaverbs.ffm.invoke.verbs_context$calls;

import java.lang.foreign.MemorySegment;

/**
 * The {@code static inline} verbs of verbs.h for flow steering and counters: through
 * {@code struct verbs_context} under {@code verbs_get_ctx_op}'s guard ({@link ExtendedOps#op}),
 * EOPNOTSUPP when the provider lacks the op (in {@code errno} for the verbs that return a pointer).
 */
public final class SteeringOps {
    /** Offset of {@code verbs_context.ibv_create_flow}. */
    public static final long CREATE_FLOW = verbs_context.ibv_create_flow$OFFSET;
    /** Offset of {@code verbs_context.ibv_destroy_flow}. */
    public static final long DESTROY_FLOW = verbs_context.ibv_destroy_flow$OFFSET;
    /** Offset of {@code verbs_context.create_counters}. */
    public static final long CREATE_COUNTERS = verbs_context.create_counters$OFFSET;
    /** Offset of {@code verbs_context.destroy_counters}. */
    public static final long DESTROY_COUNTERS = verbs_context.destroy_counters$OFFSET;
    /** Offset of {@code verbs_context.attach_counters_point_flow}. */
    public static final long ATTACH_COUNTERS_POINT_FLOW = verbs_context.attach_counters_point_flow$OFFSET;
    /** Offset of {@code verbs_context.read_counters}. */
    public static final long READ_COUNTERS = verbs_context.read_counters$OFFSET;

    private SteeringOps() {}

    /**
     * {@code ibv_create_flow(qp, flow)}: {@code vctx->ibv_create_flow(qp, flow)} of {@code qp->context}.
     *
     * @param errno    a {@code CallState} segment: the errno on failure
     * @param qp       the queue pair the matching packets go to
     * @param flowAttr a {@code struct ibv_flow_attr} followed by its specs
     * @return the {@code struct ibv_flow *}, or 0 with the errno in {@code errno}
     */
    public static long createFlow(MemorySegment errno, long qp, long flowAttr) {
        Memory.requireNonNull(qp, "ibv_create_flow", "qp");
        Memory.requireNonNull(flowAttr, "ibv_create_flow", "flow");
        MemorySegment function = ExtendedOps.opOrUnsupported(errno, Memory.readLong(qp + ibv_qp.context$OFFSET), CREATE_FLOW);
        return function == null ? 0 : verbs_context$calls.ibv_create_flow(function, errno, MemorySegment.ofAddress(qp),
                MemorySegment.ofAddress(flowAttr)).address();
    }

    /**
     * {@code ibv_destroy_flow(flow_id)}: {@code vctx->ibv_destroy_flow(flow_id)} of {@code flow_id->context}.
     *
     * @param flow the flow
     * @return 0, or the errno (EOPNOTSUPP when the provider lacks the op)
     */
    public static int destroyFlow(long flow) {
        Memory.requireNonNull(flow, "ibv_destroy_flow", "flow_id");
        long function = ExtendedOps.op(Memory.readLong(flow + ibv_flow.context$OFFSET), DESTROY_FLOW);
        return function == 0 ? OpsTable.EOPNOTSUPP
                : verbs_context$calls.ibv_destroy_flow$raw(MemorySegment.ofAddress(function), flow);
    }

    /**
     * {@code ibv_create_counters(context, init_attr)}: {@code vctx->create_counters(context, init_attr)}.
     *
     * @param errno    a {@code CallState} segment: the errno on failure
     * @param context  the device context
     * @param initAttr a {@code struct ibv_counters_init_attr}
     * @return the {@code struct ibv_counters *}, or 0 with the errno in {@code errno}
     */
    public static long createCounters(MemorySegment errno, long context, long initAttr) {
        Memory.requireNonNull(context, "ibv_create_counters", "context");
        Memory.requireNonNull(initAttr, "ibv_create_counters", "init_attr");
        MemorySegment function = ExtendedOps.opOrUnsupported(errno, context, CREATE_COUNTERS);
        return function == null ? 0 : verbs_context$calls.create_counters(function, errno,
                MemorySegment.ofAddress(context), MemorySegment.ofAddress(initAttr)).address();
    }

    /**
     * {@code ibv_destroy_counters(counters)}: {@code vctx->destroy_counters(counters)} of {@code counters->context}.
     *
     * @param counters the counters
     * @return 0, or the errno (EOPNOTSUPP when the provider lacks the op)
     */
    public static int destroyCounters(long counters) {
        Memory.requireNonNull(counters, "ibv_destroy_counters", "counters");
        long function = ExtendedOps.op(Memory.readLong(counters + ibv_counters.context$OFFSET), DESTROY_COUNTERS);
        return function == 0 ? OpsTable.EOPNOTSUPP
                : verbs_context$calls.destroy_counters$raw(MemorySegment.ofAddress(function), counters);
    }

    /**
     * {@code ibv_attach_counters_point_flow(counters, attr, flow)}:
     * {@code vctx->attach_counters_point_flow(counters, attr, flow)} of {@code counters->context}.
     *
     * @param counters the counters
     * @param attr     a {@code struct ibv_counter_attach_attr}
     * @param flow     the flow, or 0 (before the flow that counts is created)
     * @return 0, or the errno (EOPNOTSUPP when the provider lacks the op)
     */
    public static int attachCountersPointFlow(long counters, long attr, long flow) {
        Memory.requireNonNull(counters, "ibv_attach_counters_point_flow", "counters");
        Memory.requireNonNull(attr, "ibv_attach_counters_point_flow", "attr");
        long function = ExtendedOps.op(Memory.readLong(counters + ibv_counters.context$OFFSET), ATTACH_COUNTERS_POINT_FLOW);
        return function == 0 ? OpsTable.EOPNOTSUPP
                : verbs_context$calls.attach_counters_point_flow$raw(MemorySegment.ofAddress(function), counters, attr, flow);
    }

    /**
     * {@code ibv_read_counters(counters, counters_value, ncounters, flags)}:
     * {@code vctx->read_counters(...)} of {@code counters->context}.
     *
     * @param counters  the counters
     * @param values    room for {@code ncounters} {@code uint64_t}
     * @param ncounters the number of values to read
     * @param flags     {@code IBV_READ_COUNTERS_ATTR_*} bits
     * @return 0, or the errno (EOPNOTSUPP when the provider lacks the op)
     */
    public static int readCounters(long counters, long values, int ncounters, int flags) {
        Memory.requireNonNull(counters, "ibv_read_counters", "counters");
        Memory.requireNonNull(values, "ibv_read_counters", "counters_value");
        long function = ExtendedOps.op(Memory.readLong(counters + ibv_counters.context$OFFSET), READ_COUNTERS);
        return function == 0 ? OpsTable.EOPNOTSUPP
                : verbs_context$calls.read_counters$raw(MemorySegment.ofAddress(function), counters, values, ncounters, flags);
    }
}
