package dev.panamaverbs.perftest.run;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;

/** Waits, bounded, until a byte of registered memory (written by the peer's RDMA WRITE) holds a value. */
final class ByteWatch {
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();

    private final MemorySegment memory;
    private final long offset;
    private final long timeoutNanos;

    ByteWatch(MemorySegment memory, long offset, Duration timeout) {
        this.memory = memory;
        this.offset = offset;
        this.timeoutNanos = timeout.toNanos();
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
        if ((byte) BYTE.getVolatile(memory, offset) == value) {
            return;
        }
        long deadline = System.nanoTime() + timeoutNanos;
        int spins = 0;
        while ((byte) BYTE.getVolatile(memory, offset) != value) {
            if ((++spins & 0x3FF) == 0 && System.nanoTime() - deadline > 0) {
                throw new TestFailedException("the peer's WRITE of iteration " + iteration + " did not arrive within "
                        + timeoutNanos / 1_000_000_000 + " s (did the peer stop, or does it run another test?)");
            }
            Thread.onSpinWait();
        }
    }
}
