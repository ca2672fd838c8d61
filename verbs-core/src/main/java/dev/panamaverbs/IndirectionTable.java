package dev.panamaverbs;

import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.ibv_rwq_ind_table;
import dev.panamaverbs.ffm.ibv_rwq_ind_table_init_attr;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * A receive work queue indirection table (C {@code struct ibv_rwq_ind_table}): the work queues
 * RSS hashes incoming packets over. Created by {@link Context#createIndirectionTable(List)}
 * ({@code ibv_create_rwq_ind_table}); it depends on every work queue it lists, so closing one of
 * them closes it first; {@link #close()} is {@code ibv_destroy_rwq_ind_table}.
 */
public final class IndirectionTable extends ResourceCreation.FreedBy {
    private final int size;

    private IndirectionTable(MemorySegment handle, int size, VerbsResource[] dependencies) {
        super("IndirectionTable", handle, "ibv_destroy_rwq_ind_table", IbverbsCalls::ibv_destroy_rwq_ind_table, dependencies);
        this.size = size;
    }

    /** {@code ibv_create_rwq_ind_table}: the factory hook behind {@link Context#createIndirectionTable}. */
    static IndirectionTable create(VerbsResource context, List<WorkQueue> workQueues) {
        String verb = "ibv_create_rwq_ind_table";
        ResourceCreation.requireArguments(verb, context, "context is null", workQueues, "work queues are null");
        int size = workQueues.size();
        if (size == 0 || Integer.bitCount(size) != 1) {
            throw new IllegalArgumentException(verb + ": the table holds a power of two of work queues (log_ind_tbl_size), got "
                    + size);
        }
        LinkedHashSet<VerbsResource> used = new LinkedHashSet<>();
        used.add(context);
        for (WorkQueue wq : workQueues) {
            Objects.requireNonNull(wq, verb + ": a work queue is null");
            if (wq.protectionDomain().context() != context) {
                throw new IllegalArgumentException(verb + ": " + wq + " belongs to another context");
            }
            used.add(wq);
        }
        VerbsResource[] dependencies = used.toArray(VerbsResource[]::new);
        return ResourceCreation.create(verb, ibv_rwq_ind_table.SIZE, List.of(dependencies), arena -> {
            MemorySegment table = arena.allocate(ValueLayout.ADDRESS, size);
            for (int i = 0; i < size; i++) {
                table.setAtIndex(ValueLayout.ADDRESS, i, workQueues.get(i).handleSegment());
            }
            MemorySegment attr = arena.allocate(ibv_rwq_ind_table_init_attr.LAYOUT);
            ibv_rwq_ind_table_init_attr.log_ind_tbl_size(attr, Integer.numberOfTrailingZeros(size));
            ibv_rwq_ind_table_init_attr.ind_tbl(attr, table);
            return attr;
        }, (state, attr) -> IbverbsCalls.ibv_create_rwq_ind_table(state, context.handleAddress(), attr),
                (handle, attr) -> new IndirectionTable(handle, size, dependencies));
    }

    @Override
    protected String describe() {
        return "size=" + size;
    }

    /**
     * The number of entries.
     *
     * @return the table's size, a power of two
     */
    public int size() {
        return whileOpen(size);
    }
}
