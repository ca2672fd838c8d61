package dev.panamaverbs.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What ./verbs test did, as its script saw it: which steps ran, their exit statuses and times,
 * where the device tests ran, and whether this is CI. The reports are read from files under
 * {@code root}: Surefire's in {@code <module>/target/surefire-reports}, the device launcher's in
 * {@code reports} and the canary's in {@code reports/harness-canary}.
 *
 * @param stepStatus the device step's exit status as the host got it (through the VM, if any)
 * @param where      where the device tests ran, e.g. "rxe VM", "siw VM" (test.sh --provider siw) or
 *                   "local device (rxe0)"
 */
record TestRun(Path root, Path reports, boolean unit, boolean device, int buildStatus, int stepStatus, String where,
               long unitSeconds, long deviceSeconds, boolean ci) {
    static final String VM = "rxe VM";
    static final String LAUNCHER_REPORT = "TEST-junit-jupiter.xml";
    static final String LAUNCHER_EXIT = "launcher-exit";

    Path canary() {
        return reports.resolve("harness-canary");
    }

    boolean built() {
        return buildStatus == 0;
    }

    /** Whether the tests ran in the VM of either provider ("rxe VM", "siw VM"). */
    boolean inVm() {
        return where.equals(VM) || where.equals("siw VM");
    }

    /** The device launcher's own status, as recorded where it ran; else what the step returned. */
    int deviceStatus() {
        if (!device || !built()) {
            return 0;
        }
        return recordedExit(reports).orElse(stepStatus);
    }

    /** The exit status a launcher recorded next to its reports, if it got that far. */
    static Optional<Integer> recordedExit(Path reportsDir) {
        Path file = reportsDir.resolve(LAUNCHER_EXIT);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Integer.parseInt(Files.readString(file).strip()));
        } catch (IOException | NumberFormatException e) {
            throw new HarnessException("cannot read the exit status in " + file + ": " + e.getMessage(), e);
        }
    }

    /** {@code path} relative to the repository, as the summary prints it. */
    String shown(Path path) {
        return root.relativize(path).toString();
    }
}
