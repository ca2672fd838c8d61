package dev.panamaverbs.cm;

import dev.panamaverbs.VerbsException;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.RdmacmCalls;
import dev.panamaverbs.VerbsResource;
import dev.panamaverbs.internal.CoreAccess;
import dev.panamaverbs.internal.Deadline;
import dev.panamaverbs.internal.NativeCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * How {@link ConnectionId} and its events reach librdmacm: creating an identifier, the one shape
 * of an identifier's call (0, or -1 with errno, inside acquire/release), moving and refusing a
 * request's raw identifier, and the resolution timeout handed to librdmacm.
 */
final class IdentifierCalls {
    /**
     * At most how much sooner than the caller's deadline librdmacm's resolution timeout ends (an
     * eighth of the time left, up to this), so its own verdict, with its status, arrives in time.
     */
    private static final long RESOLVE_MARGIN_NANOS = 250_000_000L;

    private IdentifierCalls() {}

    /** One rdma_cm call on an identifier's handle. */
    @FunctionalInterface
    interface Call {
        int run(MemorySegment state, Arena arena);
    }

    /** Runs one rdma_cm call on identifier {@code id} inside acquire/release; a failure throws {@link ConnectionException}. */
    static void call(VerbsResource id, String verb, String where, Call body) {
        CoreAccess.get().acquire(id);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            int rc = body.run(state, arena);
            if (rc != 0) {
                int errno = CallState.errno(state);
                throw new ConnectionException(verb, where + " on " + id, errno != 0 ? errno : Math.abs(rc), null, null);
            }
        } finally {
            CoreAccess.get().release(id);
        }
    }

    /** {@code rdma_migrate_id} of a request's raw identifier to event channel {@code target}; refuses the request when that fails. */
    static void migrate(long rawId, VerbsResource target) {
        CoreAccess.get().acquire(target);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            int rc = RdmacmCalls.rdma_migrate_id(state, MemorySegment.ofAddress(rawId), CoreAccess.get().handleSegment(target));
            if (rc != 0) {
                refuseRaw(rawId);
                throw NativeCalls.failure("rdma_migrate_id", CallState.errno(state));
            }
        } finally {
            CoreAccess.get().release(target);
        }
    }

    /** Refuses a connection request no one will take: {@code rdma_reject}, then {@code rdma_destroy_id}. */
    static void refuseRaw(long rawId) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            MemorySegment id = MemorySegment.ofAddress(rawId);
            int ignored = RdmacmCalls.rdma_reject(state, id, MemorySegment.NULL, (byte) 0);
            ignored = RdmacmCalls.rdma_destroy_id(state, id);
        }
    }

    /**
     * librdmacm's {@code timeout_ms} for a resolution that must end by {@code deadline}: the time
     * left less an eighth of it (at most {@link #RESOLVE_MARGIN_NANOS}), at least 1 ms (a zero
     * timeout's one check), at most {@code Integer.MAX_VALUE} ms.
     */
    static int resolutionMillis(long deadline) {
        return Deadline.blockingMillis(deadline - Math.min(Deadline.remainingNanos(deadline) / 8, RESOLVE_MARGIN_NANOS));
    }
}
