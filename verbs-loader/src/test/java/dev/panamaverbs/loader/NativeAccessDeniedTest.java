package dev.panamaverbs.loader;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A JVM that did not grant native access: the loader says so with the exact option, and never
 * makes the restricted call that would print the JDK's warning. Runs child JVMs.
 */
class NativeAccessDeniedTest {
    private static final Path BASEDIR = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();

    private static String run(List<String> options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(options);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "child JVM hung");
        assertEquals(0, process.exitValue(), output);
        return output;
    }

    /** The module path of this test JVM: the loader's classes, verbs-ffm and slf4j-api. */
    private static String modulePath() {
        String path = System.getProperty("jdk.module.path");
        return path != null ? path : System.getProperty("java.class.path");
    }

    @Test
    void aNamedModuleWithoutAccessGetsTheExactHint() throws Exception {
        String output = run(List.of(
                "-p", modulePath(),
                "--patch-module", "dev.panamaverbs.loader=" + BASEDIR.resolve("target/test-classes"),
                "-m", "dev.panamaverbs.loader/dev.panamaverbs.loader.PrintAvailability"));
        assertTrue(output.contains("available=false"), output);
        assertTrue(output.contains("--enable-native-access=dev.panamaverbs.loader"), output);
        assertFalse(output.contains("WARNING: A restricted method"), output);
    }

    @Test
    void grantingAccessMakesItAvailable() throws Exception {
        String output = run(List.of(
                "--enable-native-access=dev.panamaverbs.loader",
                "-Dpanamaverbs.library=" + FakeProvider.standardLibrary(),
                "-p", modulePath(),
                "--patch-module", "dev.panamaverbs.loader=" + BASEDIR.resolve("target/test-classes"),
                "-m", "dev.panamaverbs.loader/dev.panamaverbs.loader.PrintAvailability"));
        assertTrue(output.contains("available=true"), output);
        assertFalse(output.contains("WARNING"), output);
    }
}
