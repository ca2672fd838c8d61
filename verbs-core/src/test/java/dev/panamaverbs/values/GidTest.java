package dev.panamaverbs.values;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class GidTest {
    private static final byte[] MAPPED = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 0, 2, 15};

    static Stream<Arguments> printedGids() {
        return Stream.of(
                Arguments.of(Gid.of(MAPPED), "10.0.2.15", "::ffff:10.0.2.15",
                        "0000:0000:0000:0000:0000:ffff:0a00:020f", 0L, 0x0000ffff0a00020fL),
                // link-local: not IPv4-mapped
                Arguments.of(Gid.parse("fe80::5054:ff:fe12:3456"), null, "fe80::5054:ff:fe12:3456",
                        "fe80:0000:0000:0000:5054:00ff:fe12:3456", 0xfe80000000000000L, 0x505400fffe123456L));
    }

    /** {@code ipv4} is the mapped address, or null when the GID is not IPv4-mapped. */
    @ParameterizedTest(name = "{2}")
    @MethodSource("printedGids")
    void ipv4MappingIsDetectedAndEveryFormPrinted(Gid gid, String ipv4, String addressString, String full,
                                                  long subnetPrefix, long interfaceId) {
        assertEquals(ipv4 != null, gid.isIpv4Mapped());
        assertEquals(Optional.ofNullable(ipv4), gid.ipv4Address().map(InetAddress::getHostAddress));
        assertEquals(addressString, gid.toAddressString());
        assertEquals(full, gid.toString());
        assertEquals(subnetPrefix, gid.subnetPrefix());
        assertEquals(interfaceId, gid.interfaceId());
    }

    @Test
    void almostMappedIsNotMapped() {
        byte[] bytes = MAPPED.clone();
        bytes[9] = 1;
        assertFalse(Gid.of(bytes).isIpv4Mapped());
        bytes = MAPPED.clone();
        bytes[11] = 0;
        assertFalse(Gid.of(bytes).isIpv4Mapped());
    }

    @ParameterizedTest
    @ValueSource(strings = {"::ffff:10.0.2.15", "10.0.2.15", "0000:0000:0000:0000:0000:ffff:0a00:020f", " ::FFFF:A00:20F "})
    void parsesEveryUsualSpellingOfTheSameGid(String text) {
        assertEquals(Gid.of(MAPPED), Gid.parse(text));
    }

    @Test
    void printedFormsParseBack() {
        Gid gid = Gid.parse("fe80::1");
        assertEquals(gid, Gid.parse(gid.toString()));
        assertEquals(gid, Gid.parse(gid.toAddressString()));
        assertEquals("fe80::1", gid.toAddressString());
        assertEquals("::", Gid.of(new byte[16]).toAddressString());
        assertEquals("1:0:0:1::1", Gid.parse("1:0:0:1:0:0:0:1").toAddressString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  ", "rxe0", "example.com", "abc.def", "1.2.3", "fe80::1::2", "1.2.3.256", "12345::"})
    void rejectsWhatIsNotAGidWithoutLookingItUp(String text) {
        assertThrows(IllegalArgumentException.class, () -> Gid.parse(text));
    }

    @Test
    void rejectsWrongLengthsAndNull() {
        assertThrows(IllegalArgumentException.class, () -> Gid.of(new byte[15]));
        assertThrows(IllegalArgumentException.class, () -> Gid.of(null));
        assertThrows(IllegalArgumentException.class, () -> Gid.parse(null));
    }

    @Test
    void isImmutableAndComparedByValue() {
        byte[] bytes = MAPPED.clone();
        Gid gid = Gid.of(bytes);
        bytes[15] = 99;
        assertEquals(15, gid.toByteArray()[15]);
        gid.toByteArray()[15] = 98;
        assertEquals(15, gid.toByteArray()[15]);
        assertEquals(Gid.of(MAPPED), gid);
        assertEquals(Gid.of(MAPPED).hashCode(), gid.hashCode());
        assertNotEquals(Gid.parse("fe80::1"), gid);
    }

    @Test
    void zeroGidIsZero() {
        assertTrue(Gid.of(new byte[16]).isZero());
        assertFalse(Gid.of(MAPPED).isZero());
    }

    @Test
    void fromInetAddressMapsIpv4() throws Exception {
        assertEquals(Gid.of(MAPPED), Gid.fromInetAddress(InetAddress.getByAddress(new byte[] {10, 0, 2, 15})));
        assertArrayEquals(Gid.parse("fe80::1").toInet6Address().getAddress(), Gid.parse("fe80::1").toByteArray());
    }

    @Test
    void readsAndWritesNativeMemoryInNetworkOrder() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(16);
            Gid.of(MAPPED).write(segment);
            assertEquals((byte) 0xff, segment.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 10));
            assertEquals(15, segment.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 15));
            assertEquals(Gid.of(MAPPED), Gid.read(segment));
        }
    }
}
