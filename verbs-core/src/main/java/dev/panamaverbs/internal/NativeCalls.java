package dev.panamaverbs.internal;

import dev.panamaverbs.values.Errno;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.VerbsUnsupportedException;
import dev.panamaverbs.ffm.invoke.CallState;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.LongFunction;
import java.util.function.ToIntBiFunction;

/**
 * How core turns C return conventions into Java exceptions. The verbs use three conventions:
 * return 0 or an errno ({@code ibv_modify_qp}, {@code ibv_destroy_*}); return a pointer or NULL
 * with errno set ({@code ibv_create_*}); return -1 with errno set ({@code ibv_get_cq_event}).
 */
public final class NativeCalls {
    private NativeCalls() {}

    /**
     * The exception for {@code verb} failing with {@code errno}: a {@link VerbsUnsupportedException}
     * when the errno means "not supported" ({@link Errno#meansUnsupported(int)}), else a plain one.
     * It lives here, not on {@link VerbsException}, so the base type names none of its subclasses.
     */
    public static VerbsException failure(String verb, int errno) {
        return Errno.meansUnsupported(errno) ? new VerbsUnsupportedException(verb, errno) : new VerbsException(verb, errno);
    }

    /** For verbs that return 0 or a positive errno. Some providers return -errno: both are read. */
    public static void checkReturnedErrno(String verb, int rc) {
        if (rc != 0) {
            throw failure(verb, Math.abs(rc));
        }
    }

    /**
     * Calls a destroy verb of the first convention ({@code ibv_destroy_qp}, {@code ibv_dealloc_pd},
     * ...) on {@code handle} with a fresh call state, and checks its answer: the shape of most
     * resources' {@code destroy()}.
     */
    public static void destroy(String verb, ToIntBiFunction<MemorySegment, MemorySegment> call, MemorySegment handle) {
        try (Arena arena = Arena.ofConfined()) {
            checkReturnedErrno(verb, call.applyAsInt(CallState.allocate(arena), handle));
        }
    }

    /** For verbs that return -1 (or any non-zero) and set errno, captured in {@code callState}. */
    public static void checkErrno(String verb, int rc, int capturedErrno) {
        if (rc != 0) {
            throw failure(verb, capturedErrno != 0 ? capturedErrno : Math.abs(rc));
        }
    }

    /** For verbs that return a pointer or NULL with errno set. */
    public static MemorySegment checkPointer(String verb, MemorySegment result, int capturedErrno) {
        if (result.equals(MemorySegment.NULL)) {
            throw failure(verb, capturedErrno != 0 ? capturedErrno : Errno.EINVAL);
        }
        return result;
    }

    /**
     * {@code resolve(object)} (an ops-table function resolved once, at creation), or null when the
     * provider left the op NULL: creation does not fail for it; the verb, when used, throws
     * {@link #missingOp}.
     */
    public static MemorySegment resolveOrNull(LongFunction<MemorySegment> resolve, long object) {
        MemorySegment function = resolve.apply(object);
        return function.address() == 0 ? null : function;
    }

    /** The exception for calling {@code verb} whose op the provider left NULL in {@code struct ibv_context_ops}. */
    public static VerbsUnsupportedException missingOp(String verb, String op) {
        return new VerbsUnsupportedException(verb, "the provider's ibv_context.ops." + op + " is NULL");
    }

    /**
     * A post's failure ({@code ibv_post_send}, {@code ibv_post_recv}, {@code ibv_post_srq_recv}):
     * providers return a positive or negative errno; an errno meaning "not supported" becomes a
     * {@link VerbsUnsupportedException}, any other a {@link VerbsException} whose message ends with
     * {@code badRequest} (the refused request from {@code bad_wr}).
     */
    public static VerbsException postFailure(String verb, int rc, String badRequest) {
        int errno = Math.abs(rc);
        if (Errno.meansUnsupported(errno)) {
            return new VerbsUnsupportedException(verb, errno);
        }
        return new VerbsException(verb, errno, badRequest);
    }
}
