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
                (byte) 0xD4, (byte) 0xC3, (byte) 0xB2, (byte) 0xA1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        assertEquals(Arrays.toString(expected), Arrays.toString(bytes));
    }

    @Test
    void aRequestOrResponseOfferCarriesItsTypeAndCorrelation() {
        RendezvousOffer request = new RendezvousOffer(0x10, 5000, 7, MessageType.REQUEST, 0x0102030405060708L);
        request.write(buffer, 0);
        assertEquals(request, RendezvousOffer.read(buffer, 0, RendezvousOffer.SIZE));
        assertEquals(3, buffer.get(ValueLayout.JAVA_BYTE, 20), "REQUEST's code at offset 20");
        assertEquals(8, buffer.get(ValueLayout.JAVA_BYTE, 24), "the correlation's low byte at offset 24");
        RendezvousOffer response = new RendezvousOffer(0x10, 5000, 7, MessageType.RESPONSE, 9);
        response.write(buffer, 0);
        assertEquals(response, RendezvousOffer.read(buffer, 0, RendezvousOffer.SIZE));
    }

    @Test
    void aBadOfferIsAProtocolErrorNamingWhatIsWrong() {
        new RendezvousOffer(1, 10, 2).write(buffer, 0);
        assertMessage("a payload of 24 bytes, an offer has 32", () -> RendezvousOffer.read(buffer, 0, 24));
        new RendezvousOffer(1, 0, 2).write(buffer, 0);
        assertMessage("length 0 is not in 1..2147483647", () -> RendezvousOffer.read(buffer, 0, 32));
        new RendezvousOffer(1, 1L << 31, 2).write(buffer, 0);
        assertMessage("length 2147483648 is not in", () -> RendezvousOffer.read(buffer, 0, 32));
        new RendezvousOffer(1, 10, 2).write(buffer, 0);
        buffer.set(ValueLayout.JAVA_BYTE, 20, (byte) MessageType.CREDIT.code());
        assertMessage("is not DATA, REQUEST or RESPONSE", () -> RendezvousOffer.read(buffer, 0, 32));
        new RendezvousOffer(1, 10, 2).write(buffer, 0);
        buffer.set(ValueLayout.JAVA_BYTE, 24, (byte) 5);
        assertMessage("correlation 5 with type DATA", () -> RendezvousOffer.read(buffer, 0, 32));
        new RendezvousOffer(1, 10, 2, MessageType.REQUEST, 0).write(buffer, 0);
        assertMessage("correlation 0 with type REQUEST", () -> RendezvousOffer.read(buffer, 0, 32));
    }

    private static void assertMessage(String part, org.junit.jupiter.api.function.Executable read) {
        MessagingException e = assertThrows(MessagingException.class, read);
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }
}
