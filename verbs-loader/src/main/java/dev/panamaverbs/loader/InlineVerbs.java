package dev.panamaverbs.loader;

import dev.panamaverbs.error.VerbsException;
import dev.panamaverbs.error.VerbsUnsupportedException;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_gid_entry;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The {@code static inline} wrappers and macros of verbs.h that choose between exported
 * functions: {@code ibv_reg_mr}, {@code ibv_reg_mr_iova}, {@code ibv_query_gid_ex},
 * {@code ibv_query_gid_table}. Control path: failures throw {@link VerbsException} with errno.
 * Call only after {@link LibIbverbs#ensureAvailable()} succeeded.
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
     * @return the {@code struct ibv_mr *}
     * @throws VerbsUnsupportedException when optional flags are asked for and libibverbs lacks
     *         {@code ibv_reg_mr_iova2} ({@link Capability#REG_MR_IOVA2})
     */
    public static long regMr(long pd, long addr, long length, int access) {
        Memory.requireNonNull(pd, "ibv_reg_mr", "pd");
        LibIbverbs.ensureAvailable();
        if ((access & ACCESS_OPTIONAL_RANGE) == 0) {
            return register(ExportedCalls.REG_MR, "ibv_reg_mr", pd, addr, length, access);
        }
        return regMrIova2("ibv_reg_mr", pd, addr, length, addr, access);
    }

    /**
     * The {@code ibv_reg_mr_iova} macro ({@code __ibv_reg_mr_iova}): without optional access flags,
     * {@code ibv_reg_mr_iova(pd, addr, length, iova, access)} (IBVERBS_1.7); with them,
     * {@code ibv_reg_mr_iova2(pd, addr, length, iova, access)} (IBVERBS_1.8).
     *
     * @throws VerbsUnsupportedException when the function needed is absent
     */
    public static long regMrIova(long pd, long addr, long length, long iova, int access) {
        Memory.requireNonNull(pd, "ibv_reg_mr_iova", "pd");
        LibIbverbs.ensureAvailable();
        if ((access & ACCESS_OPTIONAL_RANGE) != 0) {
            return regMrIova2("ibv_reg_mr_iova", pd, addr, length, iova, access);
        }
        MethodHandle handle = ExportedCalls.REG_MR_IOVA;
        if (handle == null) {
            throw new VerbsUnsupportedException("ibv_reg_mr_iova",
                    "this libibverbs does not export ibv_reg_mr_iova@IBVERBS_1.7");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            long mr = (long) handle.invokeExact(state, pd, addr, length, iova, access);
            return created(mr, state, "ibv_reg_mr_iova");
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    private static long regMrIova2(String verb, long pd, long addr, long length, long iova, int access) {
        MethodHandle handle = ExportedCalls.REG_MR_IOVA2;
        if (handle == null) {
            throw new VerbsUnsupportedException(verb, "access flags 0x" + Integer.toHexString(access & ACCESS_OPTIONAL_RANGE)
                    + " need ibv_reg_mr_iova2@IBVERBS_1.8, which this libibverbs does not export");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            long mr = (long) handle.invokeExact(state, pd, addr, length, iova, access);
            return created(mr, state, verb);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    private static long register(MethodHandle handle, String verb, long pd, long addr, long length, int access) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            long mr = (long) handle.invokeExact(state, pd, addr, length, access);
            return created(mr, state, verb);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    private static long created(long pointer, MemorySegment state, String verb) {
        if (pointer == 0) {
            throw VerbsException.of(verb, CallState.errno(state));
        }
        return pointer;
    }

    /**
     * {@code ibv_query_gid_ex}: {@code return _ibv_query_gid_ex(context, port_num, gid_index,
     * entry, flags, sizeof(*entry));}
     *
     * @param entry a {@code struct ibv_gid_entry} of {@code ibv_gid_entry.SIZE} bytes
     * @throws VerbsUnsupportedException without {@link Capability#QUERY_GID_EX}
     * @throws VerbsException with the errno returned (ENODATA: no GID at that index)
     */
    public static void queryGidEx(long context, int portNum, int gidIndex, long entry, int flags) {
        Memory.requireNonNull(context, "ibv_query_gid_ex", "context");
        Memory.requireNonNull(entry, "ibv_query_gid_ex", "entry");
        LibIbverbs.ensureAvailable();
        MethodHandle handle = ExportedCalls.QUERY_GID_EX;
        if (handle == null) {
            throw new VerbsUnsupportedException("ibv_query_gid_ex",
                    "this libibverbs does not export _ibv_query_gid_ex@IBVERBS_1.11");
        }
        int rc;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            rc = (int) handle.invokeExact(state, context, portNum, gidIndex, entry, flags, ibv_gid_entry.SIZE);
            rc = ExtendedOps.errnoOf(rc, state);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
        if (rc != 0) {
            throw VerbsException.of("ibv_query_gid_ex", rc);
        }
    }

    /**
     * {@code ibv_query_gid_table}: {@code return _ibv_query_gid_table(context, entries,
     * max_entries, flags, sizeof(*entries));}
     *
     * @param entries room for {@code maxEntries} {@code struct ibv_gid_entry}
     * @return the number of entries written
     * @throws VerbsUnsupportedException without {@link Capability#QUERY_GID_TABLE}
     * @throws VerbsException with the errno when the call returns a negative value
     */
    public static long queryGidTable(long context, long entries, long maxEntries, int flags) {
        Memory.requireNonNull(context, "ibv_query_gid_table", "context");
        if (maxEntries < 0) {
            throw new IllegalArgumentException("ibv_query_gid_table: max_entries " + maxEntries + " is negative");
        }
        if (maxEntries > 0) {
            Memory.requireNonNull(entries, "ibv_query_gid_table", "entries");
        }
        LibIbverbs.ensureAvailable();
        MethodHandle handle = ExportedCalls.QUERY_GID_TABLE;
        if (handle == null) {
            throw new VerbsUnsupportedException("ibv_query_gid_table",
                    "this libibverbs does not export _ibv_query_gid_table@IBVERBS_1.11");
        }
        long count;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            count = (long) handle.invokeExact(state, context, entries, maxEntries, flags, ibv_gid_entry.SIZE);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
        if (count < 0) {
            // The function returns -errno.
            throw VerbsException.of("ibv_query_gid_table", (int) -count);
        }
        return count;
    }
}
