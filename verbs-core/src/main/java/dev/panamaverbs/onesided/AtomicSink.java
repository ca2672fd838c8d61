package dev.panamaverbs.onesided;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.Capability;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.VerbsException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;

/**
 * Where the old values RDMA atomics return land, never read: a page registered zero-based
 * ({@code ibv_reg_mr_iova2} with iova 0), so every atomic's local entry is address 0. Without
 * {@link Capability#REG_MR_IOVA2}, or when the provider refuses iova 0, the fallback registers the
 * same 8 bytes at their own address ({@code ibv_reg_mr}); the atomics then name that address.
 * Either way the sink is shared by every atomic of a channel: each overwrites the last.
 */
final class AtomicSink {
    private static final Set<AccessFlag> ACCESS = EnumSet.of(AccessFlag.LOCAL_WRITE);
    private static final long PAGE = 4096;

    private AtomicSink() {}

    /** Registers the sink in {@code arena}'s memory: zero-based where possible. */
    static MemoryRegion register(ProtectionDomain pd, Arena arena) {
        // A page of its own: registered at iova 0, its address must share iova 0's offset in the page.
        MemorySegment memory = arena.allocate(PAGE, PAGE);
        if (Capability.REG_MR_IOVA2.isPresent()) {
            try {
                return pd.register(memory, ACCESS, 0L);
            } catch (VerbsException refused) {
                // the documented fallback below: the provider would not register at iova 0
            }
        }
        return pd.register(memory, ACCESS);
    }
}
