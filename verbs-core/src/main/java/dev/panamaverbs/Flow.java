package dev.panamaverbs;

import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.ibv_flow;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;

/**
 * A flow steering rule installed on a queue pair (C {@code struct ibv_flow}): created by
 * {@link QueuePair#createFlow(FlowRule)} ({@code ibv_create_flow}); {@link #close()} removes it
 * ({@code ibv_destroy_flow}). Closing the queue pair, or the counters it counts into, closes it first.
 */
public final class Flow extends VerbsResource {
    private final FlowRule rule;

    private Flow(MemorySegment handle, FlowRule rule, VerbsResource[] dependencies) {
        super("Flow", handle, dependencies);
        this.rule = rule;
    }

    /** {@code ibv_create_flow}: the factory hook behind {@link QueuePair#createFlow}. */
    static Flow create(QueuePair qp, FlowRule rule) {
        String verb = "ibv_create_flow";
        Objects.requireNonNull(qp, verb + ": queue pair is null");
        Objects.requireNonNull(rule, verb + ": rule is null");
        Counters counters = rule.counters();
        if (counters != null && counters.context() != qp.protectionDomain().context()) {
            throw new IllegalArgumentException(verb + ": the counters belong to another context than the queue pair");
        }
        VerbsResource[] dependencies = counters == null ? new VerbsResource[] {qp} : new VerbsResource[] {qp, counters};
        return ResourceCreation.create(verb, ibv_flow.SIZE, List.of(dependencies),
                rule::encode, (state, attr) -> IbverbsCalls.ibv_create_flow(state, qp.handleAddress(), attr),
                (handle, attr) -> new Flow(handle, rule, dependencies));
    }

    /** {@code ibv_destroy_flow}. */
    @Override
    protected void destroy() {
        NativeCalls.checkReturnedErrno("ibv_destroy_flow", IbverbsCalls.ibv_destroy_flow(handleAddress()));
    }

    @Override
    protected String describe() {
        return rule.toString();
    }
}
