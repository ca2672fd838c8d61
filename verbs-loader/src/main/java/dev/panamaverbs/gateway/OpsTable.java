package dev.panamaverbs.gateway;

import dev.panamaverbs.ffm.ibv_context;
import dev.panamaverbs.ffm.ibv_context_ops;
import dev.panamaverbs.ffm.ibv_cq;
import dev.panamaverbs.ffm.ibv_mw;
import dev.panamaverbs.ffm.ibv_pd;
import dev.panamaverbs.ffm.ibv_qp;
import dev.panamaverbs.ffm.ibv_recv_wr;
import dev.panamaverbs.ffm.ibv_send_wr;
import dev.panamaverbs.ffm.ibv_srq;
import dev.panamaverbs.ffm.ibv_wc;
import dev.panamaverbs.ffm.invoke.Downcalls;
import dev.panamaverbs.ffm.invoke.ibv_context_ops$calls;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * The {@code static inline} verbs of verbs.h that dispatch through {@code ibv_context.ops}:
 * libibverbs does not export them, so each reads the provider's function pointer from the ops
 * table, as the C body does, and calls it through the generated invoker. C's return conventions
 * are kept (0 or an errno; a count, negative on failure; a pointer, 0 with errno): the API maps
 * them to exceptions in one place.
 *
 * <p>A provider's ops table never changes, so the data-path verbs come in two halves: a
 * {@code resolveX(object)} method, called once when the object is created, reads
 * {@code object->context->ops.x}; the invoker {@code x(function, object, ...)} takes that function
 * on every call, reads no native memory and allocates nothing, even interpreted. Memory windows
 * are control path and read their op per call.
 *
 * <p>Arguments are raw addresses of the C objects and of caller-owned request/completion memory:
 * only pass objects the provider created and that are still alive. NULL pointers are refused with
 * {@link IllegalArgumentException} before any native call.
 */
public final class OpsTable {
    /** {@code EOPNOTSUPP}: what the header's inline verbs answer for an op the provider left NULL. */
    public static final int EOPNOTSUPP = 95;

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
    private static final long BIND_MW = OPS + ibv_context_ops.bind_mw$OFFSET;

    private OpsTable() {}

    // ---- resolving: once per object, at creation ----

    /**
     * {@code qp->context->ops.post_send}, or {@link MemorySegment#NULL} when the provider has none.
     *
     * @param qp the queue pair
     * @return {@code qp->context->ops.post_send}, or {@link MemorySegment#NULL} when the provider has none
     */
    public static MemorySegment resolvePostSend(long qp) {
        return op(qp, QP_CONTEXT, POST_SEND, "ibv_post_send", "qp");
    }

    /**
     * {@code qp->context->ops.post_recv}, or NULL.
     *
     * @param qp the queue pair
     * @return {@code qp->context->ops.post_recv}, or NULL
     */
    public static MemorySegment resolvePostRecv(long qp) {
        return op(qp, QP_CONTEXT, POST_RECV, "ibv_post_recv", "qp");
    }

    /**
     * {@code srq->context->ops.post_srq_recv}, or NULL.
     *
     * @param srq the shared receive queue
     * @return {@code srq->context->ops.post_srq_recv}, or NULL
     */
    public static MemorySegment resolvePostSrqRecv(long srq) {
        return op(srq, SRQ_CONTEXT, POST_SRQ_RECV, "ibv_post_srq_recv", "srq");
    }

    /**
     * {@code cq->context->ops.poll_cq}, or NULL; also valid for a {@code struct ibv_cq_ex}.
     *
     * @param cq the completion queue
     * @return {@code cq->context->ops.poll_cq}, or NULL
     */
    public static MemorySegment resolvePollCq(long cq) {
        return op(cq, CQ_CONTEXT, POLL_CQ, "ibv_poll_cq", "cq");
    }

    /**
     * {@code cq->context->ops.req_notify_cq}, or NULL.
     *
     * @param cq the completion queue
     * @return {@code cq->context->ops.req_notify_cq}, or NULL
     */
    public static MemorySegment resolveReqNotifyCq(long cq) {
        return op(cq, CQ_CONTEXT, REQ_NOTIFY_CQ, "ibv_req_notify_cq", "cq");
    }

    // ---- the data path: through a resolved function, allocation-free ----

    // The raw-address posts (and their critical twins) are generated: OpsTablePosts.

