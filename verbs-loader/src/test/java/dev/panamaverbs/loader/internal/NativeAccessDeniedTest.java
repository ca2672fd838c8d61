package dev.panamaverbs.loader.internal;

import org.junit.jupiter.api.Test;

import java.io.File;
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

    private static List<String> launch(String... options) {
        List<String> command = new ArrayList<>(List.of(options));
        command.addAll(List.of(
                "-Dpanamaverbs.library=" + FakeProvider.standardLibrary(),
                "-p", modulePath(),
                "--patch-module", "dev.panamaverbs.loader=" + BASEDIR.resolve("target/test-classes"),
                "-m", "dev.panamaverbs.loader/dev.panamaverbs.loader.internal.PrintAvailability"));
        return command;
    }

    private static final String HINT = "--enable-native-access=dev.panamaverbs.ffm,dev.panamaverbs.loader";

    @Test
    void withoutAccessOneHintNamesBothModules() throws Exception {
        String output = run(launch());
        assertTrue(output.contains("available=false"), output);
        assertTrue(output.contains("not enabled for module dev.panamaverbs.ffm and module dev.panamaverbs.loader"), output);
        assertTrue(output.contains("start the JVM with " + HINT + "\n"), output);
        assertFalse(output.contains("WARNING: A restricted method"), output);
    }

    /** The generated layer builds the handles: access for the loader alone is not enough. */
    @Test
    void accessForTheLoaderAloneNamesTheGeneratedLayer() throws Exception {
        String output = run(launch("--enable-native-access=dev.panamaverbs.loader"));
        assertTrue(output.contains("available=false"), output);
        assertTrue(output.contains("not enabled for module dev.panamaverbs.ffm;"), output);
        assertTrue(output.contains(HINT + "\n"), output);
        assertFalse(output.contains("WARNING"), output);
    }

    /** Following the hint is enough, even where the JVM denies every other restricted call. */
    @Test
    void followingTheHintMakesItAvailable() throws Exception {
        String output = run(launch(HINT, "--illegal-native-access=deny"));
        assertTrue(output.contains("available=true"), output);
        assertFalse(output.contains("WARNING"), output);
    }
}
