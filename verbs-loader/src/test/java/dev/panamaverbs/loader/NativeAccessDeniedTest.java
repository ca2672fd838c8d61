package dev.panamaverbs.loader;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
                "-p", modulePath() + File.pathSeparator + stubCore(),
                "--patch-module", "dev.panamaverbs.loader=" + BASEDIR.resolve("target/test-classes"),
                "-m", "dev.panamaverbs.loader/dev.panamaverbs.loader.PrintAvailability"));
        return command;
    }

    /**
     * A stand-in for verbs-core: an empty named module {@code dev.panamaverbs.core}, compiled
     * here with the JDK's javac, so the test does not depend on verbs-core having been built (it
     * depends on this module, not the other way round). On the module path it is resolved only
     * when a child adds it ({@code --add-modules}), which is how the loader finds core present.
     */
    private static synchronized Path stubCore() {
        Path out = BASEDIR.resolve("target/stub-core/classes");
        if (Files.exists(out.resolve("module-info.class"))) {
            return out;
        }
        try {
            Path source = BASEDIR.resolve("target/stub-core/src/module-info.java");
            Files.createDirectories(source.getParent());
            Files.writeString(source, "module " + NativeAccess.CORE + " {}\n");
            Process javac = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "javac").toString(),
                    "-d", out.toString(), source.toString()).redirectErrorStream(true).start();
            String output = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(javac.waitFor(120, TimeUnit.SECONDS), "javac hung");
            assertEquals(0, javac.exitValue(), output);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static List<String> launchWithCore(String... options) {
        List<String> command = new ArrayList<>(List.of(options));
        command.addAll(List.of("--add-modules", NativeAccess.CORE));
        return launch(command.toArray(String[]::new));
    }

    @Test
    void aNamedModuleWithoutAccessGetsTheExactHint() throws Exception {
        String output = run(launch());
        assertTrue(output.contains("available=false"), output);
        assertTrue(output.contains("start the JVM with --enable-native-access=dev.panamaverbs.loader\n"), output);
        assertFalse(output.contains("WARNING: A restricted method"), output);
    }

    @Test
    void grantingAccessMakesItAvailable() throws Exception {
        String output = run(launch("--enable-native-access=dev.panamaverbs.loader"));
        assertTrue(output.contains("available=true"), output);
        assertFalse(output.contains("WARNING"), output);
    }

    /** With verbs-core in the layer, one hint names both modules: following it silences the JDK. */
    @Test
    void withCorePresentTheHintNamesBothModules() throws Exception {
        String hint = "--enable-native-access=dev.panamaverbs.loader,dev.panamaverbs.core";
        String neither = run(launchWithCore());
        assertTrue(neither.contains("available=false"), neither);
        assertTrue(neither.contains("not enabled for module dev.panamaverbs.loader and module dev.panamaverbs.core"), neither);
        assertTrue(neither.contains("start the JVM with " + hint + "\n"), neither);
        assertFalse(neither.contains("WARNING: A restricted method"), neither);
    }

    /** Access for the loader alone is not enough once core is there: core is named, with the same hint. */
    @Test
    void withCorePresentButDeniedTheLoaderRefuses() throws Exception {
        String output = run(launchWithCore("--enable-native-access=dev.panamaverbs.loader"));
        assertTrue(output.contains("available=false"), output);
        assertTrue(output.contains("not enabled for module dev.panamaverbs.core;"), output);
        assertTrue(output.contains("--enable-native-access=dev.panamaverbs.loader,dev.panamaverbs.core\n"), output);
        assertFalse(output.contains("WARNING"), output);
    }

    @Test
    void followingTheHintWithCorePresentMakesItAvailable() throws Exception {
        String output = run(launchWithCore("--enable-native-access=dev.panamaverbs.loader,dev.panamaverbs.core"));
        assertTrue(output.contains("available=true"), output);
        assertFalse(output.contains("WARNING"), output);
    }
}
