package dev.panamaverbs;

import dev.panamaverbs.error.Errno;
import dev.panamaverbs.error.VerbsException;
import dev.panamaverbs.error.VerbsUnsupportedException;
import java.lang.foreign.MemorySegment;
import java.util.function.LongFunction;

/**
 * How core turns C return conventions into Java exceptions. The verbs use three conventions:
 * return 0 or an errno ({@code ibv_modify_qp}, {@code ibv_destroy_*}); return a pointer or NULL
 * with errno set ({@code ibv_create_*}); return -1 with errno set ({@code ibv_get_cq_event}).
 */
final class NativeCalls {
    private NativeCalls() {}

    /** The exception for {@code verb} failing with {@code errno}: unsupported answers get their own type. */
    static VerbsException failure(String verb, int errno) {
        return Errno.meansUnsupported(errno) ? new VerbsUnsupportedException(verb, errno) : new VerbsException(verb, errno);
    }

    /** For verbs that return 0 or a positive errno. Some providers return -errno: both are read. */
    static void checkReturnedErrno(String verb, int rc) {
        if (rc != 0) {
            throw failure(verb, Math.abs(rc));
        }
    }

    /** For verbs that return -1 (or any non-zero) and set errno, captured in {@code callState}. */
    static void checkErrno(String verb, int rc, int capturedErrno) {
        if (rc != 0) {
            throw failure(verb, capturedErrno != 0 ? capturedErrno : Math.abs(rc));
        }
    }

    /** For verbs that return a pointer or NULL with errno set. */
    static MemorySegment checkPointer(String verb, MemorySegment result, int capturedErrno) {
        if (result.equals(MemorySegment.NULL)) {
            throw failure(verb, capturedErrno != 0 ? capturedErrno : Errno.EINVAL);
        }
        return result;
    }

    /**
     * Rethrows what a {@code invokeExact} threw. Native downcalls throw nothing checked, so
     * anything else is a bug in the binding, reported with the verb's name.
     */
    static RuntimeException propagate(String verb, Throwable thrown) {
        if (thrown instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (thrown instanceof Error error) {
            throw error;
        }
        throw new IllegalStateException("calling " + verb + " failed", thrown);
    }

    /**
     * {@code resolve(object)} (an ops-table function resolved once, at creation), or null when the
     * provider left the op NULL: creation does not fail for it; the verb, when used, resolves
     * again and throws {@link VerbsUnsupportedException} naming it.
     */
    static MemorySegment resolveOrNull(LongFunction<MemorySegment> resolve, long object) {
        try {
            return resolve.apply(object);
        } catch (VerbsUnsupportedException missing) {
            return null;
        }
    }
}
