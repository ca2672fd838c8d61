package dev.panamaverbs.examples.rping;

import java.time.Duration;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** rping's options, defaults and checks. */
class RpingOptionsTest {
    @Test
    void serverDefaults() {
        assertEquals(new RpingOptions(true, null, 7174, 0, 64, false, false, false, Duration.ofSeconds(60)),
                RpingOptions.parse("-s"));
    }

    @Test
    void clientWithEverything() {
        assertEquals(new RpingOptions(false, "10.0.2.15", 9000, 10, 100, true, true, true, Duration.ofSeconds(5)),
                RpingOptions.parse("-c", "-a", "10.0.2.15", "-p", "9000", "-C", "10", "-S", "100", "-vVd", "-T", "5"));
        assertEquals(RpingOptions.parse("-c", "-a10.0.2.15", "-C10"), RpingOptions.parse("-c", "-a", "10.0.2.15", "-C", "10"));
    }

    @Test
    void rpingsChecks() {
        IllegalArgumentException small = assertThrows(IllegalArgumentException.class, () -> RpingOptions.parse("-s", "-S", "25"));
        assertEquals("Invalid size 25 (valid range is 26 to 65536)", small.getMessage());
        assertEquals(26, RpingOptions.parse("-s", "-S", "26").size());
        assertEquals(65535, RpingOptions.parse("-s", "-S", "65535").size());
        assertThrows(IllegalArgumentException.class, () -> RpingOptions.parse("-s", "-S", "65536"));
        assertThrows(IllegalArgumentException.class, () -> RpingOptions.parse("-s", "-C", "-1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RpingOptions.parse("-v")).getMessage().contains("-s"));
        assertThrows(IllegalArgumentException.class, () -> RpingOptions.parse("-c"));
        assertThrows(IllegalArgumentException.class, () -> RpingOptions.parse("-s", "-q"));
    }
}
