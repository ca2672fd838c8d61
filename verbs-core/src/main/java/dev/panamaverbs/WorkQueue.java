package dev.panamaverbs;

import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.WorkQueueState;
import dev.panamaverbs.gateway.ExtendedOps;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_wq;
import dev.panamaverbs.ffm.ibv_wq_attr;
import dev.panamaverbs.ffm.ibv_wq_init_attr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;

/**
 * A receive work queue (C {@code struct ibv_wq}, {@code IBV_WQT_RQ}): a receive queue of its own,
 * which an {@link IndirectionTable} spreads incoming packets over (RSS). Created by
 * {@link ProtectionDomain#createWorkQueue(WorkQueueOptions)} ({@code ibv_create_wq}) in
 * {@link WorkQueueState#RESET}; {@link #close()} closes the tables that list it first, then
 * {@code ibv_destroy_wq}. SoftRoCE has none ({@link VerbsUnsupportedException}, EOPNOTSUPP).
 */
public final class WorkQueue extends ResourceCreation.FreedBy {
    private final int number;
    private final int maxSge;

    private WorkQueue(ProtectionDomain pd, CompletionQueue cq, MemorySegment handle, int maxSge) {
        super("WorkQueue", handle, "ibv_destroy_wq", IbverbsCalls::ibv_destroy_wq, pd, cq);
        this.number = ibv_wq.wq_num(handle);
        this.maxSge = maxSge;
    }

    /** {@code ibv_create_wq}: the factory hook behind {@link ProtectionDomain#createWorkQueue}. */
    static WorkQueue create(ProtectionDomain pd, WorkQueueOptions options) {
        String verb = "ibv_create_wq";
        ResourceCreation.requireArguments(verb, pd, "pd is null", options, "options is null");
        CompletionQueue cq = options.completionQueue();
        VerbsResource context = pd.context(); // held, compared and passed as a handle only
        if (cq.context() != context) {
            throw new IllegalArgumentException(verb + ": the completion queue belongs to another context than the domain");
        }
        return ResourceCreation.create(verb, ibv_wq.SIZE, List.of(pd, cq), arena -> {
            MemorySegment attr = arena.allocate(ibv_wq_init_attr.LAYOUT);
            ibv_wq_init_attr.wq_type(attr, VerbsConstants.IBV_WQT_RQ);
            ibv_wq_init_attr.max_wr(attr, options.maxWorkRequests());
            ibv_wq_init_attr.max_sge(attr, options.maxSge());
            ibv_wq_init_attr.pd(attr, pd.handleSegment());
            ibv_wq_init_attr.cq(attr, cq.handleSegment());
            return attr;
        }, (state, attr) -> ExtendedOps.createWq(state, context.handleAddress(), attr),
                // The provider writes back what it granted.
                (handle, attr) -> new WorkQueue(pd, cq, handle, ibv_wq_init_attr.max_sge(attr)));
    }

    @Override
    protected String describe() {
        return "wq_num=" + Integer.toUnsignedString(number);
    }

    /**
     * The work queue's number ({@code wq_num}).
     *
     * @return the number
     */
    public int number() {
        return whileOpen(number);
    }

    /**
     * The protection domain it was created in.
     *
     * @return the domain
     */
    public ProtectionDomain protectionDomain() {
        return whileOpen(parent());
    }

    /**
     * {@code ibv_modify_wq} with {@code IBV_WQ_ATTR_STATE}: moves the queue to {@code state}
     * ({@link WorkQueueState#READY} before it receives).
     *
     * @param state the new state
     * @throws VerbsException if the provider refuses
     * @throws IllegalStateException if closed
     */
    public void modify(WorkQueueState state) {
        Objects.requireNonNull(state, "ibv_modify_wq: state is null");
        acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_wq_attr.LAYOUT);
            ibv_wq_attr.attr_mask(attr, VerbsConstants.IBV_WQ_ATTR_STATE);
            ibv_wq_attr.wq_state(attr, state.value());
            NativeCalls.checkReturnedErrno("ibv_modify_wq", IbverbsCalls.ibv_modify_wq(handleAddress(), attr.address()));
        } finally {
            release();
        }
    }

    /**
     * {@code ibv_post_wq_recv}: posts {@code request} and the requests chained after it.
     *
     * @param request the receive requests
     * @throws IllegalArgumentException when a request does not fit the queue (entries, regions
     *         of another protection domain)
     * @throws VerbsException naming the refused request's wr_id when the provider refuses
     * @throws IllegalStateException if closed
     */
    public void postReceive(ReceiveWorkRequest request) {
        String verb = "ibv_post_wq_recv";
        Objects.requireNonNull(request, verb + ": request is null");
        WorkRequestChecks.checkReceiveChain(verb, request, maxSge, "the work queue's max_sge", parent());
        int rc;
        acquire();
        try {
            request.clearBadRequest();
            rc = IbverbsCalls.ibv_post_wq_recv(handleAddress(), request.nativeRequest().address(),
                    request.badRequestSlot().address());
        } finally {
            release();
        }
        if (rc != 0) {
            throw NativeCalls.postFailure(verb, rc, request.describeBadRequest());
        }
    }
}
