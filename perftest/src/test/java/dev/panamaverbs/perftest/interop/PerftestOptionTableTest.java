package dev.panamaverbs.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.perftest.PerftestOptionParser;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Every option the twin implements is covered by an interop row or named with the interop test that runs it. */
class PerftestOptionTableTest {
    @Test
    void everyImplementedOptionIsCovered() {
        Map<String, Character> implemented = PerftestOptionParser.implementedOptions();
        Set<String> covered = new TreeSet<>(PerftestOptionTable.EVERY_ROW);
        covered.addAll(PerftestOptionTable.ELSEWHERE.keySet());
        for (PerftestOptionTable.Row row : PerftestOptionTable.ROWS) {
            for (String option : row.options()) {
                if (option.startsWith("--")) {
                    covered.add(option.substring(2).split("=")[0]);
                } else if (option.startsWith("-") && option.length() == 2) {
                    implemented.forEach((name, letter) -> {
                        if (letter == option.charAt(1)) {
                            covered.add(name);
                        }
                    });
                }
            }
        }
        Set<String> missing = new TreeSet<>(implemented.keySet());
        missing.removeAll(covered);
        assertEquals(Set.of(), missing, "implemented options no interop test runs");
        Set<String> unknown = new TreeSet<>(covered);
        unknown.removeAll(implemented.keySet());
        assertEquals(Set.of(), unknown, "covered options the twin does not implement");
    }

    @Test
    void refusedOptionsAreNotImplemented() {
        Set<String> refused = PerftestOptionParser.refusedOptions();
        assertTrue(refused.contains("tos") && refused.contains("dualport"), refused.toString());
        for (String name : PerftestOptionParser.implementedOptions().keySet()) {
            assertTrue(!refused.contains(name), name);
        }
    }
}
