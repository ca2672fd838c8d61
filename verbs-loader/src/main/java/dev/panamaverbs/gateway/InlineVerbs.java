package dev.panamaverbs.gateway;

import dev.panamaverbs.loader.internal.LibIbverbs;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_gid_entry;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.ffm.invoke.verbs_h;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The {@code static inline} wrappers and macros of verbs.h that choose between exported
 * functions: {@code ibv_reg_mr}, {@code ibv_reg_mr_iova}, {@code ibv_query_gid_ex},
 * {@code ibv_query_gid_table}. C's return conventions; a function this libibverbs does not export
 * answers EOPNOTSUPP. Call only once {@code LibIbverbs.LIBRARY.isAvailable()} said yes.
 */
public final class InlineVerbs {
    /** {@code IBV_ACCESS_OPTIONAL_RANGE}: access flags only {@code ibv_reg_mr_iova2} understands. */
    public static final int ACCESS_OPTIONAL_RANGE = VerbsConstants.IBV_ACCESS_OPTIONAL_RANGE;

    private InlineVerbs() {}

    /**
     * The {@code ibv_reg_mr} macro ({@code __ibv_reg_mr}): without optional access flags,
     * {@code ibv_reg_mr(pd, addr, length, access)}; with any flag of
     * {@code IBV_ACCESS_OPTIONAL_RANGE}, {@code ibv_reg_mr_iova2(pd, addr, length, (uintptr_t)addr, access)}.
     *
     * @param errno a {@code CallState} segment: the errno on failure
     * @return the {@code struct ibv_mr *}, or 0 with the errno in {@code errno}
     *         optional flags need {@code ibv_reg_mr_iova2} and this libibverbs lacks it)
     * @param pd the protection domain
     * @param addr the address
     * @param length the length in bytes
     * @param access the access flags
     */
    public static long regMr(MemorySegment errno, long pd, long addr, long length, int access) {
        Memory.requireNonNull(pd, "ibv_reg_mr", "pd");
        if ((access & ACCESS_OPTIONAL_RANGE) != 0) {
            return regMrIova2(errno, pd, addr, length, addr, access);
        }
        return verbs_h.ibv_reg_mr(errno, MemorySegment.ofAddress(pd), MemorySegment.ofAddress(addr), length, access)
                .address();
    }

    /**
     * The {@code ibv_reg_mr_iova} macro ({@code __ibv_reg_mr_iova}): without optional access flags,
     * {@code ibv_reg_mr_iova(pd, addr, length, iova, access)} (IBVERBS_1.7); with them,
     * {@code ibv_reg_mr_iova2(pd, addr, length, iova, access)} (IBVERBS_1.8).
     *
     * @return the {@code struct ibv_mr *}, or 0 with the errno in {@code errno}
     * @param errno the errno value
     * @param pd the protection domain
     * @param addr the address
     * @param length the length in bytes
     * @param iova the I/O virtual address
     * @param access the access flags
     */
    public static long regMrIova(MemorySegment errno, long pd, long addr, long length, long iova, int access) {
        Memory.requireNonNull(pd, "ibv_reg_mr_iova", "pd");
        if ((access & ACCESS_OPTIONAL_RANGE) != 0) {
            return regMrIova2(errno, pd, addr, length, iova, access);
        }
        if (!LibIbverbs.LIBRARY.has("ibv_reg_mr_iova")) {
            return unsupported(errno);
        }
        return verbs_h.ibv_reg_mr_iova(errno, MemorySegment.ofAddress(pd), MemorySegment.ofAddress(addr), length, iova,
                access).address();
    }

    private static long regMrIova2(MemorySegment errno, long pd, long addr, long length, long iova, int access) {
        if (!LibIbverbs.LIBRARY.has("ibv_reg_mr_iova2")) {
            return unsupported(errno);
        }
        return verbs_h.ibv_reg_mr_iova2(errno, MemorySegment.ofAddress(pd), MemorySegment.ofAddress(addr), length,
                iova, access).address();
    }

    private static long unsupported(MemorySegment errno) {
        Errnos.set(errno, OpsTable.EOPNOTSUPP);
        return 0;
    }

    /**
     * {@code ibv_query_gid_ex}: {@code return _ibv_query_gid_ex(context, port_num, gid_index,
     * entry, flags, sizeof(*entry));}
     *
     * @param entry a {@code struct ibv_gid_entry} of {@code ibv_gid_entry.SIZE} bytes
     * @return 0, or the errno (ENODATA: no GID at that index; EOPNOTSUPP without the function)
     * @param context the device context
     * @param portNum the port number (1-based)
     * @param gidIndex the GID index
     * @param flags the flags
     */
    public static int queryGidEx(long context, int portNum, int gidIndex, long entry, int flags) {
        Memory.requireNonNull(context, "ibv_query_gid_ex", "context");
        Memory.requireNonNull(entry, "ibv_query_gid_ex", "entry");
        if (!LibIbverbs.LIBRARY.has("_ibv_query_gid_ex")) {
            return OpsTable.EOPNOTSUPP;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            int rc = verbs_h._ibv_query_gid_ex(state, MemorySegment.ofAddress(context), portNum, gidIndex,
                    MemorySegment.ofAddress(entry), flags, ibv_gid_entry.SIZE);
            return ExtendedOps.errnoOf(rc, state);
        }
    }

    /**
     * {@code ibv_query_gid_table}: {@code return _ibv_query_gid_table(context, entries,
     * max_entries, flags, sizeof(*entries));}
     *
     * @param entries room for {@code maxEntries} {@code struct ibv_gid_entry}
     * @return the number of entries written, or {@code -errno} (-EOPNOTSUPP without the function)
     * @param context the device context
     * @param maxEntries the maximum number of entries
     * @param flags the flags
     */
    public static long queryGidTable(long context, long entries, long maxEntries, int flags) {
        Memory.requireNonNull(context, "ibv_query_gid_table", "context");
        Memory.requireArray(entries, maxEntries, "ibv_query_gid_table", "entries", "max_entries");
        if (!LibIbverbs.LIBRARY.has("_ibv_query_gid_table")) {
            return -OpsTable.EOPNOTSUPP;
        }
        try (Arena arena = Arena.ofConfined()) {
            return verbs_h._ibv_query_gid_table(CallState.allocate(arena), MemorySegment.ofAddress(context),
                    MemorySegment.ofAddress(entries), maxEntries, flags, ibv_gid_entry.SIZE);
        }
    }
}
