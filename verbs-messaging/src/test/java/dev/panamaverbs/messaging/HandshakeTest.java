package dev.panamaverbs.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class HandshakeTest {
    @Test
    void aHandshakeSurvivesTheCmsPadding() {
        byte[] sent = new Handshake(64, 65536).encode();
        assertEquals(16, sent.length);
        assertEquals("PVMC", new String(sent, 0, 4, java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(new Handshake(64, 65536), Handshake.decode(Arrays.copyOf(sent, 56), "peer"));
    }

    @Test
    void aStrangerIsRefusedWithTheReason() {
        assertRefused("has 3 bytes", new byte[3]);
        assertRefused("has 0 bytes, a channel's handshake (\"PVMC\"...) 16: not a message channel", new byte[0]);
        assertRefused("does not start with \"PVMC\"", new byte[56]);
        byte[] otherVersion = new Handshake(1, 1).encode();
        otherVersion[4] = 2;
        assertRefused("speaks channel version 2", otherVersion);
        assertRefused("advertised 0 credits", new Handshake(0, 10).encode());
    }

    private static void assertRefused(String part, byte[] data) {
        MessagingException e = assertThrows(MessagingException.class, () -> Handshake.decode(data, "10.0.0.1:7"));
        assertTrue(e.getMessage().contains(part) && e.getMessage().contains("10.0.0.1:7"), e.getMessage());
    }
}
