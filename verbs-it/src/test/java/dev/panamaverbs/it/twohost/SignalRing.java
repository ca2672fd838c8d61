package dev.panamaverbs.it.twohost;

import dev.panamaverbs.testkit.RegisteredBuffer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The layout and contents {@link OneSidedTwoHostTest} and {@link OneSidedPeer} share. Both
 * windows are {@link #WINDOW_BYTES} long: slots in the first 4 KiB, then a ring of
 * {@link #RING} entries of {@link #ENTRY} bytes. Put {@code i} (1-based) goes to entry
 * {@code (i - 1) % RING} of both windows, {@link #size(long)} bytes of the pattern seeded {@code i}.
 * Run {@code r} uses its own slots: the consumer's signal, the producer's credit and counter.
 */
final class SignalRing {
    static final int RING = 64;
    static final int ENTRY = 4096;
    static final int DATA = 4096;
    static final int WINDOW_BYTES = DATA + RING * ENTRY;
    /** The consumer returns credit (a signal on the producer's credit slot) every this many puts. */
    static final int ACK_EVERY = 8;

    private SignalRing() {}

    /** Varied sizes: mostly 1..512 bytes (one packet), every 16th 4000 bytes (several packets at MTU 1024). */
    static int size(long i) {
        return i % 16 == 0 ? 4000 : 1 + (int) ((i * 7919) % 512);
    }

    static long entryOffset(long i) {
        return DATA + ((i - 1) % RING) * ENTRY;
    }

    /** The consumer's slot that counts run {@code run}'s puts. */
    static long signalOffset(int run) {
        return 8L * run;
    }

    /** The producer's slot the consumer returns credit to. */
    static long creditOffset(int run) {
        return 8L * run;
    }

    /** The producer's slot its companion counts finished operations in. */
    static long counterOffset(int run) {
        return 256 + 8L * run;
    }

    /** Writes put {@code i}'s bytes into its entry of {@code window}. */
    static void fill(MemorySegment window, long i) {
        long at = entryOffset(i);
        int size = size(i);
        for (int j = 0; j < size; j++) {
            window.set(ValueLayout.JAVA_BYTE, at + j, RegisteredBuffer.patternByte(i, j));
        }
    }

    /** How many of put {@code i}'s bytes are not (yet) in its entry of {@code window}. */
    static int mismatches(MemorySegment window, long i) {
        long at = entryOffset(i);
        int size = size(i);
        int bad = 0;
        for (int j = 0; j < size; j++) {
            if (window.get(ValueLayout.JAVA_BYTE, at + j) != RegisteredBuffer.patternByte(i, j)) {
                bad++;
            }
        }
        return bad;
    }
}
