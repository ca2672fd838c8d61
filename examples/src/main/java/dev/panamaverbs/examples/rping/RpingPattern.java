package dev.panamaverbs.examples.rping;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * rping's ping data: {@code "rdma-ping-%d: "} with the ping number, then letters cycling through
 * ASCII 65..122 ('A'..'z') starting at a letter that moves on by one each ping (65 for ping 0),
 * and a NUL in the last byte. The server echoes it back; {@code -V} compares the echo byte for byte.
 */
public final class RpingPattern {
    /** The first and last letter of the cycle. */
    static final int FIRST = 65;
    static final int LAST = 122;

    private RpingPattern() {}

    /** The letter the cycle starts at for ping number {@code ping} (from 0): 65 + ping mod 58. */
    public static int start(int ping) {
        return FIRST + Math.floorMod(ping, LAST - FIRST + 1);
    }

    /** Fills {@code size} bytes of {@code buffer} with ping {@code ping}'s data. */
    public static void fill(MemorySegment buffer, int size, int ping) {
        byte[] prefix = ("rdma-ping-" + ping + ": ").getBytes(StandardCharsets.US_ASCII);
        // snprintf(buf, size, ...): at most size - 1 characters and the NUL; the letters start
        // after the full prefix length, as C uses snprintf's return value.
        int copied = Math.min(prefix.length, size - 1);
        MemorySegment.copy(MemorySegment.ofArray(prefix), 0, buffer, 0, copied);
        buffer.set(ValueLayout.JAVA_BYTE, copied, (byte) 0);
        int c = start(ping);
        for (int i = prefix.length; i < size; i++) {
            buffer.set(ValueLayout.JAVA_BYTE, i, (byte) c);
            c = c == LAST ? FIRST : c + 1;
        }
        buffer.set(ValueLayout.JAVA_BYTE, size - 1, (byte) 0);
    }

    /** The bytes of {@code buffer} up to its first NUL (at most {@code max}), as C's {@code %s} prints them. */
    public static String text(MemorySegment buffer, int max) {
        int length = cStringLength(buffer, max);
        return new String(buffer.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.ISO_8859_1);
    }

    /** {@code strlen} bounded by {@code max}. */
    public static int cStringLength(MemorySegment buffer, int max) {
        int length = 0;
        while (length < max && buffer.get(ValueLayout.JAVA_BYTE, length) != 0) {
            length++;
        }
        return length;
    }
}
