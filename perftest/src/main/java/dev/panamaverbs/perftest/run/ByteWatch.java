package dev.panamaverbs.perftest.run;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;

/** Waits, bounded, until a byte of registered memory (written by the peer's RDMA WRITE) holds a value. */
record ByteWatch(MemorySegment memory, long offset, long timeoutNanos) {
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();

    ByteWatch(MemorySegment memory, long offset, Duration timeout) {
        this(memory, offset, timeout.toNanos());
    }

    /** Spins until the byte is {@code value} or {@code endNanos} ({@link System#nanoTime}) passes; false then. */
    boolean awaitUntil(byte value, long endNanos) {
        int spins = 0;
        while ((byte) BYTE.getVolatile(memory, offset) != value) {
            if ((++spins & 0x3FF) == 0 && System.nanoTime() - endNanos > 0) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }

    /** Spins until the byte is {@code value}; a timeout is a {@link TestFailedException}. */
    void await(byte value, long iteration) {
        // The byte is read once before the clock: a write already landed costs no nanoTime.
        if ((byte) BYTE.getVolatile(memory, offset) != value && !awaitUntil(value, System.nanoTime() + timeoutNanos)) {
            throw new TestFailedException("the peer's WRITE of iteration " + iteration + " did not arrive within "
                    + timeoutNanos / 1_000_000_000 + " s (did the peer stop, or does it run another test?)");
        }
    }
}
