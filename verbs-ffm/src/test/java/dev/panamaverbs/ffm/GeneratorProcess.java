package dev.panamaverbs.ffm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the generator (verbs-ffm/generator) from source in a child JVM of the current JDK. */
final class GeneratorProcess {
    private GeneratorProcess() {}

    static final Path MODULE_DIR = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
    static final Path MAIN = MODULE_DIR.resolve("generator/src/dev/panamaverbs/generator/Main.java");
    static final Path GENERATED_TREE = MODULE_DIR.resolve("src/main/java");
    /** Debian multiarch triplet: {@code gcc -print-multiarch}, else x86_64-linux-gnu (as the generator). */
    static final String MULTIARCH = multiarch();
    static final Path LIBCLANG = Path.of("/usr/lib", MULTIARCH, "libclang-14.so.1");
    static final Path LIBIBVERBS = Path.of("/usr/lib", MULTIARCH, "libibverbs.so.1");
    static final Path LIBRDMACM = Path.of("/usr/lib", MULTIARCH, "librdmacm.so.1");

    private static String multiarch() {
        try {
            Process p = new ProcessBuilder("gcc", "-print-multiarch").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (p.waitFor() == 0 && out.matches("[A-Za-z0-9_.-]+")) {
                return out;
            }
        } catch (IOException e) {
            // no gcc
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "x86_64-linux-gnu";
    }

    record Result(int exitCode, String output) {}

    /** Runs Main.java with {@code args}; the child gets native access, so it prints no warning. */
    static Result run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", MAIN.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("generator did not finish: " + command);
        }
        return new Result(p.exitValue(), out);
    }

    static boolean sourcesPresent() {
        return Files.isRegularFile(MAIN);
    }
}
