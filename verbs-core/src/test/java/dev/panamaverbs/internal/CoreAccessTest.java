package dev.panamaverbs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The bridge is found by its name and installs itself once; no resource has to exist first. */
class CoreAccessTest {
    @Test
    void getInitialisesTheBridgeOnceAndAnswersItEveryTime() {
        CoreAccess access = CoreAccess.get();
        assertNotNull(access);
        assertSame(access, CoreAccess.get());
        assertEquals("dev.panamaverbs.CoreBridge", access.getClass().getName());
        IllegalStateException again = assertThrows(IllegalStateException.class, () -> CoreAccess.install(access));
        assertTrue(again.getMessage().contains("installed already"), again.getMessage());
    }
}