    /**
     * {@code ibv_poll_cq}: {@code cq->context->ops.poll_cq(cq, num_entries, wc)}.
     *
     * @param wcArray room for {@code numEntries} {@code struct ibv_wc}
     * @return the number of completions written, 0 when the CQ is empty, negative on failure
     * @throws IllegalArgumentException for a NULL {@code cq}, a negative {@code numEntries}, or
     *         a NULL {@code wcArray} while {@code numEntries > 0}
     * @param pollCq the poll cq
     * @param cq the completion queue
     * @param numEntries the number of entries
     */
    public static int pollCq(MemorySegment pollCq, long cq, int numEntries, long wcArray) {
        Memory.requireNonNull(cq, "ibv_poll_cq", "cq");
        Memory.requireArray(wcArray, numEntries, "ibv_poll_cq", "wc", "num_entries");
        return ibv_context_ops$calls.poll_cq$raw(pollCq, cq, numEntries, wcArray);
    }

    // ---- the data path with segments: each argument's arena stays open for the whole call ----

    /**
     * The segment-variant downcalls of the data path, without errno capture (posts return their
     * errno, poll_cq a count): capturing the call state allocates on every call, these do not,
     * even interpreted. post_send, post_recv and post_srq_recv share one C signature.
     */
    private static final class SegmentCalls {
        static final MethodHandle POST = Downcalls.handle(ibv_context_ops.post_send$DESC);
        /** The same, critical: for a provider in {@link ProviderPosts}' table only. */
        static final MethodHandle POST_CRITICAL = Downcalls.handle(ibv_context_ops.post_send$DESC, Downcalls.CRITICAL);
        static final MethodHandle POLL = Downcalls.handle(ibv_context_ops.poll_cq$DESC);
    }

    /**
     * {@link OpsTablePosts#postSend(MemorySegment, long, long, long)} with the request and the {@code bad_wr}
     * slot as segments: the downcall keeps their arenas alive until the provider returns, as FFM
     * does for every segment argument (closing a shared arena meanwhile throws
     * {@link IllegalStateException}; a confined one can only be used, and closed, by its owner).
     * What the request points to in other arenas (chained requests, inline data) is not covered.
     *
     * @param postSend the resolved {@code ops.post_send}
     * @param qp       the {@code struct ibv_qp}
     * @param wr       the first {@code struct ibv_send_wr}, at least that large
     * @param badWrOut a pointer-sized slot for the first failed request
     * @return 0 when every request was posted, else the errno (providers return it positive or
     *         negative)
     * @throws IllegalArgumentException for a NULL or too small argument
     */
    public static int postSend(MemorySegment postSend, MemorySegment qp, MemorySegment wr, MemorySegment badWrOut) {
        return postSend(postSend, qp, wr, badWrOut, false);
    }

    /**
     * {@code ibv_post_send} with segments, through the critical downcall when {@code critical} (no
     * thread-state transition: only for a provider whose {@code post_send} never makes a system
     * call or waits, {@link ProviderPosts#critical}), else as the four-argument variant.
     *
     * @param postSend    the resolved op
     * @param qp   the {@code struct ibv_qp}
     * @param wr       the first request
     * @param badWrOut a pointer-sized slot for the first failed request
     * @param critical whether to call through the critical downcall
     * @return 0 or the errno
     * @throws IllegalArgumentException for a NULL or too small argument
     */
    public static int postSend(MemorySegment postSend, MemorySegment qp, MemorySegment wr, MemorySegment badWrOut,
                           boolean critical) {
        return post("ibv_post_send", "qp", ibv_send_wr.LAYOUT.byteSize(), critical, postSend, qp, wr, badWrOut);
    }

    /**
     * {@code ibv_post_recv} with segments, as {@link #postSend(MemorySegment, MemorySegment,
     * MemorySegment, MemorySegment)}.
     *
     * @param postRecv the resolved {@code ops.post_recv}
     * @param qp       the {@code struct ibv_qp}
     * @param wr       the first {@code struct ibv_recv_wr}
     * @param badWrOut a pointer-sized slot for the first failed request
     * @return 0 or the errno
     * @throws IllegalArgumentException for a NULL or too small argument
     */
    public static int postRecv(MemorySegment postRecv, MemorySegment qp, MemorySegment wr, MemorySegment badWrOut) {
        return postRecv(postRecv, qp, wr, badWrOut, false);
    }

    /**
     * {@code ibv_post_recv} with segments, through the critical downcall when {@code critical} (no
     * thread-state transition: only for a provider whose {@code post_recv} never makes a system
     * call or waits, {@link ProviderPosts#critical}), else as the four-argument variant.
     *
     * @param postRecv    the resolved op
     * @param qp   the {@code struct ibv_qp}
     * @param wr       the first request
     * @param badWrOut a pointer-sized slot for the first failed request
     * @param critical whether to call through the critical downcall
     * @return 0 or the errno
     * @throws IllegalArgumentException for a NULL or too small argument
     */
    public static int postRecv(MemorySegment postRecv, MemorySegment qp, MemorySegment wr, MemorySegment badWrOut,
                           boolean critical) {
        return post("ibv_post_recv", "qp", ibv_recv_wr.LAYOUT.byteSize(), critical, postRecv, qp, wr, badWrOut);
    }

