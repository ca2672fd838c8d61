package dev.panamaverbs.it.twohost;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

/**
 * What both hosts of {@link MessageChannelTwoHostTest} compute alike: the seeded size of each
 * message (1 B and 64 KiB first, then random) and the bytes of its payload, so host B checks
 * every byte without being sent the expectation.
 */
final class MessagePattern {
    static final int MAX = 64 * 1024;

    private final Random sizes;
    private final int connection;

    MessagePattern(long seed, int connection) {
        this.sizes = new Random(seed * 31 + connection);
        this.connection = connection;
    }

    /** The size of message {@code i}; call once per message, in order. */
    int nextSize(int i) {
        int random = 1 + sizes.nextInt(MAX);
        return i == 0 ? 1 : i == 1 ? MAX : random;
    }

    /** Writes message {@code i}'s {@code size} payload bytes into {@code target}. */
    void fill(MemorySegment target, int i, int size) {
        byte base = (byte) (connection * 31 + i * 7);
        for (int p = 0; p < size; p++) {
            target.set(ValueLayout.JAVA_BYTE, p, (byte) (base + p * 13 + (p >>> 8)));
        }
    }
}
