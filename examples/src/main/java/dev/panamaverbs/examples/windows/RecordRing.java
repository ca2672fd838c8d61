package dev.panamaverbs.examples.windows;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * The layout both sides' windows share, and the records in it. Word 0 of a window is its signal
 * slot: on the consumer, how many records arrived (the producer adds 1 with each put); on the
 * producer, how many records the consumer is done with (its credit). From byte {@link #RING_OFFSET}
 * on, a ring of {@link #ENTRIES} records of {@link #RECORD_BYTES} bytes: the producer stages
 * record n in entry (n - 1) mod {@link #ENTRIES} of its window and puts it into the same entry
 * of the consumer's. A record is its number (8 bytes, native order) and a text, zero-padded.
 */
final class RecordRing {
    static final long SIGNAL_OFFSET = 0;
    static final long RING_OFFSET = 64;
    static final int ENTRIES = 16;
    static final int RECORD_BYTES = 64;
    static final long WINDOW_BYTES = RING_OFFSET + (long) ENTRIES * RECORD_BYTES;
    private static final int TEXT_BYTES = RECORD_BYTES - Long.BYTES;

    private RecordRing() {}

    /** Where record {@code n} (1, 2, ...) sits in a window. */
    static long offset(long n) {
        return RING_OFFSET + ((n - 1) % ENTRIES) * RECORD_BYTES;
    }

    /** Record {@code n}'s text. */
    static String text(long n) {
        return "record " + n + " from the producer";
    }

    /** Writes record {@code n} into its entry of {@code window}. */
    static void write(MemorySegment window, long n) {
        long at = offset(n);
        window.set(ValueLayout.JAVA_LONG, at, n);
        MemorySegment text = window.asSlice(at + Long.BYTES, TEXT_BYTES);
        text.fill((byte) 0);
        byte[] bytes = text(n).getBytes(StandardCharsets.US_ASCII);
        MemorySegment.copy(bytes, 0, text, ValueLayout.JAVA_BYTE, 0, bytes.length);
    }

    /**
     * Reads record {@code n} from its entry of {@code window} and checks it is record {@code n}.
     *
     * @return its text
     * @throws IllegalStateException if the entry holds anything else
     */
    static String read(MemorySegment window, long n) {
        long at = offset(n);
        long number = window.get(ValueLayout.JAVA_LONG, at);
        byte[] bytes = window.asSlice(at + Long.BYTES, TEXT_BYTES).toArray(ValueLayout.JAVA_BYTE);
        int length = 0;
        while (length < bytes.length && bytes[length] != 0) {
            length++;
        }
        String text = new String(bytes, 0, length, StandardCharsets.US_ASCII);
        if (number != n || !text.equals(text(n))) {
            throw new IllegalStateException("entry " + (n - 1) % ENTRIES + " holds record " + number + " (\"" + text
                    + "\") when the signal said record " + n + " had arrived");
        }
        for (int i = length; i < bytes.length; i++) {
            if (bytes[i] != 0) {
                throw new IllegalStateException("record " + n + " has a non-zero byte after its text, at " + i);
            }
        }
        return text;
    }
}
