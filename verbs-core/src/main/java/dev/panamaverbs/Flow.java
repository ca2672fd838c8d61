package dev.panamaverbs;

import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.ibv_flow;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * A flow steering rule installed on a queue pair (C {@code struct ibv_flow}): created by
 * {@link QueuePair#createFlow(FlowRule)} ({@code ibv_create_flow}); {@link #close()} removes it
 * ({@code ibv_destroy_flow}). Closing the queue pair, or the counters it counts into, closes it first.
 */
public final class Flow extends ResourceCreation.FreedBy {
    private final FlowRule rule;

    private Flow(MemorySegment handle, FlowRule rule, VerbsResource[] dependencies) {
        super("Flow", handle, "ibv_destroy_flow", IbverbsCalls::ibv_destroy_flow, dependencies);
        this.rule = rule;
    }

    /**
     * {@code ibv_create_flow}: the factory hook behind {@link QueuePair#createFlow}, on queue pair
     * {@code qp} (held as the resource: its handle and liveness) of domain {@code pd}.
     */
    static Flow create(VerbsResource qp, ProtectionDomain pd, FlowRule rule) {
        String verb = "ibv_create_flow";
        ResourceCreation.requireArguments(verb, qp, "queue pair is null", rule, "rule is null");
        Counters counters = rule.counters();
        if (counters != null && counters.context() != pd.context()) {
            throw new IllegalArgumentException(verb + ": the counters belong to another context than the queue pair");
        }
        VerbsResource[] dependencies = counters == null ? new VerbsResource[] {qp} : new VerbsResource[] {qp, counters};
        return ResourceCreation.create(verb, ibv_flow.SIZE, List.of(dependencies),
                rule::encode, (state, attr) -> IbverbsCalls.ibv_create_flow(state, qp.handleAddress(), attr),
                (handle, attr) -> new Flow(handle, rule, dependencies));
    }

    @Override
    protected String describe() {
        return rule.toString();
    }
}
