package dev.panamaverbs.it.support;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The commands of the interop tests' peers: our examples ({@code RcPingPong}, {@code RPing},
 * {@code ProducerConsumer}, {@code KeyValueService}) as
 * java processes, staged by {@code ./verbs test} (system property
 * {@code panamaverbs.examples.args}, the examples' java @argfile), executable jars of the build
 * (the perftest module's), and the C tools from Debian's {@code ibverbs-utils},
 * {@code rdmacm-utils} and {@code perftest}. Missing pieces skip the test,
 * but fail it in CI and inside the project's VM, where they must be there.
 */
public final class InteropPeers {
    private InteropPeers() {}

    public static final String EXAMPLES_ARGS = "panamaverbs.examples.args";
    /** The examples' package: the main classes below are named within it. */
    private static final String EXAMPLES = "dev.panamaverbs.examples.";
    public static final String QUICK_START = EXAMPLES + "QuickStart";
    public static final String RC_PINGPONG = EXAMPLES + "pingpong.RcPingPong";
    public static final String RPING = EXAMPLES + "rping.RPing";
    public static final String TWO_HOST_DEMO = EXAMPLES + "TwoHostDemo";
    public static final String TWO_HOST_SEND_RECV = EXAMPLES + "TwoHostSendRecv";
    public static final String WINDOWS = EXAMPLES + "windows.ProducerConsumer";
    public static final String KEY_VALUE = EXAMPLES + "kv.KeyValueService";

    /** {@code java @examples-args -m dev.panamaverbs.examples/MAIN ARGS}, started quickly (C1, serial GC). */
    public static List<String> java(String mainClass, List<String> args) {
        String argFile = System.getProperty(EXAMPLES_ARGS);
        require(argFile != null && Files.isRegularFile(Path.of(argFile)),
                "the examples are not staged (system property " + EXAMPLES_ARGS + "; ./verbs test stages them)");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "@" + argFile, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-m", "dev.panamaverbs.examples/" + mainClass));
        command.addAll(args);
        return command;
    }

    /**
     * {@code java -jar JAR ARGS} with native access, started quickly (C1, serial GC, and this run's
     * class-data-sharing archive of the jar when there is one: {@code SharedArchive}): an executable
     * jar of this build, {@code defaultPath} from the repository root (where ./verbs test runs) unless
     * the system property {@code property} names another.
     */
    public static List<String> jar(String property, String defaultPath, List<String> args) {
        Path jar = jarPath(property, defaultPath);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED"));
        command.addAll(SharedArchive.optionsFor(jar));
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(args);
        return command;
    }

    /**
     * An executable jar of this build: {@code defaultPath} from the repository root (where ./verbs
     * test runs) unless the system property {@code property} names another; a missing jar skips
     * the test, or fails it in CI and in the project's VM.
     */
    public static Path jarPath(String property, String defaultPath) {
        Path jar = Path.of(System.getProperty(property, defaultPath)).toAbsolutePath();
        require(Files.isRegularFile(jar), "no " + jar + " (mvn install builds it)");
        return jar;
    }

    /** A C tool by name, found on PATH ({@code ibv_rc_pingpong}, {@code rping}), with {@code args}. */
    public static List<String> c(String tool, String debianPackage, List<String> args) {
        Path found = null;
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path candidate = Path.of(dir, tool);
            if (Files.isExecutable(candidate)) {
                found = candidate;
                break;
            }
        }
        require(found != null, tool + " is not installed (Debian package " + debianPackage + ")");
        List<String> command = new ArrayList<>(List.of(found.toString()));
        command.addAll(args);
        return command;
    }

    /** A TCP port nothing listens on right now. */
    public static int freeTcpPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void require(boolean condition, String missing) {
        if (!condition) {
            if ("true".equals(System.getenv("CI")) || RdmaCmSupport.insideProjectVm()) {
                fail(missing + " (in CI and in the project's VM the interop tests must run)");
            }
            assumeTrue(false, missing);
        }
    }
}
