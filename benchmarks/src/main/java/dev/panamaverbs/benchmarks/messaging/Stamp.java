package dev.panamaverbs.benchmarks.messaging;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * What {@link MessagingCompare} checks of every message, cheaply: its length, and one word (a
 * sequence number, with {@link #LAST} on the last message of a phase) written at both its first
 * and its last 8 bytes, so a short, torn or reordered transfer fails the run instead of being
 * measured.
 */
final class Stamp {
    /** Set in the word of the last message of a phase. */
    static final long LAST = 1L << 62;

    private Stamp() {}

    /** {@return the word of message {@code sequence}} */
    static long word(long sequence, boolean last) {
        return last ? sequence | LAST : sequence;
    }

    static boolean isLast(long word) {
        return (word & LAST) != 0;
    }

    /** Writes {@code word} at the start and the end of the {@code size}-byte message in {@code message}. */
    static void write(MemorySegment message, int size, long word) {
        message.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, word);
        message.set(ValueLayout.JAVA_LONG_UNALIGNED, size - Long.BYTES, word);
    }

    /**
     * Checks that {@code length} is {@code size} and that the message's last word equals its
     * first; {@return the first}
     */
    static long check(MemorySegment message, long length, int size) {
        if (length != size) {
            throw new IllegalStateException("a message of " + length + " bytes arrived, " + size + " sent");
        }
        long head = message.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        long tail = message.get(ValueLayout.JAVA_LONG_UNALIGNED, size - Long.BYTES);
        if (head != tail) {
            throw new IllegalStateException("a " + size + "-byte message is torn: first word " + head + ", last " + tail);
        }
        return head;
    }

    /** Fails unless {@code word} is that of message {@code sequence}. */
    static void expect(long word, long sequence) {
        if ((word & ~LAST) != sequence) {
            throw new IllegalStateException("message " + (word & ~LAST) + " arrived where " + sequence + " was due");
        }
    }
}
