package dev.panamaverbs.examples.rping;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * struct rping_rdma_info on the wire. The expected bytes were produced by C: the struct filled
 * with htobe64/htobe32 as rping's {@code rping_format_send} does, compiled with gcc on x86-64
 * and dumped ({@code sizeof} 16).
 */
class RpingInfoTest {
    private static final String FROM_C = "00007f12345678901234abcd00000040";

    @Test
    void encodesInNetworkOrderAsC() {
        assertEquals(FROM_C, HexFormat.of().formatHex(new RpingInfo(0x00007f1234567890L, 0x1234abcd, 64).toBytes()));
    }

    @Test
    void decodesWhatCSends() {
        RpingInfo info = RpingInfo.decode(java.lang.foreign.MemorySegment.ofArray(HexFormat.of().parseHex(FROM_C)));
        assertEquals(new RpingInfo(0x00007f1234567890L, 0x1234abcd, 64), info);
    }

    @Test
    void roundTripsUnsignedValues() {
        RpingInfo info = new RpingInfo(0xffff_8000_0000_1000L, 0xfedcba98, 0xffff_fff0);
        assertEquals(info, RpingInfo.decode(java.lang.foreign.MemorySegment.ofArray(info.toBytes())));
        assertEquals(0xffff_fff0L, info.unsignedSize());
        assertEquals(16, RpingInfo.GO_AHEAD.toBytes().length);
        assertEquals("00000000000000000000000000000000", HexFormat.of().formatHex(RpingInfo.GO_AHEAD.toBytes()));
    }
}
