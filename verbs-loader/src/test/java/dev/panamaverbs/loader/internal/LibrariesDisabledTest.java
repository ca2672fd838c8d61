package dev.panamaverbs.loader.internal;

import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.ffm.invoke.verbs_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code -Dpanamaverbs.disable=true}: libibverbs and librdmacm unavailable, neither opened, and
 * the cause says so. Own JVM (fork per class).
 */
class LibrariesDisabledTest {

    @BeforeAll
    static void disable() {
        System.setProperty(LibraryProbe.DISABLE_PROPERTY, "true");
    }

    @Test
    void disabledMeansUnavailableWithTheReason() {
        assertFalse(LibIbverbs.LIBRARY.isAvailable());
        String cause = LibIbverbs.LIBRARY.unavailabilityCause().orElseThrow();
        assertTrue(cause.startsWith("disabled by -Dpanamaverbs.disable=true"), cause);
        assertFalse(LibIbverbs.LIBRARY.has("ibv_open_device"));
        assertFalse(verbs_h.LIBRARY.isBound(), "nothing was resolved, so nothing is bound");
    }

    @Test
    void librdmacmIsDisabledTooWithTheReason() {
        assertFalse(LibRdmacm.LIBRARY.isAvailable());
        String cause = LibRdmacm.LIBRARY.unavailabilityCause().orElseThrow();
        assertTrue(cause.contains("panamaverbs.disable=true") && cause.contains("librdmacm.so.1"), cause);
    }

    @Test
    void theGeneratedInvokersRefuseToCallWhenDisabled() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            IllegalStateException thrown = assertThrows(IllegalStateException.class,
                    () -> verbs_h.ibv_get_device_list(state, arena.allocate(4)));
            assertTrue(thrown.getMessage().contains("libibverbs.so.1"), thrown.getMessage());
            assertThrows(IllegalStateException.class, () -> verbs_h.ibv_reg_mr_iova2(state, MemorySegment.NULL,
                    MemorySegment.NULL, 0, 0, 0));
        }
    }

    @Test
    void theAnswerDoesNotChange() {
        System.setProperty(LibraryProbe.DISABLE_PROPERTY, "false");
        try {
            assertFalse(LibIbverbs.LIBRARY.isAvailable(), "the probe runs once per process");
        } finally {
            System.setProperty(LibraryProbe.DISABLE_PROPERTY, "true");
        }
    }
}
