package dev.panamaverbs.onesided;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.RemoteRegion;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class WindowDescriptorTest {
    private static final WindowDescriptor DESCRIPTOR = new WindowDescriptor(0x1122334455667788L, 0x10000, 0xA1B2C3D4);

    @Test
    void encodesTheDocumentedLittleEndianLayout() {
        byte[] bytes = DESCRIPTOR.toBytes();
        assertEquals(WindowDescriptor.BYTES, bytes.length);
        assertArrayEquals(new byte[] {
                1, 0, 0, 0,                                                   // version, reserved
                (byte) 0xD4, (byte) 0xC3, (byte) 0xB2, (byte) 0xA1,           // rkey
                (byte) 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,        // address
                0, 0, 1, 0, 0, 0, 0, 0 }, bytes);                            // length 0x10000
    }

    @Test
    void roundTripsThroughBytesAndNativeMemory() {
        assertEquals(DESCRIPTOR, WindowDescriptor.fromBytes(DESCRIPTOR.toBytes()));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment privateData = arena.allocate(56);          // an RC connect's private data
            DESCRIPTOR.writeTo(privateData, 56 - WindowDescriptor.BYTES);
            assertEquals(DESCRIPTOR, WindowDescriptor.readFrom(privateData, 56 - WindowDescriptor.BYTES));
            assertThrows(IndexOutOfBoundsException.class, () -> DESCRIPTOR.writeTo(privateData, 33));
            assertThrows(IndexOutOfBoundsException.class, () -> WindowDescriptor.readFrom(privateData, 40));
        }
    }

    @Test
    void carriesThroughTheEndpointExchangesRemoteRegion() {
        RemoteRegion region = DESCRIPTOR.toRemoteRegion();
        assertEquals(new RemoteRegion(DESCRIPTOR.address(), DESCRIPTOR.rkey(), DESCRIPTOR.length()), region);
        assertEquals(DESCRIPTOR, WindowDescriptor.of(region));
    }

    @Test
    void refusesAnotherVersionReservedBytesAndBadLengths() {
        byte[] bytes = DESCRIPTOR.toBytes();
        bytes[0] = 2;
        IllegalArgumentException version = assertThrows(IllegalArgumentException.class, () -> WindowDescriptor.fromBytes(bytes));
        assertTrue(version.getMessage().contains("version 2"), version.getMessage());
        byte[] reserved = DESCRIPTOR.toBytes();
        reserved[2] = 1;
        assertThrows(IllegalArgumentException.class, () -> WindowDescriptor.fromBytes(reserved));
        byte[] negative = DESCRIPTOR.toBytes();
        negative[23] = (byte) 0x80;
        assertThrows(IllegalArgumentException.class, () -> WindowDescriptor.fromBytes(negative));
        IllegalArgumentException shortInput = assertThrows(IllegalArgumentException.class,
                () -> WindowDescriptor.fromBytes(new byte[23]));
        assertTrue(shortInput.getMessage().contains("24 bytes, got 23"), shortInput.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new WindowDescriptor(0, -1, 0));
    }
}
