package dev.panamaverbs.loader.internal;

import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.ffm.invoke.verbs_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        assertTrue(LibIbverbs.LIBRARY.isAvailable(), () -> LibIbverbs.LIBRARY.unavailabilityCause().orElse(""));
        assertEquals(real(fake), LibIbverbs.LIBRARY.libraryPath(), "the file loaded, links resolved");
        assertEquals(fake.toString(), LibIbverbs.LIBRARY.requestedLibrary(), "the name given to dlopen");
        assertFalse(LibIbverbs.LIBRARY.has("ibv_reg_dmabuf_mr"));
        assertTrue(LibIbverbs.LIBRARY.has("ibv_reg_mr_iova2"));
    }

    private static String real(Path path) {
        try {
            return path.toRealPath().toString();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void theInvokersAreBoundToWhatWasResolved() {
        assertTrue(LibIbverbs.LIBRARY.isAvailable());
        assertTrue(verbs_h.LIBRARY.isBound());
        assertTrue(verbs_h.LIBRARY.has("ibv_reg_mr_iova2"));
        assertFalse(verbs_h.LIBRARY.has("ibv_reg_dmabuf_mr"));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            UnsupportedOperationException missing = assertThrows(UnsupportedOperationException.class,
                    () -> verbs_h.ibv_reg_dmabuf_mr(state, MemorySegment.NULL, 0, 0, 0, -1, 0));
            assertTrue(missing.getMessage().contains("ibv_reg_dmabuf_mr@IBVERBS_1.12"), missing.getMessage());
        }
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
