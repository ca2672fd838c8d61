package dev.panamaverbs.examples.rping;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** rping's ping data: the "rdma-ping-%d: " prefix, letters 'A'..'z' from a start that moves each ping, a NUL last. */
class RpingPatternTest {
    @Test
    void pingZeroOf64Bytes() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(64);
            RpingPattern.fill(buffer, 64, 0);
            assertEquals("rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqr", RpingPattern.text(buffer, 64));
            assertEquals(0, buffer.get(ValueLayout.JAVA_BYTE, 63));
            assertEquals(63, RpingPattern.cStringLength(buffer, 64));
        }
    }

    @Test
    void theStartLetterMovesOnAndWraps() {
        assertEquals('A', RpingPattern.start(0));
        assertEquals('B', RpingPattern.start(1));
        assertEquals('z', RpingPattern.start(57));
        assertEquals('A', RpingPattern.start(58));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(30);
            RpingPattern.fill(buffer, 30, 57);
            // "rdma-ping-57: " is 14 characters; the letters start at 'z' and wrap to 'A'
            assertEquals("rdma-ping-57: zABCDEFGHIJKLMN", RpingPattern.text(buffer, 30));
        }
    }

    @Test
    void theSmallestSizeHoldsTheLargestPrefix() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(RpingOptions.MIN_SIZE);
            RpingPattern.fill(buffer, RpingOptions.MIN_SIZE, Integer.MAX_VALUE);
            assertEquals("rdma-ping-2147483647: " + (char) RpingPattern.start(Integer.MAX_VALUE) + (char) (RpingPattern.start(Integer.MAX_VALUE) + 1)
                    + (char) (RpingPattern.start(Integer.MAX_VALUE) + 2), RpingPattern.text(buffer, RpingOptions.MIN_SIZE));
        }
    }
}
