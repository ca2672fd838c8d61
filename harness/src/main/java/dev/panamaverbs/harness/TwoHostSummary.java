package dev.panamaverbs.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The two-host part of the summary: the device launcher's two-host tests (classes named
 * {@code *TwoHostTest}, as verbs-it's TwoHostTest requires) counted on their own, and host
 * B's outcome as scripts/vm.sh recorded it ({@code peer-host} in the reports folder: "exit 0"
 * when B's peer agent ended well, else what went wrong). Red when host B failed, and under CI
 * when a two-host test was skipped or none ran.
 */
final class TwoHostSummary {
    /** The suffix of two-host test classes (verbs-it TwoHostTest.CLASS_SUFFIX). */
    static final String CLASS_SUFFIX = "TwoHostTest";
    /** Host B's outcome, written by scripts/vm.sh --peer-report. */
    static final String PEER_REPORT = "peer-host";

    /** The summary lines and whether they turn the run red. */
    record Result(List<String> lines, boolean red) {}

    private TwoHostSummary() {}

    /** The counts of the two-host test cases in {@code report}. */
    static TestCounts counts(JUnitReport report) {
        List<JUnitReport.TestCase> cases = report.testCases().stream().filter(test -> test.className().endsWith(CLASS_SUFFIX)).toList();
        int failed = (int) cases.stream().filter(JUnitReport.TestCase::failed).count();
        int skipped = (int) cases.stream().filter(test -> !test.failed() && test.skipped()).count();
        return new TestCounts(cases.size(), failed, skipped);
    }

    static Result of(TestRun run, TestCounts twoHost) {
        List<String> lines = new ArrayList<>();
        boolean red = false;
        Optional<String> peer = peerOutcome(run.reports());
        lines.add("two-host: " + twoHost.total() + " run, " + twoHost.failed() + " failed, " + twoHost.skipped() + " skipped"
                + peer.map(outcome -> " (host A 198.18.0.1 <-> host B 198.18.0.2; host B: " + outcome + ")")
                        .orElse(" (no second host in this run)"));
        if (peer.isPresent() && !peer.get().equals("exit 0")) {
            lines.add("host B: FAILED: " + peer.get());
            red = true;
        }
        if (run.ci() && twoHost.skipped() > 0) {
            lines.add("CI=true and " + twoHost.skipped() + " two-host tests were skipped: failing");
            red = true;
        } else if (run.ci() && twoHost.ran() == 0) {
            lines.add("CI=true and no two-host test ran: failing");
            red = true;
        }
        return new Result(lines, red);
    }

    private static Optional<String> peerOutcome(Path reports) {
        Path file = reports.resolve(PEER_REPORT);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            String text = Files.readString(file).strip();
            return Optional.of(text.isEmpty() ? "no outcome recorded" : text);
        } catch (java.io.IOException e) {
            throw new HarnessException("cannot read host B's outcome in " + file + ": " + e.getMessage(), e);
        }
    }
}
