package dev.panamaverbs.values;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GuidsTest {
    @Test
    void formatsLikeIbvDevinfo() {
        assertEquals("0002:c903:0012:abcd", Guids.format(0x0002c9030012abcdL));
        assertEquals("0000:0000:0000:0000", Guids.format(0));
        assertEquals("ffff:ffff:ffff:ffff", Guids.format(-1L));
    }

    @Test
    void parsesBothSpellings() {
        assertEquals(0x0002c9030012abcdL, Guids.parse("0002:c903:0012:abcd"));
        assertEquals(0x0002c9030012abcdL, Guids.parse("0002C9030012ABCD"));
        assertEquals(-1L, Guids.parse(Guids.format(-1L)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "0002:c903:0012", "0002:c903:0012:abcd:0000", "0002c903:0012abcd", "000g:c903:0012:abcd"})
    void rejectsMalformedGuids(String text) {
        assertThrows(IllegalArgumentException.class, () -> Guids.parse(text));
    }

    @Test
    void networkOrderIsConvertedToHostOrder() {
        // The bytes 00 02 c9 03 00 12 ab cd in memory, read as a native-order long.
        long raw = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? 0xcdab120003c90200L : 0x0002c9030012abcdL;
        assertEquals(0x0002c9030012abcdL, Guids.fromNetworkOrder(raw));
    }
}
