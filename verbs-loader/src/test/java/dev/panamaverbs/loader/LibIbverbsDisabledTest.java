package dev.panamaverbs.loader;

import dev.panamaverbs.error.VerbsUnavailableException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code -Dpanamaverbs.disable=true}: unavailable, and the cause says so. Own JVM (fork per class). */
class LibIbverbsDisabledTest {

    @BeforeAll
    static void disable() {
        System.setProperty(LibraryProbe.DISABLE_PROPERTY, "true");
    }

    @Test
    void disabledMeansUnavailableWithTheReason() {
        assertFalse(LibIbverbs.isAvailable());
        String cause = LibIbverbs.unavailabilityCause().orElseThrow();
        assertTrue(cause.contains("panamaverbs.disable=true"), cause);
        assertTrue(LibIbverbs.capabilities().isEmpty());

        VerbsUnavailableException thrown = assertThrows(VerbsUnavailableException.class, LibIbverbs::ensureAvailable);
        assertTrue(thrown.getMessage().contains(cause), thrown.getMessage());
    }

    @Test
    void handlesCannotBeHadWhenDisabled() {
        assertThrows(VerbsUnavailableException.class, () -> Natives.downcall("ibv_open_device"));
        assertThrows(VerbsUnavailableException.class, () -> Natives.optionalDowncall("ibv_reg_mr_iova2"));
    }

    @Test
    void theAnswerDoesNotChange() {
        System.setProperty(LibraryProbe.DISABLE_PROPERTY, "false");
        try {
            assertFalse(LibIbverbs.isAvailable(), "the probe runs once per process");
        } finally {
            System.setProperty(LibraryProbe.DISABLE_PROPERTY, "true");
        }
    }
}
