package dev.panamaverbs.loader.internal;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Probing the real libibverbs logs nothing; announcing its first use logs exactly one INFO line
 * naming the file, however often it is announced. Own JVM (fork per class).
 */
class LibIbverbsLoadedLoggingTest {

    @Test
    void probeIsSilentAndFirstUseIsOneInfoLine() {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        boolean available;
        String afterProbe;
        try {
            available = LibIbverbs.LIBRARY.isAvailable();
            LibIbverbs.LIBRARY.isAvailable();
            afterProbe = captured.toString(StandardCharsets.UTF_8);
            LibIbverbs.LIBRARY.announceLoaded();
            LibIbverbs.LIBRARY.announceLoaded();
        } finally {
            System.setErr(original);
        }
        Assumptions.assumeTrue(available, () -> "libibverbs.so.1 is not loadable here: " + LibIbverbs.LIBRARY.unavailabilityCause());
        assertTrue(afterProbe.lines().noneMatch(line -> line.contains("LibIbverbs")), afterProbe);
        List<String> lines = captured.toString(StandardCharsets.UTF_8).lines()
                .filter(line -> line.contains("LibIbverbs")).toList();
        assertEquals(1, lines.size(), captured.toString(StandardCharsets.UTF_8));
        assertTrue(lines.getFirst().contains(" INFO ") && lines.getFirst().contains("libibverbs loaded from "
                + LibIbverbs.LIBRARY.libraryPath()), lines.getFirst());
        assertTrue(LibIbverbs.LIBRARY.libraryPath().startsWith("/"), LibIbverbs.LIBRARY.libraryPath());
    }
}
