package dev.panamaverbs;

import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.ibv_td;
import dev.panamaverbs.ffm.ibv_td_init_attr;
import java.lang.foreign.MemorySegment;

/**
 * A thread domain (C {@code struct ibv_td}): a promise that the objects of a parent domain built
 * on it ({@link ProtectionDomain#allocateParentDomain(ThreadDomain)}) are used by one thread at a
 * time, so the provider may drop its locks for them. Allocated by
 * {@link Context#allocateThreadDomain()} ({@code ibv_alloc_td}); {@link #close()} closes the
 * parent domains on it first, then frees it ({@code ibv_dealloc_td}). SoftRoCE has none
 * ({@link VerbsUnsupportedException}, EOPNOTSUPP).
 */
public final class ThreadDomain extends ResourceCreation.OnContext {
    private ThreadDomain(VerbsResource context, MemorySegment handle) {
        super("ThreadDomain", handle, context, "ibv_dealloc_td", IbverbsCalls::ibv_dealloc_td);
    }

    /** {@code ibv_alloc_td}: the factory hook behind {@link Context#allocateThreadDomain()}. */
    static ThreadDomain allocate(VerbsResource context) {
        return ResourceCreation.onContext("ibv_alloc_td", ibv_td.SIZE, context, ibv_td_init_attr.LAYOUT,
                IbverbsCalls::ibv_alloc_td, ThreadDomain::new);
    }
}
