package dev.panamaverbs;

import dev.panamaverbs.internal.Undo;
import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.DeviceAttributes;
import dev.panamaverbs.values.SharedReceiveQueueAttributes;
import dev.panamaverbs.values.SharedReceiveQueueOptions;
import dev.panamaverbs.gateway.Pointers;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_srq;
import dev.panamaverbs.ffm.ibv_srq_attr;
import dev.panamaverbs.ffm.ibv_srq_init_attr;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.OpsTable;
import dev.panamaverbs.gateway.ExtendedOps;
import dev.panamaverbs.ffm.ibv_srq_init_attr_ex;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A shared receive queue ({@code struct ibv_srq}): one pool of posted receive buffers that many
 * QPs of the same protection domain consume. Created by
 * {@code ProtectionDomain.createSharedReceiveQueue}; QPs created with it depend on it.
 * {@link #postReceive} is the data path: one provider call, no allocation.
 */
public final class SharedReceiveQueue extends VerbsResource {
    private final ProtectionDomain protectionDomain;
    private final Context context;
    /** {@code ibv_srq.handle}, the kernel's id, copied while the native object is alive (for toString). */
    private final int kernelHandle;
    /** The actual {@code max_sge} (checked on every post without a native call). */
    private final int maxSge;
    /**
     * {@code srq->context->ops.post_srq_recv}, read once at creation (a context's ops never
     * change), so a post reads no native memory and allocates nothing; null when the provider
     * left the op NULL.
     */
    private final MemorySegment postSrqRecvFunction;
    /** Whether the posts go through critical downcalls ({@link Context#criticalPosts()}). */
    private final boolean criticalPosts;
    private volatile int maxWorkRequests;


    private SharedReceiveQueue(ProtectionDomain protectionDomain, Context context, MemorySegment handle,
                               int maxWorkRequests, int maxSge) {
        this(protectionDomain, context, handle, maxWorkRequests, maxSge, new VerbsResource[] {protectionDomain});
    }

    /** As above, depending on {@code dependencies} (the domain first; an XRC SRQ's XRC domain and CQ after it). */
    SharedReceiveQueue(ProtectionDomain protectionDomain, Context context, MemorySegment handle,
                       int maxWorkRequests, int maxSge, VerbsResource[] dependencies) {
        super("SharedReceiveQueue", handle, dependencies);
        this.protectionDomain = protectionDomain;
        this.context = context;
        this.kernelHandle = ibv_srq.handle(handle);
        this.maxWorkRequests = maxWorkRequests;
        this.maxSge = maxSge;
        this.postSrqRecvFunction = NativeCalls.resolveOrNull(OpsTable::resolvePostSrqRecv, handle.address());
        this.criticalPosts = context.postsCritical();
    }

    /**
     * {@code ibv_create_srq(pd, &init_attr)}, then {@code ibv_modify_srq(IBV_SRQ_LIMIT)} when
     * {@code options.limit() > 0}: hook of {@code ProtectionDomain.createSharedReceiveQueue}.
     *
     * @throws IllegalArgumentException if max_wr or max_sge exceed the device's max_srq_wr/max_srq_sge
     * @throws VerbsUnsupportedException if the device has no SRQs (max_srq 0)
     */
    static SharedReceiveQueue create(ProtectionDomain pd, SharedReceiveQueueOptions options) {
        String verb = "ibv_create_srq";
        Objects.requireNonNull(pd, verb + ": pd is null");
        Objects.requireNonNull(options, verb + ": options is null");
        Context context = pd.context();
        SharedReceiveQueue queue;
        pd.acquire();
        try (Arena arena = Arena.ofConfined()) {
            DeviceAttributes device = context.maxAttributes();
            if (device.maxSrq() == 0 || device.maxSrqWr() == 0) {
                throw new VerbsUnsupportedException(verb, "the device reports max_srq " + device.maxSrq()
                        + ", max_srq_wr " + device.maxSrqWr());
            }
            checkLimits(verb, options, device.maxSrqWr(), device.maxSrqSge());
            context.criticalPosts(); // decided before the verb: the constructor must not throw after it
            MemorySegment initAttr = arena.allocate(ibv_srq_init_attr.LAYOUT);
            MemorySegment attr = ibv_srq_init_attr.attr(initAttr);
            ibv_srq_attr.max_wr(attr, options.maxWorkRequests());
            ibv_srq_attr.max_sge(attr, options.maxSge());
            MemorySegment state = CallState.allocate(arena);
            MemorySegment created = IbverbsCalls.ibv_create_srq(state, pd.handleSegment(), initAttr);
            NativeCalls.checkPointer(verb, created, CallState.errno(state));
            // The provider writes back what it actually allocated (at least what was asked).
            queue = new SharedReceiveQueue(pd, context, Pointers.sized(created, ibv_srq.LAYOUT.byteSize()),
                    ibv_srq_attr.max_wr(attr), ibv_srq_attr.max_sge(attr));
            queue.register();
        } finally {
            pd.release();
        }
        if (options.limit() > 0) {
            SharedReceiveQueue created = queue;
            Undo.orUndo(() -> created.setLimit(options.limit()), created::close);
        }
        return queue;
    }

    /** {@code ibv_create_srq_ex} for an XRC SRQ: the factory hook behind {@link ProtectionDomain#createXrcSharedReceiveQueue}. */
    static SharedReceiveQueue createXrc(ProtectionDomain pd, XrcDomain domain, CompletionQueue cq,
            SharedReceiveQueueOptions options) {
        String verb = "ibv_create_srq_ex";
        Objects.requireNonNull(pd, verb + ": pd is null");
        Objects.requireNonNull(domain, verb + ": XRC domain is null");
        Objects.requireNonNull(cq, verb + ": completion queue is null");
        Objects.requireNonNull(options, verb + ": options is null");
        Context context = pd.context();
        if (domain.context() != context || cq.context() != context) {
            throw new IllegalArgumentException(verb + ": the XRC domain and the completion queue must be of the domain's context");
        }
        DeviceAttributes device = context.maxAttributes();
        SharedReceiveQueue.checkLimits(verb, options, device.maxSrqWr(), device.maxSrqSge());
        VerbsResource[] used = {pd, domain, cq};
        int held = 0;
        try (Arena arena = Arena.ofConfined()) {
            for (VerbsResource resource : used) {
                resource.acquire();
                held++;
            }
            MemorySegment initAttr = arena.allocate(ibv_srq_init_attr_ex.LAYOUT);
            MemorySegment attr = ibv_srq_init_attr_ex.attr(initAttr);
            ibv_srq_attr.max_wr(attr, options.maxWorkRequests());
            ibv_srq_attr.max_sge(attr, options.maxSge());
            ibv_srq_attr.srq_limit(attr, options.limit());
            ibv_srq_init_attr_ex.comp_mask(initAttr, VerbsConstants.IBV_SRQ_INIT_ATTR_TYPE | VerbsConstants.IBV_SRQ_INIT_ATTR_PD
                    | VerbsConstants.IBV_SRQ_INIT_ATTR_XRCD | VerbsConstants.IBV_SRQ_INIT_ATTR_CQ);
            ibv_srq_init_attr_ex.srq_type(initAttr, VerbsConstants.IBV_SRQT_XRC);
            ibv_srq_init_attr_ex.pd(initAttr, pd.handleSegment());
            ibv_srq_init_attr_ex.xrcd(initAttr, domain.handleSegment());
            ibv_srq_init_attr_ex.cq(initAttr, cq.handleSegment());
            context.criticalPosts(); // decided before the verb: the constructor must not throw after it
            MemorySegment state = CallState.allocate(arena);
            long srq = ExtendedOps.createSrqEx(state, context.handleAddress(), initAttr.address());
            NativeCalls.checkPointer(verb, MemorySegment.ofAddress(srq), CallState.errno(state));
            SharedReceiveQueue queue = new SharedReceiveQueue(pd, context, Pointers.sized(srq, ibv_srq.LAYOUT.byteSize()),
                    ibv_srq_attr.max_wr(attr), ibv_srq_attr.max_sge(attr), new VerbsResource[] {pd, domain, cq});
            queue.register();
            return queue;
        } finally {
            for (int i = 0; i < held; i++) {
                used[i].release();
            }
        }
    }

    /** Checks the requested sizes against the device limits. */
    static void checkLimits(String verb, SharedReceiveQueueOptions options, int maxSrqWr, int maxSrqSge) {
        if (options.maxWorkRequests() > maxSrqWr) {
            throw new IllegalArgumentException(verb + ": max_wr must be in 1.." + maxSrqWr + " (device max_srq_wr), got "
                    + options.maxWorkRequests());
        }
        if (options.maxSge() > maxSrqSge) {
            throw new IllegalArgumentException(verb + ": max_sge must be in 1.." + maxSrqSge + " (device max_srq_sge), got "
                    + options.maxSge());
        }
    }

    /**
     * The protection domain the queue belongs to.
     *
     * @return the protection domain the queue belongs to
     */
    public ProtectionDomain protectionDomain() {
        requireOpen(this);
        return protectionDomain;
    }

    /**
     * The actual {@code max_sge}: the most entries a posted request may use.
     *
     * @return the actual {@code max_sge}: the most entries a posted request may use
     */
    public int maxSge() {
        return maxSge;
    }

    /**
     * The actual {@code max_wr} as of creation or the last {@link #resize}/{@link #query}.
     *
     * @return the actual {@code max_wr} as of creation or the last {@link #resize}/{@link #query}
     */
    public int maxWorkRequests() {
        return maxWorkRequests;
    }

    /**
     * {@code ibv_post_srq_recv}: posts {@code request} and every request chained after it,
     * allocation-free. Posting copies the requests, so they may be reused at once.
     *
     * @throws IllegalArgumentException if a request uses more entries than {@link #maxSge()}, or an
     *         entry's memory region belongs to another protection domain
     * @throws IllegalStateException if this queue, a request's arena or an entry's region is closed
     * @throws VerbsException naming the refused request (from {@code bad_wr}), e.g. ENOMEM when full
     * @param request the work request
     */
    public void postReceive(ReceiveWorkRequest request) {
        WorkRequestChecks.checkReceiveChain("ibv_post_srq_recv", request, maxSge, "the queue's max_sge",
                protectionDomain);
        int rc;
        acquire();
        try {
            request.clearBadRequest();
            if (postSrqRecvFunction == null) {
                throw NativeCalls.missingOp("ibv_post_srq_recv", "post_srq_recv");
            }
            rc = OpsTable.postSrqRecv(postSrqRecvFunction, handleSegment(),
                    request.nativeRequest(), request.badRequestSlot(), criticalPosts);
        } finally {
            release();
        }
        if (rc != 0) {
            throw NativeCalls.postFailure("ibv_post_srq_recv", rc, request.describeBadRequest());
        }
    }

    /**
     * {@code ibv_modify_srq} with {@code IBV_SRQ_LIMIT}: arms the queue to raise the async event
     * {@code IBV_EVENT_SRQ_LIMIT_REACHED} once fewer than {@code limit} requests remain posted.
     * The event disarms it; arm again to be told again.
     *
     * @throws IllegalArgumentException if {@code limit} is not in {@code 0..maxWorkRequests()}
     * @param limit the posted-request count below which the event fires (0: disarm)
     */
    public void setLimit(int limit) {
        int capacity = maxWorkRequests;
        if (limit < 0 || limit > capacity) {
            throw new IllegalArgumentException("ibv_modify_srq: srq_limit must be in 0.." + capacity
                    + " (the queue's max_wr), got " + limit);
        }
        modify(0, limit, VerbsConstants.IBV_SRQ_LIMIT);
    }

    /**
     * {@code ibv_modify_srq} with {@code IBV_SRQ_MAX_WR}: changes the queue's capacity. Not every
     * provider can (an unsupported answer throws {@link VerbsUnsupportedException}).
     *
     * @throws IllegalArgumentException if {@code maxWorkRequests} is not in {@code 1..max_srq_wr}
     * @param maxWorkRequests the maximum number of outstanding work requests
     */
    public void resize(int maxWorkRequests) {
        acquire();
        try {
            int deviceMax = context.maxAttributes().maxSrqWr();
            if (maxWorkRequests < 1 || maxWorkRequests > deviceMax) {
                throw new IllegalArgumentException("ibv_modify_srq: max_wr must be in 1.." + deviceMax
                        + " (device max_srq_wr), got " + maxWorkRequests);
            }
        } finally {
            release();
        }
        modify(maxWorkRequests, 0, VerbsConstants.IBV_SRQ_MAX_WR);
        query();
    }

    private void modify(int maxWr, int limit, int mask) {
        acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_srq_attr.LAYOUT);
            ibv_srq_attr.max_wr(attr, maxWr);
            ibv_srq_attr.srq_limit(attr, limit);
            int rc = IbverbsCalls.ibv_modify_srq(CallState.allocate(arena), handleSegment(), attr, mask);
            NativeCalls.checkReturnedErrno("ibv_modify_srq", rc);
        } finally {
            release();
        }
    }

    /**
     * {@code ibv_query_srq}: the queue's current capacity, entries per request and armed limit.
     *
     * @return {@code ibv_query_srq}: the queue's current capacity, entries per request and armed limit
     */
    public SharedReceiveQueueAttributes query() {
        acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_srq_attr.LAYOUT);
            int rc = IbverbsCalls.ibv_query_srq(CallState.allocate(arena), handleSegment(), attr);
            NativeCalls.checkReturnedErrno("ibv_query_srq", rc);
            SharedReceiveQueueAttributes result = new SharedReceiveQueueAttributes(
                    ibv_srq_attr.max_wr(attr), ibv_srq_attr.max_sge(attr), ibv_srq_attr.srq_limit(attr));
            maxWorkRequests = result.maxWorkRequests();
            return result;
        } finally {
            release();
        }
    }

    /** {@code ibv_destroy_srq}; every QP using the queue is already closed. */
    @Override
    protected void destroy() {
        NativeCalls.destroy("ibv_destroy_srq", IbverbsCalls::ibv_destroy_srq, handleSegment());
    }

    /**
     * {@code ibv_get_srq_num}: the queue's number, which XRC senders name as the remote SRQ
     * ({@code ibv_wr_set_xrc_srqn}). Only XRC shared receive queues have one; a provider without
     * XRC refuses (SoftRoCE: {@link VerbsUnsupportedException}, EOPNOTSUPP).
     *
     * @return the SRQ number, a uint32_t (read it with {@link Integer#toUnsignedLong})
     * @throws VerbsUnsupportedException if the provider has no SRQ numbers
     * @throws VerbsException if the verb fails otherwise
     * @throws IllegalStateException if closed
     */
    public int number() {
        acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment number = arena.allocate(java.lang.foreign.ValueLayout.JAVA_INT);
            NativeCalls.checkReturnedErrno("ibv_get_srq_num",
                    dev.panamaverbs.gateway.IbverbsCalls.ibv_get_srq_num(handleAddress(), number.address()));
            return number.get(java.lang.foreign.ValueLayout.JAVA_INT, 0);
        } finally {
            release();
        }
    }

    @Override
    protected String describe() {
        return "handle=" + Integer.toUnsignedString(kernelHandle);
    }
}
