package dev.panamaverbs.loader;

import dev.panamaverbs.library.Capability;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code -Dpanamaverbs.library=...} opens that file instead. Own JVM (fork per class). */
class LibIbverbsOverrideTest {
    private static Path fake;

    @BeforeAll
    static void pointAtAFakeLibrary() {
        fake = FakeLibrary.named("fakeverbs-override").omit("ibv_reg_dmabuf_mr").build();
        System.setProperty(LibraryProbe.LIBRARY_PROPERTY, fake.toString());
    }

    @Test
    void theOverriddenLibraryIsTheOneLoaded() {
        assertTrue(LibIbverbs.isAvailable(), () -> LibIbverbs.unavailabilityCause().orElse(""));
        assertEquals(real(fake), LibIbverbs.libraryPath(), "the file loaded, links resolved");
        assertEquals(fake.toString(), LibIbverbs.requestedLibrary(), "the name given to dlopen");
        assertEquals(EnumSet.complementOf(EnumSet.of(Capability.REG_DMABUF_MR)), LibIbverbs.capabilities());
    }

    private static String real(Path path) {
        try {
            return path.toRealPath().toString();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void optionalHandlesFollowTheCapabilities() {
        assertTrue(Natives.optionalDowncall("ibv_reg_dmabuf_mr").isEmpty());
        assertTrue(Natives.optionalDowncall("ibv_reg_mr_iova2").isPresent());
    }

    @Test
    void natives_refuseNamesOutsideTheirList() {
        IllegalArgumentException optional = assertThrows(IllegalArgumentException.class,
                () -> Natives.downcall("ibv_reg_mr_iova2"));
        assertTrue(optional.getMessage().contains("optionalDowncall"), optional.getMessage());
        IllegalArgumentException inline = assertThrows(IllegalArgumentException.class,
                () -> Natives.downcall("ibv_post_send"));
        assertTrue(inline.getMessage().contains("static inline"), inline.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Natives.optionalDowncall("ibv_open_device"));
    }

    @Test
    void theConfiguredLibraryPrefersThePropertyAndIgnoresBlanks() {
        assertEquals(fake.toString(), LibraryProbe.configuredLibrary());
        System.setProperty(LibraryProbe.LIBRARY_PROPERTY, "  ");
        try {
            String expected = System.getenv(LibraryProbe.LIBRARY_ENVIRONMENT) == null
                    ? LibraryProbe.DEFAULT_LIBRARY : System.getenv(LibraryProbe.LIBRARY_ENVIRONMENT).strip();
            assertEquals(expected, LibraryProbe.configuredLibrary());
        } finally {
            System.setProperty(LibraryProbe.LIBRARY_PROPERTY, fake.toString());
        }
    }
}
