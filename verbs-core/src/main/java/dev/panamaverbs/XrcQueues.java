package dev.panamaverbs;

import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.DeviceAttributes;
import dev.panamaverbs.values.SharedReceiveQueueOptions;
import dev.panamaverbs.gateway.ExtendedOps;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_srq;
import dev.panamaverbs.ffm.ibv_srq_attr;
import dev.panamaverbs.ffm.ibv_srq_init_attr_ex;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.Pointers;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/** The factory hook behind {@link ProtectionDomain#createXrcSharedReceiveQueue}: {@code ibv_create_srq_ex} for an XRC SRQ. */
final class XrcQueues {
    private XrcQueues() {}

    static SharedReceiveQueue createSharedReceiveQueue(ProtectionDomain pd, XrcDomain domain, CompletionQueue cq,
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
}
