package dev.panamaverbs;

import dev.panamaverbs.ffm.ExportedFunction;
import dev.panamaverbs.ffm.VerbsFunctions;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The capabilities group exactly the optional functions the generator found: no hand-kept list
 * can drift from the header and the library's symbol versions.
 */
class CapabilityTest {

    @Test
    void everyOptionalFunctionBelongsToExactlyOneCapability() {
        Map<String, Capability> owner = new HashMap<>();
        for (Capability capability : Capability.values()) {
            for (String symbol : capability.symbols()) {
                assertNull(owner.put(symbol, capability), symbol + " is in two capabilities");
            }
        }
        Set<String> optional = VerbsFunctions.EXPORTED.stream().filter(f -> !f.required())
                .map(ExportedFunction::name).collect(Collectors.toSet());
        assertEquals(optional, owner.keySet(), "capabilities vs the generated optional functions");
        for (String symbol : optional) {
            assertNotNull(Capability.providing(symbol), symbol);
        }
    }

    @Test
    void noRequiredFunctionIsACapability() {
        for (ExportedFunction function : VerbsFunctions.EXPORTED) {
            if (function.required()) {
                assertNull(Capability.providing(function.name()), function.name());
            }
        }
        assertFalse(Capability.values().length == 0);
    }
}
