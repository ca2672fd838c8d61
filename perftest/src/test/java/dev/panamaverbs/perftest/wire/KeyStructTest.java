package dev.panamaverbs.perftest.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.panamaverbs.values.Gid;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The key struct of {@code -R} against bytes written out by hand from {@code struct pingpong_dest}
 * on x86-64 and {@code rdma_write_keys} (each integer {@code htobe32}/{@code htobe64}; the 4
 * bytes after rkey are the padding before the 8-aligned vaddr), as Debian's ib_write_lat 4.5
 * builds it: 56 bytes posted as one SEND.
 */
class KeyStructTest {
    private static final Gid GID = Gid.parse("::ffff:198.18.0.2");

    @Test
    void isTheCStructBigEndian() throws Exception {
        KeyMessage message = new KeyMessage(0, 1, 0x000123, 0xc0ffee, 0xfffe0001, 0x7f00_1234_5678L, GID, 0);
        byte[] expected = HexFormat.of().parseHex(
                "00000000" + "00000001" + "00000123" + "00c0ffee" + "fffe0001" + "00000000"
                + "00007f0012345678"
                + "00000000000000000000ffffc6120002"
                + "00000000" + "00000003");
        assertEquals(KeyStruct.SIZE, expected.length);
        assertArrayEquals(expected, KeyStruct.encode(message, 3));
        assertEquals(message, KeyStruct.decode(expected, true));
        assertEquals(3, KeyStruct.gidIndex(expected));
    }

    @Test
    void withoutGidSendsZerosAndReadsNone() throws Exception {
        KeyMessage message = new KeyMessage(7, 1, 0x11, 0xabcdef, 0x1234, 0x55d0c0a0b000L, null, 0);
        byte[] bytes = KeyStruct.encode(message, -1);
        for (int i = 32; i < 48; i++) {
            assertEquals(0, bytes[i], "GID byte " + (i - 32));
        }
        assertEquals(-1, KeyStruct.gidIndex(bytes));
        KeyMessage back = KeyStruct.decode(bytes, false);
        assertNull(back.gid());
        assertEquals(message, back);
    }

    @Test
    void theReaderIgnoresThePaddingAsPerftestDoes() throws Exception {
        byte[] bytes = KeyStruct.encode(new KeyMessage(0, 1, 2, 3, 4, 5, GID, 0), 1);
        bytes[20] = (byte) 0xAA;    // C sends its stack's bytes there
        assertEquals(new KeyMessage(0, 1, 2, 3, 4, 5, GID, 0), KeyStruct.decode(bytes, true));
    }

    @Test
    void anyOtherSizeIsRefused() {
        assertThrows(ProtocolException.class, () -> KeyStruct.decode(new byte[KeyMessage.SIZE_WITH_GID], true));
        assertThrows(ProtocolException.class, () -> KeyStruct.decode(new byte[55], true));
    }
}
