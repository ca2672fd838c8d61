package dev.panamaverbs.gateway;

import dev.panamaverbs.ffm.ibv_rwq_ind_table;
import dev.panamaverbs.ffm.ibv_wq;
import dev.panamaverbs.ffm.ibv_wq_init_attr;
import dev.panamaverbs.ffm.verbs_context;
import dev.panamaverbs.ffm.invoke.Downcalls;
import dev.panamaverbs.ffm.invoke.ibv_wq$calls;
import dev.panamaverbs.ffm.invoke.verbs_context$calls;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The {@code static inline} verbs of verbs.h for receive work queues and their indirection
 * tables (RSS): through {@code struct verbs_context} under {@code verbs_get_ctx_op}'s guard
 * ({@link ExtendedOps#op}), EOPNOTSUPP when the provider lacks the op; {@code ibv_post_wq_recv}
 * through the WQ's own {@code post_recv}.
 */
public final class WqOps {
    /** Offset of {@code verbs_context.create_wq}. */
    public static final long CREATE_WQ = verbs_context.create_wq$OFFSET;
    /** Offset of {@code verbs_context.modify_wq}. */
    public static final long MODIFY_WQ = verbs_context.modify_wq$OFFSET;
    /** Offset of {@code verbs_context.destroy_wq}. */
    public static final long DESTROY_WQ = verbs_context.destroy_wq$OFFSET;
    /** Offset of {@code verbs_context.create_rwq_ind_table}. */
    public static final long CREATE_RWQ_IND_TABLE = verbs_context.create_rwq_ind_table$OFFSET;
    /** Offset of {@code verbs_context.destroy_rwq_ind_table}. */
    public static final long DESTROY_RWQ_IND_TABLE = verbs_context.destroy_rwq_ind_table$OFFSET;

    private WqOps() {}

    /** libc's pthread initializers, which the header's ibv_create_wq calls on the new WQ. */
    private static final class Pthread {
        static final MethodHandle MUTEX_INIT = Downcalls.handle(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS))
                .bindTo(Downcalls.libc("pthread_mutex_init"));
        static final MethodHandle COND_INIT = Downcalls.handle(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS))
                .bindTo(Downcalls.libc("pthread_cond_init"));
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
        MemorySegment function = ExtendedOps.opOrUnsupported(errno, context, CREATE_WQ);
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

    /**
     * {@code ibv_modify_wq(wq, wq_attr)}: {@code vctx->modify_wq(wq, attr)} of {@code wq->context}.
     *
     * @param wq   the work queue
     * @param attr a {@code struct ibv_wq_attr}
     * @return 0, or the errno (EOPNOTSUPP when the provider lacks the op)
     */
    public static int modifyWq(long wq, long attr) {
        Memory.requireNonNull(wq, "ibv_modify_wq", "wq");
        Memory.requireNonNull(attr, "ibv_modify_wq", "wq_attr");
        long function = ExtendedOps.op(Memory.readLong(wq + ibv_wq.context$OFFSET), MODIFY_WQ);
        return function == 0 ? OpsTable.EOPNOTSUPP
                : verbs_context$calls.modify_wq$raw(MemorySegment.ofAddress(function), wq, attr);
    }

    /**
     * {@code ibv_destroy_wq(wq)}: {@code vctx->destroy_wq(wq)} of {@code wq->context}.
     *
     * @param wq the work queue
     * @return 0, or the errno (EOPNOTSUPP when the provider lacks the op)
     */
    public static int destroyWq(long wq) {
        Memory.requireNonNull(wq, "ibv_destroy_wq", "wq");
        long function = ExtendedOps.op(Memory.readLong(wq + ibv_wq.context$OFFSET), DESTROY_WQ);
        return function == 0 ? OpsTable.EOPNOTSUPP
                : verbs_context$calls.destroy_wq$raw(MemorySegment.ofAddress(function), wq);
    }

    /**
     * {@code ibv_post_wq_recv(wq, recv_wr, bad_recv_wr)}: {@code wq->post_recv(...)}.
     *
     * @param wq    the work queue
     * @param wr    the first {@code struct ibv_recv_wr}
     * @param badWr a {@code struct ibv_recv_wr *} the provider points at the first refused request
     * @return 0, or the errno (positive or negative, as providers return it); EOPNOTSUPP when the
     *         WQ has no {@code post_recv}
     */
    public static int postWqRecv(long wq, long wr, long badWr) {
        Memory.requireNonNull(wq, "ibv_post_wq_recv", "wq");
        Memory.requireNonNull(wr, "ibv_post_wq_recv", "recv_wr");
        Memory.requireNonNull(badWr, "ibv_post_wq_recv", "bad_recv_wr");
        long function = Memory.readLong(wq + ibv_wq.post_recv$OFFSET);
        return function == 0 ? OpsTable.EOPNOTSUPP
                : ibv_wq$calls.post_recv$raw(MemorySegment.ofAddress(function), wq, wr, badWr);
    }

    /**
     * {@code ibv_create_rwq_ind_table(context, init_attr)}: {@code vctx->create_rwq_ind_table(...)}.
     *
     * @param errno    a {@code CallState} segment: the errno on failure
     * @param context  the device context
     * @param initAttr a {@code struct ibv_rwq_ind_table_init_attr}
     * @return the {@code struct ibv_rwq_ind_table *}, or 0 with the errno in {@code errno}
     */
    public static long createRwqIndTable(MemorySegment errno, long context, long initAttr) {
        Memory.requireNonNull(context, "ibv_create_rwq_ind_table", "context");
        Memory.requireNonNull(initAttr, "ibv_create_rwq_ind_table", "init_attr");
        MemorySegment function = ExtendedOps.opOrUnsupported(errno, context, CREATE_RWQ_IND_TABLE);
        return function == null ? 0 : verbs_context$calls.create_rwq_ind_table(function, errno,
                MemorySegment.ofAddress(context), MemorySegment.ofAddress(initAttr)).address();
    }

    /**
     * {@code ibv_destroy_rwq_ind_table(table)}: {@code vctx->destroy_rwq_ind_table(table)} of
     * {@code table->context}.
     *
     * @param table the indirection table
     * @return 0, or the errno (EOPNOTSUPP when the provider lacks the op)
     */
    public static int destroyRwqIndTable(long table) {
        Memory.requireNonNull(table, "ibv_destroy_rwq_ind_table", "rwq_ind_table");
        long function = ExtendedOps.op(Memory.readLong(table + ibv_rwq_ind_table.context$OFFSET), DESTROY_RWQ_IND_TABLE);
        return function == 0 ? OpsTable.EOPNOTSUPP
                : verbs_context$calls.destroy_rwq_ind_table$raw(MemorySegment.ofAddress(function), table);
    }
}
