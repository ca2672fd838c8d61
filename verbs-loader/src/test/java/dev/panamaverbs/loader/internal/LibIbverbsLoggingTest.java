package dev.panamaverbs.loader.internal;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the loader logs: libibverbs turned off is one DEBUG line (the cause is the caller's to
 * report), never INFO or WARN. Own JVM (fork per class), slf4j-simple at DEBUG.
 */
class LibIbverbsLoggingTest {

    @Test
    void unavailabilityIsOneDebugLine() {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "debug");
        System.setProperty(LibraryProbe.DISABLE_PROPERTY, "true");
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            assertTrue(LibIbverbs.LIBRARY.unavailabilityCause().isPresent());
        } finally {
            System.setErr(original);
        }
        List<String> lines = captured.toString(StandardCharsets.UTF_8).lines()
                .filter(line -> line.contains("LibIbverbs")).toList();
        assertEquals(1, lines.size(), captured.toString(StandardCharsets.UTF_8));
        assertTrue(lines.getFirst().startsWith("[main] DEBUG ") || lines.getFirst().contains(" DEBUG "), lines.getFirst());
        assertTrue(lines.getFirst().contains("libibverbs unavailable: ") && lines.getFirst().contains("panamaverbs.disable=true"),
                lines.getFirst());
    }
}
