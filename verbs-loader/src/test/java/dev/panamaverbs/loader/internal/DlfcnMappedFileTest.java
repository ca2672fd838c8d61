package dev.panamaverbs.loader.internal;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link Dlfcn#mappedFile}: one line of {@code /proc/self/maps} and an address. */
class DlfcnMappedFileTest {
    private static final String LIBRARY_LINE =
            "7f1c2a400000-7f1c2a41e000 r-xp 00004000 08:01 1234567    /usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.44.0";

    @Test
    void anAddressInsideAFileMappingNamesTheFile() {
        assertEquals(Optional.of("/usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.44.0"),
                Dlfcn.mappedFile(LIBRARY_LINE, 0x7f1c2a400000L));
        assertEquals(Optional.of("/usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.44.0"),
                Dlfcn.mappedFile(LIBRARY_LINE, 0x7f1c2a41dfffL));
    }

    @Test
    void theEndIsExclusiveAndOutsideIsEmpty() {
        assertEquals(Optional.empty(), Dlfcn.mappedFile(LIBRARY_LINE, 0x7f1c2a41e000L));
        assertEquals(Optional.empty(), Dlfcn.mappedFile(LIBRARY_LINE, 0x7f1c2a3fffffL));
    }

    @Test
    void aPathWithSpacesIsKeptWhole() {
        assertEquals(Optional.of("/opt/my libs/libibverbs.so.1"),
                Dlfcn.mappedFile("1000-2000 r-xp 00000000 08:01 42 /opt/my libs/libibverbs.so.1", 0x1800));
    }

    @Test
    void anonymousAndPseudoMappingsNameNoFile() {
        assertEquals(Optional.empty(), Dlfcn.mappedFile("1000-2000 rw-p 00000000 00:00 0", 0x1800));
        assertEquals(Optional.empty(), Dlfcn.mappedFile("1000-2000 rw-p 00000000 00:00 0    [heap]", 0x1800));
    }

    @Test
    void kernelHalfAddressesCompareUnsigned() {
        assertEquals(Optional.of("/x"), Dlfcn.mappedFile("ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0 /x",
                0xffffffffff600800L));
    }
}
