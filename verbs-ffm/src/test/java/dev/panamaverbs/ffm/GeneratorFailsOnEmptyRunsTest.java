package dev.panamaverbs.ffm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A run that finds nothing to generate fails (exit 3) with a message saying so, and writes nothing. */
class GeneratorFailsOnEmptyRunsTest {

    @Test
    void aHeaderDeclaringNothingFailsTheRun(@TempDir Path work) throws Exception {
        assumeGenerator();
        Path header = work.resolve("nothing.h");
        // Only includes: what it pulls in belongs to other headers, so the run finds no item of its own.
        Files.writeString(header, "/* declares nothing */\n#include <stddef.h>\n");
        Path out = work.resolve("out");

        GeneratorProcess.Result r = GeneratorProcess.run("--header", header.toString(),
                "--library", GeneratorProcess.LIBIBVERBS.toString(), "--package", "dev.example.nothing",
                "--prefix", "ibv_", "--out", out.toString());

        assertEquals(3, r.exitCode(), r.output());
        assertTrue(r.output().contains("nothing found in nothing.h"), r.output());
        assertTrue(r.output().contains("FAILED"), r.output());
        assertFalse(Files.exists(out), "a failed run wrote " + out);
    }

    @Test
    void aPrefixTheLibraryDoesNotExportFailsTheRun(@TempDir Path work) throws Exception {
        assumeGenerator();
        Path header = work.resolve("other.h");
        Files.writeString(header, "int other_open(int flags);\n");

        GeneratorProcess.Result r = GeneratorProcess.run("--header", header.toString(),
                "--library", GeneratorProcess.LIBIBVERBS.toString(), "--package", "dev.example.other",
                "--prefix", "other_");

        assertEquals(3, r.exitCode(), r.output());
        assertTrue(r.output().contains("libibverbs.so.1 exports no function named other_*"), r.output());
        assertTrue(r.output().contains("none of the 1 functions other.h declares is exported by libibverbs.so.1"),
                r.output());
    }

    private static void assumeGenerator() {
        assumeTrue(GeneratorProcess.sourcesPresent(), "generator sources not found at " + GeneratorProcess.MAIN);
        assumeTrue(Files.isRegularFile(GeneratorProcess.LIBCLANG), "no " + GeneratorProcess.LIBCLANG);
        assumeTrue(Files.isRegularFile(GeneratorProcess.LIBIBVERBS), "no " + GeneratorProcess.LIBIBVERBS);
    }
}
