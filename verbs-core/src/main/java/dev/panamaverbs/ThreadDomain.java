package dev.panamaverbs;

import dev.panamaverbs.ffm.ibv_td;
import dev.panamaverbs.ffm.ibv_td_init_attr;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.loader.internal.DomainOps;
import dev.panamaverbs.loader.internal.Pointers;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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
        context.acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_td_init_attr.LAYOUT);
            MemorySegment state = CallState.allocate(arena);
            long td = DomainOps.allocTd(state, context.handleAddress(), attr.address());
            NativeCalls.checkPointer("ibv_alloc_td", MemorySegment.ofAddress(td), CallState.errno(state));
            ThreadDomain domain = new ThreadDomain(context, Pointers.sized(td, ibv_td.SIZE));
            domain.register();
            return domain;
        } finally {
            context.release();
        }
    }

    /** {@code ibv_dealloc_td}. */
    @Override
    void destroy() {
        NativeCalls.checkReturnedErrno("ibv_dealloc_td", DomainOps.deallocTd(handleAddress()));
    }

    @Override
    String describe() {
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
