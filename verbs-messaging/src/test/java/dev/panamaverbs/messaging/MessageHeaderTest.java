package dev.panamaverbs.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
    void aCreditMessageHasNoPayload() {
        MessageHeader.write(buffer, 0, MessageType.CREDIT, 7, 0, 0);
        assertEquals(MessageType.CREDIT, MessageHeader.check(buffer, 0, MessageHeader.SIZE));
        assertEquals(2, MessageHeader.typeCode(buffer, 0));
    }

    @Test
    void typeCodesAreFixed() {
        assertEquals(1, MessageType.DATA.code());
        assertEquals(2, MessageType.CREDIT.code());
        assertEquals(3, MessageType.REQUEST.code());
        assertEquals(4, MessageType.RESPONSE.code());
        assertEquals(5, MessageType.RENDEZVOUS_OFFER.code());
        assertEquals(6, MessageType.RENDEZVOUS_DONE.code());
        for (MessageType type : MessageType.values()) {
            assertEquals(type, MessageType.ofCode(type.code()));
        }
        assertNull(MessageType.ofCode(0));
        assertNull(MessageType.ofCode(7));
        assertNull(MessageType.ofCode(255));
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
}
