package dev.panamaverbs.examples.pingpong;

import dev.panamaverbs.values.Gid;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The address message of ibv_rc_pingpong. The expected strings were produced by C: rc_pingpong's
 * format ({@code "%04x:%06x:%06x:%s"}, the GID words through {@code htobe32} and {@code "%08x"})
 * compiled with gcc on x86-64, and {@code sizeof msg} printed alongside (52).
 */
class PingPongDestinationTest {
    private static final Gid ROCE_V2_IPV4 = Gid.of(HexFormat.of().parseHex("00000000000000000000ffff0a00020f"));
    private static final Gid LINK_LOCAL = Gid.of(HexFormat.of().parseHex("fe80000000000000505400fffe123456"));

    @Test
    void formatsAsCDoes() {
        assertEquals("0000:000011:5a3c7e:00000000000000000000ffff0a00020f",
                new PingPongDestination(0, 0x11, 0x5a3c7e, ROCE_V2_IPV4).toText());
        assertEquals("001a:abcdef:000001:fe80000000000000505400fffe123456",
                new PingPongDestination(0x1a, 0xabcdef, 1, LINK_LOCAL).toText());
        assertEquals("0003:000012:0fffff:00000000000000000000000000000000",
                new PingPongDestination(3, 0x12, 0xfffff, PingPongDestination.zeroGid()).toText());
    }

    @Test
    void theMessageIs52BytesEndingInNul() {
        byte[] message = new PingPongDestination(0, 0x11, 0x5a3c7e, ROCE_V2_IPV4).toMessage();
        assertEquals(PingPongDestination.MESSAGE_SIZE, message.length);
        assertEquals(0, message[51]);
        assertArrayEquals("0000:000011:5a3c7e:00000000000000000000ffff0a00020f".getBytes(StandardCharsets.US_ASCII),
                Arrays.copyOf(message, 51));
    }

    @Test
    void parsesCMessagesAndRoundTrips() {
        byte[] fromC = Arrays.copyOf("001a:abcdef:000001:fe80000000000000505400fffe123456".getBytes(StandardCharsets.US_ASCII), 52);
        PingPongDestination parsed = PingPongDestination.parse(fromC);
        assertEquals(new PingPongDestination(0x1a, 0xabcdef, 1, LINK_LOCAL), parsed);
        assertEquals(parsed, PingPongDestination.parse(parsed.toMessage()));
        PingPongDestination max = new PingPongDestination(0xffff, 0xffffff, 0xffffff, ROCE_V2_IPV4);
        assertEquals(max, PingPongDestination.parse(max.toMessage()));
    }

    @Test
    void aGidIsUsedWhenItsInterfaceIdIsNotZero() {
        assertTrue(new PingPongDestination(0, 1, 1, ROCE_V2_IPV4).hasGid());
        assertFalse(new PingPongDestination(1, 1, 1, PingPongDestination.zeroGid()).hasGid());
    }

    @Test
    void describesAsRcPingpongPrints() {
        assertEquals("  local address:  LID 0x0000, QPN 0x000011, PSN 0x5a3c7e, GID ::ffff:10.0.2.15",
                new PingPongDestination(0, 0x11, 0x5a3c7e, ROCE_V2_IPV4).describe("local"));
        assertEquals("  remote address: LID 0x001a, QPN 0xabcdef, PSN 0x000001, GID fe80::5054:ff:fe12:3456",
                new PingPongDestination(0x1a, 0xabcdef, 1, LINK_LOCAL).describe("remote"));
        assertEquals("  local address:  LID 0x0003, QPN 0x000012, PSN 0x0fffff, GID ::",
                new PingPongDestination(3, 0x12, 0xfffff, PingPongDestination.zeroGid()).describe("local"));
    }

    @Test
    void rejectsWhatIsNotAnAddress() {
        assertThrows(IllegalArgumentException.class, () -> PingPongDestination.parse("0000:000011:5a3c7e"));
        assertThrows(IllegalArgumentException.class, () -> PingPongDestination.parse("0000:000011:5a3c7e:ffff"));
        assertThrows(IllegalArgumentException.class,
                () -> PingPongDestination.parse("zzzz:000011:5a3c7e:00000000000000000000ffff0a00020f"));
        assertThrows(IllegalArgumentException.class, () -> new PingPongDestination(0, 0x1000000, 0, ROCE_V2_IPV4));
    }
}
