package dev.panamaverbs.perftest.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.values.Gid;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The key message against byte strings written out from perftest's format strings
 * ({@code KEY_PRINT_FMT} "%04x:%04x:%06x:%06x:%08x:%016llx:%08x" and {@code KEY_PRINT_FMT_GID}
 * "%04x:%04x:%06x:%06x:%08x:%016llx:" + 16 x "%02x:" (the last without its colon) + ":%08x:"),
 * each sent whole with its NUL ({@code sizeof msg}: 59 and 108 bytes).
 */
class KeyMessageTest {
    private static final Gid IPV4_GID = Gid.parse("::ffff:198.18.0.1");

    private static byte[] c(String text) {
        return (text + "\0").getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void withoutGidIs59BytesOfPerftestText() throws Exception {
        KeyMessage message = new KeyMessage(1, 1, 0x11, 0xabcdef, 0x1234, 0x55d0c0a0b000L, null, 0);
        byte[] expected = c("0001:0001:000011:abcdef:00001234:000055d0c0a0b000:00000000");
        assertEquals(59, expected.length);
        assertArrayEquals(expected, message.encode());
        assertEquals(message, KeyMessage.decode(expected));
    }

    @Test
    void withGidIs108BytesOfPerftestText() throws Exception {
        KeyMessage message = new KeyMessage(0, 1, 0x000123, 0x00c0de, 0xfffe0001, 0x7f00_1234_5678L, IPV4_GID, 0);
        byte[] expected = c("0000:0001:000123:00c0de:fffe0001:00007f0012345678:"
                + "00:00:00:00:00:00:00:00:00:00:ff:ff:c6:12:00:01:00000000:");
        assertEquals(108, expected.length);
        assertArrayEquals(expected, message.encode());
        KeyMessage decoded = KeyMessage.decode(expected);
        assertEquals(message, decoded);
        assertEquals(IPV4_GID, decoded.gid());
    }

    @Test
    void widthsWrapAsCFormatsThem() throws Exception {
        // QPN and PSN are 24-bit fields; the rkey prints as unsigned.
        KeyMessage message = new KeyMessage(0xffff, 16, 0xffffff, 0xffffff, -1, -1L, null, 0x12345678);
        assertEquals("ffff:0010:ffffff:ffffff:ffffffff:ffffffffffffffff:12345678",
                new String(message.encode(), 0, 58, StandardCharsets.US_ASCII));
        assertEquals(message, KeyMessage.decode(message.encode()));
    }

    @Test
    void garbageIsNamed() {
        byte[] junk = new byte[59];
        Arrays.fill(junk, (byte) 'x');
        ProtocolException e = assertThrows(ProtocolException.class, () -> KeyMessage.decode(junk));
        assertTrue(e.getMessage().contains("not a perftest key message"), e.getMessage());
        byte[] badField = c("0001:0001:0000zz:abcdef:00001234:000055d0c0a0b000:00000000");
        assertTrue(assertThrows(ProtocolException.class, () -> KeyMessage.decode(badField)).getMessage().contains("QPN"));
        assertThrows(ProtocolException.class, () -> KeyMessage.decode(new byte[60]));
    }

    @Test
    void aGidlessPeerReadAsGidIsRefused() {
        // One side with a GID (108 bytes) and one without (59) cannot agree: the sizes differ.
        byte[] gidless = c("0001:0001:000011:abcdef:00001234:000055d0c0a0b000:00000000");
        byte[] padded = Arrays.copyOf(gidless, 108);
        assertThrows(ProtocolException.class, () -> KeyMessage.decode(padded));
    }

    @Test
    void describesAsPerftestPrints() throws Exception {
        KeyMessage message = new KeyMessage(0, 1, 0x11, 0x2b1c3d, 0x1a2b, 0x5599aa001000L, IPV4_GID, 0);
        // BASIC_ADDR_FMT " %s address: LID %#04x QPN %#06x PSN %#06x" + RDMA_FMT " RKey %#08x VAddr %#016llx"
        // + PERF_GID_FMT " %s: %02d:..." (decimal bytes)
        assertEquals(" local address: LID 0000 QPN 0x0011 PSN 0x2b1c3d RKey 0x001a2b VAddr 0x005599aa001000\n"
                + " GID: 00:00:00:00:00:00:00:00:00:00:255:255:198:18:00:01", message.describe("local", true, false));
        assertNull(new KeyMessage(0, 1, 1, 1, 1, 1, null, 0).gid());
    }
}
