package dev.panamaverbs;

import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.ibv_td;
import dev.panamaverbs.ffm.ibv_td_init_attr;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;

/**
 * A thread domain (C {@code struct ibv_td}): a promise that the objects of a parent domain built
 * on it ({@link ProtectionDomain#allocateParentDomain(ThreadDomain)}) are used by one thread at a
 * time, so the provider may drop its locks for them. Allocated by
 * {@link Context#allocateThreadDomain()} ({@code ibv_alloc_td}); {@link #close()} closes the
 * parent domains on it first, then frees it ({@code ibv_dealloc_td}). SoftRoCE has none
 * ({@link VerbsUnsupportedException}, EOPNOTSUPP).
 */
public final class ThreadDomain extends VerbsResource {
    private final Context context;

    private ThreadDomain(Context context, MemorySegment handle) {
        super("ThreadDomain", handle, context);
        this.context = context;
    }

    /** {@code ibv_alloc_td}: the factory hook behind {@link Context#allocateThreadDomain()}. */
    static ThreadDomain allocate(Context context) {
        Objects.requireNonNull(context, "ibv_alloc_td: context is null");
        return ResourceCreation.create("ibv_alloc_td", ibv_td.SIZE, List.of(context),
                arena -> arena.allocate(ibv_td_init_attr.LAYOUT),
                (state, attr) -> IbverbsCalls.ibv_alloc_td(state, context.handleAddress(), attr),
                (handle, attr) -> new ThreadDomain(context, handle));
    }

    /** {@code ibv_dealloc_td}. */
    @Override
    protected void destroy() {
        NativeCalls.checkReturnedErrno("ibv_dealloc_td", IbverbsCalls.ibv_dealloc_td(handleAddress()));
    }

    @Override
    protected String describe() {
        return "";
    }

    /**
     * The context the domain was allocated on.
     *
     * @return the context
     */
    public Context context() {
        requireOpen(this);
        return context;
    }
}
