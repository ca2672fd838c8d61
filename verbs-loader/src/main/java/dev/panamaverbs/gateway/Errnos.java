package dev.panamaverbs.gateway;

import dev.panamaverbs.ffm.invoke.CallState;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * Where the reimplemented inline verbs set errno themselves, as their C bodies do
 * ({@code errno = EOPNOTSUPP; return NULL;}): into the caller's capture segment, which the
 * caller then reads like any captured errno.
 */
final class Errnos {
    private static final VarHandle ERRNO =
            CallState.layout().varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private Errnos() {}

    static void set(MemorySegment state, int errno) {
        ERRNO.set(state, 0L, errno);
    }
}
