package dev.panamaverbs.onesided;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Slot alignment and bounds, and the range checks of a peer's window: no device needed. */
class RemoteWindowTest {
    private final RemoteWindow window = RemoteWindow.open(new WindowDescriptor(0x10000, 4096, 0x77));

    @Test
    void slotsAreAlignedWordsInsideTheWindow() {
        RemoteSlot last = window.slot(4088);
        assertEquals(0x10000 + 4088, last.address());
        assertEquals(0x77, last.rkey());
        IllegalArgumentException unaligned = assertThrows(IllegalArgumentException.class, () -> window.slot(12));
        assertTrue(unaligned.getMessage().contains("8-byte aligned: offset 12"), unaligned.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> window.slot(4096));
        assertThrows(IllegalArgumentException.class, () -> window.slot(-4));
        assertThrows(IndexOutOfBoundsException.class, () -> window.slot(-8));
    }

    @Test
    void aSlotMustBeAlignedAsADeviceAddressToo() {
        RemoteWindow odd = RemoteWindow.open(new WindowDescriptor(0x10004, 64, 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> odd.slot(8));
        assertTrue(e.getMessage().contains("device address 0x1000c"), e.getMessage());
    }

    @Test
    void rangesAreChecked() {
        assertEquals(0x10000 + 100, window.addressAt(100, 3996));
        assertThrows(IndexOutOfBoundsException.class, () -> window.addressAt(100, 3997));
        assertThrows(IndexOutOfBoundsException.class, () -> window.addressAt(-1, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> window.addressAt(0, -1));
        assertThrows(IndexOutOfBoundsException.class, () -> window.addressAt(Long.MAX_VALUE, 2));
        assertThrows(NullPointerException.class, () -> RemoteWindow.open(null));
    }

    @Test
    void slotChecksNameTheWindow() {
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                () -> Slots.checkSlot("Window[x]", 0, 64, 64));
        assertTrue(e.getMessage().contains("Window[x] of 64 bytes"), e.getMessage());
        Slots.checkSlot("Window[x]", 0, 56, 64);
    }

    @Test
    void aTimeoutNamesWhatItWaitedOnAndTheLastValue() {
        WaitTimeoutException e = new WaitTimeoutException("signal " + window.slot(8), 10, 3, Duration.ofMillis(50));
        assertTrue(e.getMessage().contains("slot 8 of RemoteWindow[0x10000"), e.getMessage());
        assertTrue(e.getMessage().contains("to reach 10: last value seen 3"), e.getMessage());
        assertEquals(3, e.lastSeen());
    }
}
