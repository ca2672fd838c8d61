package dev.panamaverbs.loader;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.VarHandle;

/**
 * The segment a downcall made with {@code captureCallState("errno")} writes errno into, right
 * after the C function returns and before the JVM can clobber it.
 */
public final class CallState {
    /** The linker option every {@link Natives} handle carries. */
    public static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    private static final StructLayout LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
            LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private CallState() {}

    /** A capture segment allocated in {@code arena}; pass it as the first argument of a {@link Natives} handle. */
    public static MemorySegment allocate(Arena arena) {
        return arena.allocate(LAYOUT);
    }

    /** The errno captured in {@code state} by the last call that used it. */
    public static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    /** The layout of the capture segment. */
    public static StructLayout layout() {
        return LAYOUT;
    }
}
