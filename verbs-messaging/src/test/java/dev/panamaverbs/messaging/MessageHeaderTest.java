package dev.panamaverbs.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

class MessageHeaderTest {
    private final MemorySegment buffer = Arena.ofAuto().allocate(64);

    @Test
    void aHeaderReadsBackWhatWasWrittenAtItsDocumentedOffsets() {
        MessageHeader.write(buffer, 8, MessageType.DATA, 0x01020304, 40, 0x1122334455667788L);
        assertEquals(MessageType.DATA, MessageHeader.check(buffer, 8, MessageHeader.SIZE + 40));
        assertEquals(1, MessageHeader.version(buffer, 8));
        assertEquals(0x01020304, MessageHeader.credits(buffer, 8));
        assertEquals(40, MessageHeader.length(buffer, 8));
        assertEquals(0x1122334455667788L, MessageHeader.correlation(buffer, 8));
        // byte by byte, little-endian, as docs/messaging.md shows
        byte[] bytes = buffer.asSlice(8, MessageHeader.SIZE).toArray(ValueLayout.JAVA_BYTE);
        byte[] expected = {1, 1, 0, 0, 4, 3, 2, 1, 40, 0, 0, 0, 0, 0, 0, 0,
                (byte) 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11};
        assertEquals(java.util.Arrays.toString(expected), java.util.Arrays.toString(bytes));
    }

    @Test
    void aDoneCarriesItsStatusInBytes12To15AndOtherTypesZero() {
        MessageHeader.write(buffer, 0, MessageType.RENDEZVOUS_DONE, 3, 0, 42, RendezvousStatus.TOO_LARGE.code());
        assertEquals(MessageType.RENDEZVOUS_DONE, MessageHeader.check(buffer, 0, MessageHeader.SIZE));
        assertEquals(RendezvousStatus.TOO_LARGE, RendezvousStatus.ofCode(MessageHeader.status(buffer, 0)));
        assertEquals(42, MessageHeader.correlation(buffer, 0));
        byte[] bytes = buffer.asSlice(0, MessageHeader.SIZE).toArray(ValueLayout.JAVA_BYTE);
        byte[] expected = {1, 6, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 42, 0, 0, 0, 0, 0, 0, 0};
        assertEquals(java.util.Arrays.toString(expected), java.util.Arrays.toString(bytes));
        MessageHeader.write(buffer, 0, MessageType.DATA, 0, 0, 0);
        assertEquals(0, MessageHeader.status(buffer, 0));
    }

    @Test
    void rendezvousStatusCodesAreFixed() {
        assertFixedCodes(RendezvousStatus.values(), RendezvousStatus::code, RendezvousStatus::ofCode,
                Map.of(RendezvousStatus.OK, 0, RendezvousStatus.TOO_LARGE, 1, RendezvousStatus.NO_BUFFER, 2,
                        RendezvousStatus.READ_FAILED, 3),
                4, -1);
    }

    @Test
    void aCreditMessageHasNoPayload() {
        MessageHeader.write(buffer, 0, MessageType.CREDIT, 7, 0, 0);
        assertEquals(MessageType.CREDIT, MessageHeader.check(buffer, 0, MessageHeader.SIZE));
        assertEquals(2, MessageHeader.typeCode(buffer, 0));
    }

    @Test
    void typeCodesAreFixed() {
        assertFixedCodes(MessageType.values(), MessageType::code, MessageType::ofCode,
                Map.of(MessageType.DATA, 1, MessageType.CREDIT, 2, MessageType.REQUEST, 3, MessageType.RESPONSE, 4,
                        MessageType.RENDEZVOUS_OFFER, 5, MessageType.RENDEZVOUS_DONE, 6),
                0, 7, 255);
        assertTrue(MessageType.DATA.consumesCredit());
        assertTrue(!MessageType.CREDIT.consumesCredit());
    }

    @Test
    void aBadHeaderIsAProtocolErrorNamingWhatIsWrong() {
        MessageHeader.write(buffer, 0, MessageType.DATA, 0, 10, 0);
        assertMessage("shorter than the 24-byte header", () -> MessageHeader.check(buffer, 0, 23));
        assertMessage("header says 10 payload bytes, 11 arrived", () -> MessageHeader.check(buffer, 0, 35));
        buffer.set(ValueLayout.JAVA_BYTE, 0, (byte) 2);
        assertMessage("header version 2", () -> MessageHeader.check(buffer, 0, 34));
        MessageHeader.write(buffer, 0, MessageType.DATA, 0, 10, 0);
        buffer.set(ValueLayout.JAVA_BYTE, 1, (byte) 9);
        assertMessage("unknown message type 9", () -> MessageHeader.check(buffer, 0, 34));
        MessageHeader.write(buffer, 0, MessageType.DATA, 0, 10, 0);
        buffer.set(ValueLayout.JAVA_BYTE, 2, (byte) 1);
        assertMessage("flags 0x1", () -> MessageHeader.check(buffer, 0, 34));
        MessageHeader.write(buffer, 0, MessageType.DATA, 0, 10, 0);
        buffer.set(ValueLayout.JAVA_INT_UNALIGNED, 4, -1);
        assertMessage("negative credits", () -> MessageHeader.check(buffer, 0, 34));
        assertThrows(IllegalArgumentException.class, () -> MessageHeader.write(buffer, 0, MessageType.DATA, -1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> MessageHeader.write(buffer, 0, MessageType.DATA, 0, -1, 0));
    }

    private static void assertMessage(String part, org.junit.jupiter.api.function.Executable call) {
        MessagingException e = assertThrows(MessagingException.class, call);
        assertTrue(e.getMessage().contains(part), e.getMessage());
        assertTrue(e.getMessage().contains("protocol error"), e.getMessage());
    }

    /**
     * Each constant of {@code fixed} has its wire code, every constant reads back from its code,
     * and the {@code unknown} codes read back as null.
     */
    private static <E> void assertFixedCodes(E[] values, ToIntFunction<E> code, IntFunction<E> ofCode,
                                             Map<E, Integer> fixed, int... unknown) {
        fixed.forEach((constant, expected) -> assertEquals(expected.intValue(), code.applyAsInt(constant), constant::toString));
        for (E value : values) {
            assertEquals(value, ofCode.apply(code.applyAsInt(value)));
        }
        for (int unknownCode : unknown) {
            assertNull(ofCode.apply(unknownCode), () -> "code " + unknownCode);
        }
    }
}
