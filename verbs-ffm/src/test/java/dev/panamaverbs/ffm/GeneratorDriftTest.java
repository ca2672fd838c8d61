package dev.panamaverbs.ffm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** src/main/java is exactly what the generator makes of this machine's verbs.h and rdma_cma.h. */
class GeneratorDriftTest {

    @Test
    void regeneratingReproducesTheCommittedTreeByteForByte(@TempDir Path out) throws Exception {
        assumeTrue(GeneratorProcess.sourcesPresent(), "generator sources not found at " + GeneratorProcess.MAIN);
        assumeTrue(Files.isRegularFile(GeneratorProcess.LIBCLANG), "no " + GeneratorProcess.LIBCLANG);
        assumeTrue(Files.isRegularFile(CLayoutProbe.HEADER), "no " + CLayoutProbe.HEADER);
        assumeTrue(Files.isRegularFile(GeneratorProcess.LIBIBVERBS), "no " + GeneratorProcess.LIBIBVERBS);
        assumeTrue(Files.isRegularFile(CLayoutProbe.RDMA_CMA_HEADER), "no " + CLayoutProbe.RDMA_CMA_HEADER);
        assumeTrue(Files.isRegularFile(GeneratorProcess.LIBRDMACM), "no " + GeneratorProcess.LIBRDMACM);

        GeneratorProcess.Result r = GeneratorProcess.run("--out", out.toString());
        // The coverage summary (first block of the report, up to the first empty line) goes to
        // the test output; exit 3 means a declaration was neither emitted nor skipped with a reason.
        String summary = r.output().lines().takeWhile(l -> !l.isEmpty()).collect(Collectors.joining("\n"));
        System.out.println(summary);
        assertEquals(0, r.exitCode(), "generator failed (exit 3: coverage error, found != emitted):\n" + r.output());
        // One block per header, each OK and with every function and function pointer invoked.
        assertEquals(2, summary.lines().filter(l -> l.contains("OK: found = emitted + skipped")).count(),
                "coverage summary:\n" + summary);
        assertEquals(2, summary.lines().filter(l -> l.matches("  exported functions with an invoker: (\\d+) of \\1 .*")
                && !l.contains(": 0 of 0")).count(), "coverage summary:\n" + summary);
        assertEquals(2, summary.lines().filter(l -> l.matches("  function-pointer fields with an invoker: (\\d+) of \\1 .*"))
                .count(), "coverage summary:\n" + summary);
        assertTrue(!r.output().contains("WARNING"), "the generator warned:\n" + r.output());

        TreeSet<String> generated = javaFiles(out);
        TreeSet<String> committed = javaFiles(GeneratorProcess.GENERATED_TREE);
        assertEquals(committed, generated, "the set of generated files drifted: run ./verbs generate");
        List<String> differing = new ArrayList<>();
        for (String f : generated) {
            if (!Arrays.equals(Files.readAllBytes(out.resolve(f)),
                    Files.readAllBytes(GeneratorProcess.GENERATED_TREE.resolve(f)))) {
                differing.add(f);
            }
        }
        assertTrue(differing.isEmpty(), "generated sources drifted (run ./verbs generate): " + differing);
    }

    private static TreeSet<String> javaFiles(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            TreeSet<String> names = new TreeSet<>();
            files.filter(p -> p.toString().endsWith(".java")).forEach(p -> names.add(root.relativize(p).toString()));
            return names;
        }
    }
}
