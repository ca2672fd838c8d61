package dev.panamaverbs.loader.internal;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Loading the real libibverbs logs exactly one INFO line naming the file. Own JVM (fork per class). */
class LibIbverbsLoadedLoggingTest {

    @Test
    void loadingIsOneInfoLine() {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        boolean available;
        try {
            available = LibIbverbs.LIBRARY.isAvailable();
            LibIbverbs.LIBRARY.isAvailable();
        } finally {
            System.setErr(original);
        }
        Assumptions.assumeTrue(available, () -> "libibverbs.so.1 is not loadable here: " + LibIbverbs.LIBRARY.unavailabilityCause());
        List<String> lines = captured.toString(StandardCharsets.UTF_8).lines()
                .filter(line -> line.contains("LibIbverbs")).toList();
        assertEquals(1, lines.size(), captured.toString(StandardCharsets.UTF_8));
        assertTrue(lines.getFirst().contains(" INFO ") && lines.getFirst().contains("libibverbs loaded from "
                + LibIbverbs.LIBRARY.libraryPath()), lines.getFirst());
    }
}
