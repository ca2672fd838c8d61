package dev.panamaverbs.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The multi-release jars as a Java 17 application sees them (docs/multi-release.md): builds
 * consumer-tests/fallback against the packaged verbs-ffm, verbs-loader and verbs-core jars (its
 * probe and TCP path with --release 17, its RDMA path with --release 22), then runs it on JDK 17
 * and on this JDK, on the class path and on the module path. On JDK 17 the probe answers "needs
 * JDK 22 or newer (running 17)" and the application falls back to TCP; on this JDK it answers
 * as the library does here (RDMA where a device is listed, else TCP).
 *
 * <p>Needs the packaged jars (mvn verify or install; ./verbs test), not target/classes, and a JDK
 * 17 at {@code /usr/lib/jvm/java-17-openjdk-amd64} (or {@code -Dpanamaverbs.jdk17=...}) for the
 * JDK 17 half: without them those tests are skipped, saying why. No JDK 21 is reachable from this
 * project's machines, so none is tested.
 */
class FallbackConsumerTest {
    private static final String MAIN = "example.fallback.FallbackApp";
    private static final String MODULE = "example.fallback";
    private static final Path FALLBACK =
            Path.of(System.getProperty("user.dir")).getParent().resolve("consumer-tests/fallback");
    private static final Path THIS_JDK = Path.of(System.getProperty("java.home"));
    private static final Path JDK17 =
            Path.of(System.getProperty("panamaverbs.jdk17", "/usr/lib/jvm/java-17-openjdk-amd64"));

    @TempDir
    static Path work;

    /** verbs-ffm, verbs-loader, verbs-core and slf4j-api jars, joined for -cp and -p. */
    private static String library;
    private static Path classPathApp;
    private static Path modulePathApp;

    @BeforeAll
    static void build() throws Exception {
        List<String> jars = libraryJars();
        assumeTrue(jars.size() == 4, "needs the packaged verbs-ffm, verbs-loader and verbs-core jars and"
                + " slf4j-api on the test path (mvn verify; not target/classes): found " + jars);
        library = String.join(File.pathSeparator, jars);
        List<String> java17Sources = sources(FALLBACK.resolve("src/main/java"));
        List<String> java22Sources = sources(FALLBACK.resolve("src/main/java22"));

        classPathApp = work.resolve("classpath");
        javac("--release", "17", "-cp", library, "-d", classPathApp.toString(), java17Sources);
        javac("--release", "22", "-cp", library + File.pathSeparator + classPathApp, "-d", classPathApp.toString(),
                java22Sources);

        modulePathApp = work.resolve("modular");
        List<String> moduleSources = new ArrayList<>(java17Sources);
        moduleSources.add(FALLBACK.resolve("src/module/module-info.java").toString());
        javac("--release", "17", "-p", library, "-d", modulePathApp.toString(), moduleSources);
        javac("--release", "22", "-p", library + File.pathSeparator + modulePathApp,
                "--patch-module", MODULE + "=" + FALLBACK.resolve("src/main/java22"),
                "-d", modulePathApp.toString(), java22Sources);
    }

    @Test
    void jdk17ClassPathFallsBackWithTheCause() throws Exception {
        assertFallsBackOnJdk17(run(jdk17(), "-cp", library + File.pathSeparator + classPathApp, MAIN));
    }

    @Test
    void jdk17ModulePathFallsBackWithTheCause() throws Exception {
        assertFallsBackOnJdk17(run(jdk17(), "-p", library + File.pathSeparator + modulePathApp, "-m", MODULE + "/" + MAIN));
    }

    @Test
    void thisJdkWithoutNativeAccessNamesTheFlag() throws Exception {
        String out = run(THIS_JDK, "-cp", library + File.pathSeparator + classPathApp, MAIN);
        assertTrue(out.contains("verbs available: false"), out);
        assertTrue(out.contains("verbs cause: native access is not enabled")
                && out.contains("--enable-native-access=ALL-UNNAMED"), out);
        assertTrue(out.contains("transport: tcp"), out);
        assertTrue(out.contains("echo: hello"), out);
    }

    @Test
    void thisJdkClassPathUsesWhatTheProbeFound() throws Exception {
        assertAnswersAsThisJdk(run(THIS_JDK, "--enable-native-access=ALL-UNNAMED", "--illegal-native-access=deny",
                "-cp", library + File.pathSeparator + classPathApp, MAIN));
    }

