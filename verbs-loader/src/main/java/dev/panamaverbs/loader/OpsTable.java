package dev.panamaverbs.loader;

import dev.panamaverbs.error.VerbsException;
import dev.panamaverbs.error.VerbsUnsupportedException;
import dev.panamaverbs.ffm.ibv_context;
import dev.panamaverbs.ffm.ibv_context_ops;
import dev.panamaverbs.ffm.ibv_cq;
import dev.panamaverbs.ffm.ibv_mw;
import dev.panamaverbs.ffm.ibv_pd;
import dev.panamaverbs.ffm.ibv_qp;
import dev.panamaverbs.ffm.ibv_srq;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The {@code static inline} verbs of verbs.h that dispatch through {@code ibv_context.ops}:
 * libibverbs does not export them, so each reads the provider's function pointer from the ops
 * table, as the C body does, and calls it.
 *
 * <p>A provider's ops table never changes, so the data-path verbs come in two halves: a
 * {@code resolveX(object)} method, called once when the object is created, reads
 * {@code object->context->ops.x} and returns it as a {@link MemorySegment}; the invoker
 * {@code x(function, object, ...)} takes that function on every call. The invokers read no
 * native memory and allocate nothing, even interpreted: one {@code static final} downcall handle
 * per function-pointer signature, the resolved pointer passed as the first argument. Memory
 * windows ({@link #allocMw}, {@link #deallocMw}) are control path and still read the op per call.
 *
 * <p>Arguments are raw addresses of the C objects ({@code struct ibv_qp *} etc.) and of
 * caller-owned request/completion memory. Only use them after {@link LibIbverbs#ensureAvailable()}
 * succeeded, on objects the provider created and that are still alive; a resolved function stays
 * valid as long as its context is open, and must be the op the invoker mirrors (a post_recv
 * function handed to {@link #postSend(MemorySegment, long, long, long)} is called as is).
 *
 * <p>A NULL object or request pointer is rejected with {@link IllegalArgumentException}; an op
 * the provider left NULL raises {@link VerbsUnsupportedException} when it is resolved; nothing
 * calls through NULL (the linker refuses a NULL or heap function segment with
 * {@link IllegalArgumentException}).
 */
@SuppressWarnings("restricted") // native access is granted to this module on purpose
public final class OpsTable {
    private static final Linker LINKER = Linker.nativeLinker();

    private static final long QP_CONTEXT = ibv_qp.context$OFFSET;
    private static final long CQ_CONTEXT = ibv_cq.context$OFFSET;
    private static final long SRQ_CONTEXT = ibv_srq.context$OFFSET;
    private static final long PD_CONTEXT = ibv_pd.context$OFFSET;
    private static final long MW_CONTEXT = ibv_mw.context$OFFSET;
    private static final long OPS = ibv_context.ops$OFFSET;
    private static final long POST_SEND = OPS + ibv_context_ops.post_send$OFFSET;
    private static final long POST_RECV = OPS + ibv_context_ops.post_recv$OFFSET;
    private static final long POST_SRQ_RECV = OPS + ibv_context_ops.post_srq_recv$OFFSET;
    private static final long POLL_CQ = OPS + ibv_context_ops.poll_cq$OFFSET;
    private static final long REQ_NOTIFY_CQ = OPS + ibv_context_ops.req_notify_cq$OFFSET;
    private static final long ALLOC_MW = OPS + ibv_context_ops.alloc_mw$OFFSET;
    private static final long DEALLOC_MW = OPS + ibv_context_ops.dealloc_mw$OFFSET;

    /**
     * {@code int (*)(void *, void *, void **)}: post_send, post_recv and post_srq_recv share it.
     * Not critical: rxe's post_send rings its doorbell with a write() system call.
     */
    private static final MethodHandle POST = LINKER.downcallHandle(
            Natives.withRawAddresses(ibv_context_ops.post_send$DESC));
    /** {@code int (*)(struct ibv_cq *, int, struct ibv_wc *)}: short and never blocks, so critical. */
    private static final MethodHandle POLL = LINKER.downcallHandle(
            Natives.withRawAddresses(ibv_context_ops.poll_cq$DESC), Linker.Option.critical(false));
    /** {@code int (*)(struct ibv_cq *, int)}: may enter the kernel (rxe arms through a command). */
    private static final MethodHandle REQ_NOTIFY = LINKER.downcallHandle(
            Natives.withRawAddresses(ibv_context_ops.req_notify_cq$DESC));
    /** {@code struct ibv_mw *(*)(struct ibv_pd *, enum ibv_mw_type)}, errno captured. */
    private static final MethodHandle ALLOC_MW_CALL = LINKER.downcallHandle(
            Natives.withRawAddresses(ibv_context_ops.alloc_mw$DESC), CallState.CAPTURE_ERRNO);
    /** {@code int (*)(struct ibv_mw *)}. */
    private static final MethodHandle DEALLOC_MW_CALL = LINKER.downcallHandle(
            Natives.withRawAddresses(ibv_context_ops.dealloc_mw$DESC));

    static {
        // The three posts share one handle only because their C signatures reduce to the same one.
        FunctionDescriptor send = Natives.withRawAddresses(ibv_context_ops.post_send$DESC);
        if (!send.equals(Natives.withRawAddresses(ibv_context_ops.post_recv$DESC))
                || !send.equals(Natives.withRawAddresses(ibv_context_ops.post_srq_recv$DESC))) {
            throw new AssertionError("post_send, post_recv and post_srq_recv no longer share a signature");
        }
    }

    private OpsTable() {}

    // ---- resolving: once per object, at creation ----

    /**
     * {@code qp->context->ops.post_send}, read once: a QP's context and its ops table never
     * change, so the data path keeps this and passes it to {@link #postSend(MemorySegment, long, long, long)}.
     *
     * @param qp {@code struct ibv_qp *}
     * @return the provider's function, never NULL
     * @throws VerbsUnsupportedException naming {@code ibv_post_send} when the provider left the op NULL
     * @throws IllegalArgumentException if {@code qp} or its context pointer is NULL
     */
    public static MemorySegment resolvePostSend(long qp) {
        Memory.requireNonNull(qp, "ibv_post_send", "qp");
        return function(qp, QP_CONTEXT, POST_SEND, "ibv_post_send", "post_send");
    }

    /**
     * {@code qp->context->ops.post_recv}, read once, for {@link #postRecv(MemorySegment, long, long, long)}.
     *
     * @throws VerbsUnsupportedException naming {@code ibv_post_recv} when the provider left the op NULL
     * @throws IllegalArgumentException if {@code qp} or its context pointer is NULL
     */
    public static MemorySegment resolvePostRecv(long qp) {
        Memory.requireNonNull(qp, "ibv_post_recv", "qp");
        return function(qp, QP_CONTEXT, POST_RECV, "ibv_post_recv", "post_recv");
    }

    /**
     * {@code srq->context->ops.post_srq_recv}, read once, for
     * {@link #postSrqRecv(MemorySegment, long, long, long)}.
     *
     * @throws VerbsUnsupportedException naming {@code ibv_post_srq_recv} when the provider left the op NULL
     * @throws IllegalArgumentException if {@code srq} or its context pointer is NULL
     */
    public static MemorySegment resolvePostSrqRecv(long srq) {
        Memory.requireNonNull(srq, "ibv_post_srq_recv", "srq");
        return function(srq, SRQ_CONTEXT, POST_SRQ_RECV, "ibv_post_srq_recv", "post_srq_recv");
    }

    /**
     * {@code cq->context->ops.poll_cq}, read once, for {@link #pollCq(MemorySegment, long, int, long)}.
     * Also valid for a {@code struct ibv_cq_ex}, which starts like {@code struct ibv_cq}.
     *
     * @throws VerbsUnsupportedException naming {@code ibv_poll_cq} when the provider left the op NULL
     * @throws IllegalArgumentException if {@code cq} or its context pointer is NULL
     */
    public static MemorySegment resolvePollCq(long cq) {
        Memory.requireNonNull(cq, "ibv_poll_cq", "cq");
        return function(cq, CQ_CONTEXT, POLL_CQ, "ibv_poll_cq", "poll_cq");
    }

    /**
     * {@code cq->context->ops.req_notify_cq}, read once, for {@link #reqNotifyCq(MemorySegment, long, boolean)}.
     *
     * @throws VerbsUnsupportedException naming {@code ibv_req_notify_cq} when the provider left the op NULL
     * @throws IllegalArgumentException if {@code cq} or its context pointer is NULL
     */
    public static MemorySegment resolveReqNotifyCq(long cq) {
        Memory.requireNonNull(cq, "ibv_req_notify_cq", "cq");
        return function(cq, CQ_CONTEXT, REQ_NOTIFY_CQ, "ibv_req_notify_cq", "req_notify_cq");
    }

    // ---- the data path: through a resolved function, allocation-free ----

    /**
     * {@code ibv_post_send}: {@code return qp->context->ops.post_send(qp, wr, bad_wr);} with
     * {@code ops.post_send} already read by {@link #resolvePostSend(long)}.
     *
     * @param postSend  what {@link #resolvePostSend(long)} returned for this {@code qp} (or a QP of the same context)
     * @param qp        {@code struct ibv_qp *}
     * @param wr        the first {@code struct ibv_send_wr} of a chain linked through {@code next}
     * @param badWrOut  where the provider stores the first request it refused ({@code struct ibv_send_wr **})
     * @return 0 when every request was posted, else the errno value (ENOMEM: send queue full,
     *         EINVAL: a bad request) with {@code *badWrOut} set; not thrown, so callers can retry
     * @throws IllegalArgumentException if a pointer argument is NULL
     */
    public static int postSend(MemorySegment postSend, long qp, long wr, long badWrOut) {
        Memory.requireNonNull(qp, "ibv_post_send", "qp");
        Memory.requireNonNull(wr, "ibv_post_send", "wr");
        Memory.requireNonNull(badWrOut, "ibv_post_send", "bad_wr");
        try {
            return (int) POST.invokeExact(postSend, qp, wr, badWrOut);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /**
     * {@code ibv_post_recv}: {@code return qp->context->ops.post_recv(qp, wr, bad_wr);} with
     * {@code ops.post_recv} already read by {@link #resolvePostRecv(long)}.
     *
     * @return 0, or the errno value with {@code *badWrOut} set (see {@link #postSend(MemorySegment, long, long, long)})
     * @throws IllegalArgumentException if a pointer argument is NULL
     */
    public static int postRecv(MemorySegment postRecv, long qp, long wr, long badWrOut) {
        Memory.requireNonNull(qp, "ibv_post_recv", "qp");
        Memory.requireNonNull(wr, "ibv_post_recv", "wr");
        Memory.requireNonNull(badWrOut, "ibv_post_recv", "bad_wr");
        try {
            return (int) POST.invokeExact(postRecv, qp, wr, badWrOut);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /**
     * {@code ibv_post_srq_recv}: {@code return srq->context->ops.post_srq_recv(srq, recv_wr, bad_recv_wr);}
     * with {@code ops.post_srq_recv} already read by {@link #resolvePostSrqRecv(long)}.
     *
     * @return 0, or the errno value with {@code *badWrOut} set (see {@link #postSend(MemorySegment, long, long, long)})
     * @throws IllegalArgumentException if a pointer argument is NULL
     */
    public static int postSrqRecv(MemorySegment postSrqRecv, long srq, long wr, long badWrOut) {
        Memory.requireNonNull(srq, "ibv_post_srq_recv", "srq");
        Memory.requireNonNull(wr, "ibv_post_srq_recv", "recv_wr");
        Memory.requireNonNull(badWrOut, "ibv_post_srq_recv", "bad_recv_wr");
        try {
            return (int) POST.invokeExact(postSrqRecv, srq, wr, badWrOut);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /**
     * {@code ibv_poll_cq}: {@code return cq->context->ops.poll_cq(cq, num_entries, wc);} with
     * {@code ops.poll_cq} already read by {@link #resolvePollCq(long)}.
     *
     * @param wcArray room for {@code numEntries} {@code struct ibv_wc}
     * @return the number of completions written (0 when the CQ is empty)
     * @throws VerbsException when the provider reports a failure (a negative count)
     * @throws IllegalArgumentException if {@code cq} is NULL, {@code numEntries} negative, or
     *         {@code wcArray} NULL while {@code numEntries > 0}
     */
    public static int pollCq(MemorySegment pollCq, long cq, int numEntries, long wcArray) {
        Memory.requireNonNull(cq, "ibv_poll_cq", "cq");
        if (numEntries < 0) {
            throw new IllegalArgumentException("ibv_poll_cq: num_entries " + numEntries + " is negative");
        }
        if (numEntries > 0) {
            Memory.requireNonNull(wcArray, "ibv_poll_cq", "wc");
        }
        int polled;
        try {
            polled = (int) POLL.invokeExact(pollCq, cq, numEntries, wcArray);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
        if (polled < 0) {
            // poll_cq reports failure as a negative count, not an errno; keep the provider's value.
            throw new VerbsException("ibv_poll_cq", 0, "the provider's poll_cq returned " + polled);
        }
        return polled;
    }

    /**
     * {@code ibv_req_notify_cq}: {@code return cq->context->ops.req_notify_cq(cq, solicited_only);}
     * with {@code ops.req_notify_cq} already read by {@link #resolveReqNotifyCq(long)}.
     *
     * @throws VerbsException with the errno the provider returned
     * @throws IllegalArgumentException if {@code cq} is NULL
     */
    public static void reqNotifyCq(MemorySegment reqNotifyCq, long cq, boolean solicitedOnly) {
        Memory.requireNonNull(cq, "ibv_req_notify_cq", "cq");
        int rc;
        try {
            rc = (int) REQ_NOTIFY.invokeExact(reqNotifyCq, cq, solicitedOnly ? 1 : 0);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
        if (rc != 0) {
            throw VerbsException.of("ibv_req_notify_cq", rc);
        }
    }

    // ---- control path: resolved per call ----

    /**
     * {@code ibv_alloc_mw}: {@code if (!pd->context->ops.alloc_mw) { errno = EOPNOTSUPP; return NULL; }
     * return pd->context->ops.alloc_mw(pd, type);}
     *
     * @param type an {@code enum ibv_mw_type} value
     * @return the {@code struct ibv_mw *}
     * @throws VerbsException with the errno when the provider returned NULL
     */
    public static long allocMw(long pd, int type) {
        Memory.requireNonNull(pd, "ibv_alloc_mw", "pd");
        long function = op(pd, PD_CONTEXT, ALLOC_MW, "ibv_alloc_mw", "alloc_mw");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            long mw = (long) ALLOC_MW_CALL.invokeExact(MemorySegment.ofAddress(function), state, pd, type);
            if (mw == 0) {
                throw VerbsException.of("ibv_alloc_mw", CallState.errno(state));
            }
            return mw;
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /**
     * {@code ibv_dealloc_mw}: {@code return mw->context->ops.dealloc_mw(mw);}
     *
     * @throws VerbsException with the errno the provider returned
     */
    public static void deallocMw(long mw) {
        Memory.requireNonNull(mw, "ibv_dealloc_mw", "mw");
        long function = op(mw, MW_CONTEXT, DEALLOC_MW, "ibv_dealloc_mw", "dealloc_mw");
        int rc;
        try {
            rc = (int) DEALLOC_MW_CALL.invokeExact(MemorySegment.ofAddress(function), mw);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
        if (rc != 0) {
            throw VerbsException.of("ibv_dealloc_mw", rc);
        }
    }

    /** {@link #op} as the segment a downcall takes as its target: the resolve methods' result. */
    private static MemorySegment function(long object, long contextOffset, long opOffset, String verb, String op) {
        return MemorySegment.ofAddress(op(object, contextOffset, opOffset, verb, op));
    }

    /**
     * {@code object->context->ops.<op>}: the provider's function pointer, never NULL.
     *
     * @param contextOffset where the object keeps its {@code struct ibv_context *}
     * @param opOffset      the op's offset inside {@code struct ibv_context}
     */
    private static long op(long object, long contextOffset, long opOffset, String verb, String op) {
        long context = Memory.readLong(object + contextOffset);
        if (context == 0) {
            throw new IllegalArgumentException(verb + ": the object's context pointer is NULL");
        }
        long function = Memory.readLong(context + opOffset);
        if (function == 0) {
            throw new VerbsUnsupportedException(verb, "the provider's ibv_context.ops." + op + " is NULL");
        }
        return function;
    }
}