    /**
     * {@code ibv_post_srq_recv} with segments, as {@link #postSend(MemorySegment, MemorySegment,
     * MemorySegment, MemorySegment)}.
     *
     * @param postSrqRecv the resolved {@code ops.post_srq_recv}
     * @param srq         the {@code struct ibv_srq}
     * @param wr          the first {@code struct ibv_recv_wr}
     * @param badWrOut    a pointer-sized slot for the first failed request
     * @return 0 or the errno
     * @throws IllegalArgumentException for a NULL or too small argument
     */
    public static int postSrqRecv(MemorySegment postSrqRecv, MemorySegment srq, MemorySegment wr,
                                  MemorySegment badWrOut) {
        return postSrqRecv(postSrqRecv, srq, wr, badWrOut, false);
    }

    /**
     * {@code ibv_post_srq_recv} with segments, through the critical downcall when {@code critical} (no
     * thread-state transition: only for a provider whose {@code post_srq_recv} never makes a system
     * call or waits, {@link ProviderPosts#critical}), else as the four-argument variant.
     *
     * @param postSrqRecv    the resolved op
     * @param srq   the {@code struct ibv_srq}
     * @param wr       the first request
     * @param badWrOut a pointer-sized slot for the first failed request
     * @param critical whether to call through the critical downcall
     * @return 0 or the errno
     * @throws IllegalArgumentException for a NULL or too small argument
     */
    public static int postSrqRecv(MemorySegment postSrqRecv, MemorySegment srq, MemorySegment wr, MemorySegment badWrOut,
                           boolean critical) {
        return post("ibv_post_srq_recv", "srq", ibv_recv_wr.LAYOUT.byteSize(), critical, postSrqRecv, srq, wr, badWrOut);
    }

    /**
     * The three posts: the arguments checked ({@code object} named {@code objectName}, a request of
     * at least {@code wrSize} bytes), then {@code function} called through the plain or the critical
     * downcall.
     */
    private static int post(String verb, String objectName, long wrSize, boolean critical, MemorySegment function,
                            MemorySegment object, MemorySegment wr, MemorySegment badWrOut) {
        requirePostArguments(object, objectName, wr, wrSize, badWrOut, verb);
        MethodHandle handle = critical ? SegmentCalls.POST_CRITICAL : SegmentCalls.POST;
        try {
            return (int) handle.invokeExact(function, object, wr, badWrOut);
        } catch (Throwable t) {
            throw Downcalls.rethrow(verb, t);
        }
    }

    /**
     * {@link #pollCq(MemorySegment, long, int, long)} with the completion array as a segment: its
     * arena stays open until the provider returns.
     *
     * @param pollCq     the resolved {@code ops.poll_cq}
     * @param cq         the {@code struct ibv_cq}
     * @param numEntries how many completions the provider may write
     * @param wcArray    room for at least {@code numEntries} {@code struct ibv_wc}
     * @return the number of completions written, 0 when the CQ is empty, negative on failure
     * @throws IllegalArgumentException for a NULL {@code cq}, a negative {@code numEntries}, or an
     *         array too small for {@code numEntries}
     */
    public static int pollCq(MemorySegment pollCq, MemorySegment cq, int numEntries, MemorySegment wcArray) {
        Memory.requireNonNull(cq.address(), "ibv_poll_cq", "cq");
        Memory.requireArray(wcArray.address(), numEntries, "ibv_poll_cq", "wc", "num_entries");
        if (wcArray.byteSize() < numEntries * ibv_wc.LAYOUT.byteSize()) {
            throw new IllegalArgumentException("ibv_poll_cq: wc has room for " + wcArray.byteSize() / ibv_wc.LAYOUT.byteSize()
                    + " entries, not num_entries " + numEntries);
        }
        try {
            return (int) SegmentCalls.POLL.invokeExact(pollCq, cq, numEntries, wcArray);
        } catch (Throwable t) {
            throw Downcalls.rethrow("ibv_poll_cq", t);
        }
    }

    /**
     * {@code ibv_req_notify_cq}: {@code cq->context->ops.req_notify_cq(cq, solicited_only)}: 0 or an errno.
     *
     * @param reqNotifyCq the req notify cq
     * @param cq the completion queue
     * @param solicitedOnly true to be notified of solicited completions only
     * @return {@code ibv_req_notify_cq}: {@code cq->context->ops.req_notify_cq(cq, solicited_only)}: 0 or an errno
     */
    public static int reqNotifyCq(MemorySegment reqNotifyCq, long cq, boolean solicitedOnly) {
        Memory.requireNonNull(cq, "ibv_req_notify_cq", "cq");
        return ibv_context_ops$calls.req_notify_cq$raw(reqNotifyCq, cq, solicitedOnly ? 1 : 0);
    }

