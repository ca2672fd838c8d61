package dev.panamaverbs.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RendezvousOfferTest {
    private final MemorySegment buffer = Arena.ofAuto().allocate(64);

    @Test
    void anOfferReadsBackWhatWasWrittenAtItsDocumentedOffsets() {
        RendezvousOffer offer = new RendezvousOffer(0x0102030405060708L, 64L << 20, 0xA1B2C3D4);
        offer.write(buffer, 8);
        assertEquals(offer, RendezvousOffer.read(buffer, 8, RendezvousOffer.SIZE));
        byte[] bytes = buffer.asSlice(8, RendezvousOffer.SIZE).toArray(ValueLayout.JAVA_BYTE);
        byte[] expected = {8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 4, 0, 0, 0, 0,
                (byte) 0xD4, (byte) 0xC3, (byte) 0xB2, (byte) 0xA1, 0, 0, 0, 0};
        assertEquals(Arrays.toString(expected), Arrays.toString(bytes));
    }

    @Test
    void aBadOfferIsAProtocolErrorNamingWhatIsWrong() {
        new RendezvousOffer(1, 10, 2).write(buffer, 0);
        assertMessage("a payload of 23 bytes, an offer has 24", () -> RendezvousOffer.read(buffer, 0, 23));
        new RendezvousOffer(1, 0, 2).write(buffer, 0);
        assertMessage("length 0 is not in 1..2147483647", () -> RendezvousOffer.read(buffer, 0, 24));
        new RendezvousOffer(1, 1L << 31, 2).write(buffer, 0);
        assertMessage("length 2147483648 is not in", () -> RendezvousOffer.read(buffer, 0, 24));
        new RendezvousOffer(1, 10, 2).write(buffer, 0);
        buffer.set(ValueLayout.JAVA_BYTE, 20, (byte) 1);
        assertMessage("the reserved word is set", () -> RendezvousOffer.read(buffer, 0, 24));
    }

    private static void assertMessage(String part, org.junit.jupiter.api.function.Executable read) {
        MessagingException e = assertThrows(MessagingException.class, read);
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }
}
