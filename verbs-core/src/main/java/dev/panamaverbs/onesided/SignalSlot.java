package dev.panamaverbs.onesided;

import java.lang.invoke.VarHandle;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * An 8-byte signal or counter word in a {@link Window} the caller owns: 8-byte aligned and
 * inside the window (checked on creation). Peers change it with RDMA atomics and writes through
 * the window's rkey; the owner reads it with {@link #read()} and waits on it with
 * {@link OneSidedChannel#waitSignal} or {@link OneSidedChannel#waitCounter}. Make slots once and
 * keep them: the operations then create no objects.
 *
 * @param window the window holding the word
 * @param offset the word's byte offset in the window, a multiple of 8
 */
public record SignalSlot(Window window, long offset) {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    /** Checks alignment and bounds. */
    public SignalSlot {
        Objects.requireNonNull(window, "window");
        Slots.checkSlot(window, window.descriptor().address(), offset, window.memory().byteSize());
    }

    /**
     * The word's current value: a volatile read, so a value the device wrote is seen and the
     * reads after it are not moved before it. Native byte order, as RDMA atomics write it.
     *
     * @return the current value
     * @throws IllegalStateException once the window (or its region) is closed
     */
    public long read() {
        return (long) WORD.getVolatile(window.memory(), offset);
    }

    /**
     * The word's device address (the window's iova plus the offset), what a loop-back atomic names.
     *
     * @return the device address
     */
    public long address() {
        return window.descriptor().address() + offset;
    }

    @Override
    public String toString() {
        return "slot " + offset + " of " + window;
    }
}
