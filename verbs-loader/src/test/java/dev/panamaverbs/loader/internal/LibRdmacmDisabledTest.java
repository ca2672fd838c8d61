package dev.panamaverbs.loader.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code -Dpanamaverbs.disable=true} turns librdmacm off too, without opening it. Own JVM. */
class LibRdmacmDisabledTest {

    @BeforeAll
    static void disable() {
        System.setProperty(LibraryProbe.DISABLE_PROPERTY, "true");
    }

    @Test
    void disabledMeansUnavailableWithTheReason() {
        assertFalse(LibRdmacm.LIBRARY.isAvailable());
        String cause = LibRdmacm.LIBRARY.unavailabilityCause().orElseThrow();
        assertTrue(cause.contains("panamaverbs.disable=true") && cause.contains("librdmacm.so.1"), cause);
    }
}
