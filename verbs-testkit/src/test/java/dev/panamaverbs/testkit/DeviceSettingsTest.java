package dev.panamaverbs.testkit;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DeviceSettingsTest {

    private static DeviceSettings read(Map<String, String> properties, Map<String, String> environment) {
        return DeviceSettings.read(properties::get, environment::get);
    }

    @Test
    void defaultsWhenNothingIsSet() {
        assertEquals(new DeviceSettings(Optional.empty(), "default", 1, OptionalInt.empty()), read(Map.of(), Map.of()));
    }

    @Test
    void blankValuesCountAsUnset() {
        DeviceSettings settings = read(Map.of("panamaverbs.test.device", "  "), Map.of("VERBS_TEST_DEVICE", ""));
        assertEquals(Optional.empty(), settings.device());
    }

    @Test
    void gidIndexIsReadWhenGivenAndEmptyOtherwise() {
        assertEquals(OptionalInt.empty(), read(Map.of(), Map.of()).gidIndex());
        assertEquals(OptionalInt.of(4), read(Map.of("panamaverbs.test.gidIndex", "4"), Map.of()).gidIndex());
    }

    @Test
    void badNumbersNameTheirSource() {
        IllegalArgumentException notNumber = assertThrows(IllegalArgumentException.class,
                () -> read(Map.of(), Map.of("VERBS_TEST_PORT", "one")));
        assertEquals("environment variable VERBS_TEST_PORT must be a number, was 'one'", notNumber.getMessage());
        IllegalArgumentException outOfRange = assertThrows(IllegalArgumentException.class,
                () -> read(Map.of("panamaverbs.test.port", "0"), Map.of()));
        assertEquals("system property panamaverbs.test.port must be in 1..255, was 0", outOfRange.getMessage());
    }
}
