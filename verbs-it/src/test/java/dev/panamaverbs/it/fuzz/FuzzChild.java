package dev.panamaverbs.it.fuzz;

import dev.panamaverbs.it.support.LocalPeerProcess;
import dev.panamaverbs.it.support.PeerProcess;
import static org.junit.jupiter.api.Assertions.fail;

import dev.panamaverbs.testkit.TestDevice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Stream;

/**
 * Runs one misuse-fuzz category ({@link MisuseFuzz}) in a child JVM started from the staged
 * {@code peer.args} (system property {@value LocalPeerProcess#PEER_ARGS}, set by {@code ./verbs test}) in a
 * working directory of its own, and judges how it ended: a hang (no exit within
 * {@link #TIMEOUT}), a JVM crash (exit 134 or 139, or an {@code hs_err_pid*.log}, whose head the
 * failure shows) or any other non-zero exit fails; otherwise its parsed {@link FuzzReport}.
 */
final class FuzzChild {
    /** The bound on one child: JVM start under TCG plus a category's cases. */
    static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final int HS_ERR_HEAD_LINES = 40;

    private FuzzChild() {}

    static FuzzReport run(FuzzCategory category, TestDevice device, long seed) throws Exception {
        String argFile = LocalPeerProcess.stagedArgFile();
        Path dir = Files.createTempDirectory("misuse-fuzz-" + category.label);
        List<String> command = LocalPeerProcess.javaCommand(argFile,
                List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx256m"), dir);
        command.addAll(category.jvmOptions);
        command.addAll(List.of(MisuseFuzz.class.getName(), category.name(), device.name(),
                Integer.toString(device.port()), Integer.toString(device.gidIndex()), Long.toString(seed)));
        try (PeerProcess child = LocalPeerProcess.start("fuzz " + category.label, command, dir, () -> false)) {
            OptionalInt exit = child.awaitExit(TIMEOUT);
            FuzzReport report = FuzzReport.parse(child.output());
            String failure = failure(category.label, exit, hsErrHead(dir), report);
            if (failure != null) {
                fail(failure + "\n" + child.describe());
            }
            // What the child said besides its cases (counts, skipped methods, fork status), for the log.
            child.output().lines().filter(line -> !line.startsWith(FuzzReport.PREFIX + "case "))
                    .forEach(line -> System.out.println("  " + category.label + ": " + line));
            return report;
        } finally {
            deleteIfClean(dir);
        }
    }

    /**
     * Why a child's run fails, or null when it passed: a hang (no exit, or the watchdog's status),
     * a JVM crash (exit 134 or 139, or a crash report, {@code crash}), any other non-zero exit,
     * an UNEXPECTED case, a leak, or a report that does not end with all its cases done.
     */
    static String failure(String label, OptionalInt exit, String crash, FuzzReport report) {
        if (exit.isEmpty()) {
            return "hang: the " + label + " child did not exit within " + TIMEOUT;
        }
        int status = exit.getAsInt();
        if (status == 134 || status == 139 || crash != null) {
            return "JVM crash in the " + label + " child (exit " + status + ")\n" + (crash == null ? "" : crash);
        }
        if (status == FuzzRun.HANG_STATUS || !report.hangs().isEmpty()) {
            return "hang: " + label + " case " + report.hangs() + " ran past " + FuzzRun.CASE_LIMIT_MILLIS + " ms";
        }
        if (status != 0 || !report.unexpected().isEmpty() || !"none".equals(report.leaks()) || report.done() != report.cases()) {
            return "the " + label + " child exited " + status + " with " + report.unexpected().size()
                    + " unexpected outcome(s), leaks: " + report.leaks() + ", cases " + report.cases() + " of "
                    + report.done() + " done\n" + String.join("\n", report.unexpected());
        }
        return null;
    }

    /** The first lines of the child's {@code hs_err_pid*.log}, or null when there is none. */
    private static String hsErrHead(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            Path hsErr = files.filter(f -> f.getFileName().toString().startsWith("hs_err_pid")).findFirst().orElse(null);
            if (hsErr == null) {
                return null;
            }
            try (Stream<String> lines = Files.lines(hsErr)) {
                return "---- " + hsErr + "\n" + String.join("\n", lines.limit(HS_ERR_HEAD_LINES).toList()) + "\n";
            }
        }
    }

    /** Removes the working directory unless it kept a crash report (then it stays for a look). */
    private static void deleteIfClean(Path dir) throws IOException {
        if (hsErrHead(dir) != null) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }
}
