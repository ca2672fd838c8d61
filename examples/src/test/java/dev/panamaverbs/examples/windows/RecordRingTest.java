package dev.panamaverbs.examples.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** The ring's layout and its records: written and read back, and what reading refuses. */
class RecordRingTest {
    @Test
    void recordsGoRoundTheRingAfterTheSignalWord() {
        assertEquals(64, RecordRing.offset(1));
        assertEquals(64 + 15 * 64, RecordRing.offset(16));
        assertEquals(64, RecordRing.offset(17));
        assertEquals(64 + 16 * 64, RecordRing.WINDOW_BYTES);
    }

    @Test
    void aWrittenRecordReadsBack() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment window = arena.allocate(RecordRing.WINDOW_BYTES);
            RecordRing.write(window, 17);
            assertEquals("record 17 from the producer", RecordRing.read(window, 17));
        }
    }

    @Test
    void anOlderRecordOrAStrayByteIsRefused() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment window = arena.allocate(RecordRing.WINDOW_BYTES);
            RecordRing.write(window, 1);
            assertThrows(IllegalStateException.class, () -> RecordRing.read(window, 17)); // the same entry, one lap later
            window.set(ValueLayout.JAVA_BYTE, RecordRing.offset(1) + RecordRing.RECORD_BYTES - 1, (byte) 1);
            assertThrows(IllegalStateException.class, () -> RecordRing.read(window, 1));
        }
    }
}