    // ---- control path: resolved per call ----

    /**
     * {@code ibv_alloc_mw}: {@code pd->context->ops.alloc_mw(pd, type)}.
     *
     * @param errno a {@code CallState} segment: the errno on failure
     * @return the {@code struct ibv_mw *}, or 0 with the errno in {@code errno}
     *         the header sets it, when the provider has no alloc_mw)
     * @param pd the protection domain
     * @param type the type
     */
    public static long allocMw(MemorySegment errno, long pd, int type) {
        MemorySegment function = op(pd, PD_CONTEXT, ALLOC_MW, "ibv_alloc_mw", "pd");
        if (function.address() == 0) {
            Errnos.set(errno, EOPNOTSUPP);
            return 0;
        }
        return ibv_context_ops$calls.alloc_mw(function, errno, MemorySegment.ofAddress(pd), type).address();
    }

    /**
     * {@code ibv_dealloc_mw}: {@code mw->context->ops.dealloc_mw(mw)}: 0 or an errno.
     *
     * @param mw the memory window
     * @return {@code ibv_dealloc_mw}: {@code mw->context->ops.dealloc_mw(mw)}: 0 or an errno
     */
    public static int deallocMw(long mw) {
        MemorySegment function = op(mw, MW_CONTEXT, DEALLOC_MW, "ibv_dealloc_mw", "mw");
        if (function.address() == 0) {
            return EOPNOTSUPP;
        }
        return ibv_context_ops$calls.dealloc_mw$raw(function, mw);
    }

    /**
     * {@code ibv_bind_mw}: {@code mw->context->ops.bind_mw(qp, mw, mw_bind)}: 0 or an errno
     * (EOPNOTSUPP when the provider has no bind_mw).
     *
     * @param qp the queue pair
     * @param mw the memory window
     * @param mwBind true for memory window binds
     * @return {@code ibv_bind_mw}: {@code mw->context->ops.bind_mw(qp, mw, mw_bind)}: 0 or an errno (EOPNOTSUPP when the provider has no bind_mw)
     */
    public static int bindMw(long qp, long mw, long mwBind) {
        Memory.requireNonNull(qp, "ibv_bind_mw", "qp");
        Memory.requireNonNull(mwBind, "ibv_bind_mw", "mw_bind");
        MemorySegment function = op(mw, MW_CONTEXT, BIND_MW, "ibv_bind_mw", "mw");
        if (function.address() == 0) {
            return EOPNOTSUPP;
        }
        return ibv_context_ops$calls.bind_mw$raw(function, qp, mw, mwBind);
    }

    /**
     * {@code object->context->ops.<op>}: the provider's function, or {@link MemorySegment#NULL}
     * when it left the op unset.
     *
     * @param contextOffset where the object keeps its {@code struct ibv_context *}
     * @param opOffset      the op's offset inside {@code struct ibv_context}
     * @param argument      the object's parameter name in the verb, for the NULL message
     */
    private static MemorySegment op(long object, long contextOffset, long opOffset, String verb, String argument) {
        Memory.requireNonNull(object, verb, argument);
        long context = Memory.readLong(object + contextOffset);
        if (context == 0) {
            throw new IllegalArgumentException(verb + ": the object's context pointer is NULL");
        }
        long function = Memory.readLong(context + opOffset);
        return function == 0 ? MemorySegment.NULL : MemorySegment.ofAddress(function);
    }

    private static void requirePostArguments(MemorySegment object, String objectName, MemorySegment wr, long wrSize,
                                             MemorySegment badWrOut, String verb) {
        // One compare per pointer here (Memory.requireNonNull's test: NULL is below the lowest
        // user address, the kernel half is negative), so a post calls into no other file;
        // requireNonNull words the refusal.
        if (object.address() < Memory.LOWEST_USER_ADDRESS || wr.address() < Memory.LOWEST_USER_ADDRESS
                || badWrOut.address() < Memory.LOWEST_USER_ADDRESS) {
            requireNonNull(object.address(), objectName, wr.address(), badWrOut.address(), verb);
        }
        if (wr.byteSize() < wrSize || badWrOut.byteSize() < ADDRESS.byteSize()) {
            throw new IllegalArgumentException(verb + ": wr (" + wr.byteSize() + " bytes) or bad_wr ("
                    + badWrOut.byteSize() + " bytes) is smaller than its C type");
        }
    }

    private static void requireNonNull(long object, String objectName, long wr, long badWrOut, String verb) {
        Memory.requireNonNull(object, verb, objectName);
        Memory.requireNonNull(wr, verb, "wr");
        Memory.requireNonNull(badWrOut, verb, "bad_wr");
    }
}