    @Test
    void thisJdkModulePathUsesWhatTheProbeFound() throws Exception {
        assertAnswersAsThisJdk(run(THIS_JDK, "--enable-native-access=dev.panamaverbs.ffm,dev.panamaverbs.loader",
                "--illegal-native-access=deny",
                "-p", library + File.pathSeparator + modulePathApp, "-m", MODULE + "/" + MAIN));
    }

    /** A Java 17 build sees only the probe: the rest of the API cannot even be compiled against. */
    @Test
    void java17BuildSeesOnlyTheProbe() throws Exception {
        Path source = work.resolve("beyond/Beyond.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "class Beyond { dev.panamaverbs.Context context; }\n");
        Process javac = new ProcessBuilder(tool(THIS_JDK, "javac"), "--release", "17", "-cp", library,
                "-d", work.resolve("beyond-out").toString(), source.toString()).redirectErrorStream(true).start();
        String out = output(javac);
        assertNotEquals(0, javac.exitValue(), out);
        assertTrue(out.contains("dev.panamaverbs.Context") || out.contains("Context"), out);
    }

    private static void assertFallsBackOnJdk17(String out) {
        assertTrue(out.contains("java 17"), out);
        assertTrue(out.contains("verbs available: false"), out);
        assertTrue(out.contains("verbs cause: needs JDK 22 or newer (running 17)"), out);
        assertTrue(out.contains("rdma_cm available: false"), out);
        assertTrue(out.contains("rdma_cm cause: needs JDK 22 or newer (running 17)"), out);
        assertTrue(out.contains("ensureAvailable: VerbsUnavailableException: libibverbs is not available:"
                + " needs JDK 22 or newer (running 17)"), out);
        assertTrue(out.contains("transport: tcp"), out);
        assertTrue(out.contains("echo: hello"), out);
    }

    /** RDMA when the probe found the library and a device (FallbackApp's rule), else TCP; both echo. */
    private static void assertAnswersAsThisJdk(String out) {
        assertTrue(out.contains("java " + Runtime.version().feature()), out);
        boolean rdma = out.contains("transport: rdma (");
        assertTrue(rdma || out.contains("transport: tcp"), out);
        if (rdma) {
            assertTrue(out.contains("verbs available: true"), out);
        }
        assertTrue(out.contains("echo: hello"), out);
    }

    private static Path jdk17() {
        assumeTrue(Files.isExecutable(JDK17.resolve("bin/java")),
                "no JDK 17 at " + JDK17 + " (set -Dpanamaverbs.jdk17=...)");
        return JDK17;
    }

    /** The packaged library jars and slf4j-api, from this test's own class and module path. */
    private static List<String> libraryJars() {
        String paths = System.getProperty("jdk.module.path", "") + File.pathSeparator
                + System.getProperty("java.class.path", "");
        List<String> found = new ArrayList<>();
        for (String prefix : List.of("verbs-ffm-", "verbs-loader-", "verbs-core-", "slf4j-api-")) {
            Arrays.stream(paths.split(File.pathSeparator))
                    .filter(entry -> entry.endsWith(".jar"))
                    .filter(entry -> Path.of(entry).getFileName().toString().startsWith(prefix))
                    .findFirst().ifPresent(found::add);
        }
        return found;
    }

    private static List<String> sources(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(file -> file.toString().endsWith(".java")).map(Path::toString)
                    .collect(Collectors.toList());
        }
    }

    private static void javac(Object... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(tool(THIS_JDK, "javac")));
        for (Object arg : args) {
            if (arg instanceof List<?> list) {
                list.forEach(item -> command.add(item.toString()));
            } else {
                command.add(arg.toString());
            }
        }
        Process javac = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = output(javac);
        assertEquals(0, javac.exitValue(), () -> String.join(" ", command) + "\n" + out);
    }

    private static String run(Path jdk, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(tool(jdk, "java")));
        command.addAll(List.of(args));
        Process java = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = output(java);
        assertEquals(0, java.exitValue(), () -> String.join(" ", command) + "\n" + out);
        return out;
    }

    /** All the process printed; a generous bound only so that a hung child cannot hang the build. */
    private static String output(Process process) throws Exception {
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "still running after 120 s:\n" + out);
        return out;
    }

    private static String tool(Path jdk, String name) {
        return jdk.resolve("bin").resolve(name).toString();
    }
}
