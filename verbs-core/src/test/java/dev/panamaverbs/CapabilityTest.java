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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The capabilities group optional functions the generator found (none twice, no required one):
 * no hand-kept list can drift from the header and the library's symbol versions.
 */
class CapabilityTest {

    @Test
    void everyCapabilityFunctionIsOptionalAndInOneCapabilityOnly() {
        Map<String, Capability> owner = new HashMap<>();
        for (Capability capability : Capability.values()) {
            for (String symbol : capability.symbols()) {
                assertNull(owner.put(symbol, capability), symbol + " is in two capabilities");
                assertEquals(capability, Capability.providing(symbol), symbol);
            }
        }
        Set<String> optional = VerbsFunctions.EXPORTED.stream().filter(f -> !f.required())
                .map(ExportedFunction::name).collect(Collectors.toSet());
        assertTrue(optional.containsAll(owner.keySet()), "capabilities vs the generated optional functions");
        // The optional functions in no capability are "not offered" in docs/verb-coverage.md (VerbCoverageTest).
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
