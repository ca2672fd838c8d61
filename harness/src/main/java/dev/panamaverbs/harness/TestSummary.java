package dev.panamaverbs.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The summary and verdict of ./verbs test: counts the Surefire and launcher XML reports, runs the
 * harness self-check and decides. Red when the build failed, a unit or device test failed, the
 * device run died or exited non-zero with no failed test, the self-check failed, host B of a
 * two-host run failed or its share of the one-host tests failed or did not run ({@link HostShareSummary}),
 * or, under CI, no device test ran (all skipped or none found) or a two-host
 * test was skipped or none ran ({@link TwoHostSummary}).
 */
final class TestSummary {
    static final String HEADER = "==================== panama-verbs test summary ====================";
    static final String FOOTER = "====================================================================";

    /** The lines to print and the exit status (0 green, 1 red). */
    record Result(List<String> lines, int status) {}

    private final TestRun run;
    private final List<String> lines = new ArrayList<>();
    private boolean red;

    private TestSummary(TestRun run) {
        this.run = run;
    }

    static Result of(TestRun run) throws IOException {
        return new TestSummary(run).summarise();
    }

    private Result summarise() throws IOException {
        lines.addAll(List.of("", HEADER));
        if (!run.built()) {
            fail("build: FAILED (mvn exit " + run.buildStatus() + "); see the Maven output above");
        }
        if (run.unit()) {
            List<JUnitReport> reports = unitReports().stream().map(JUnitReport::read).toList();
            TestCounts unit = TestCounts.of(reports);
            lines.add("unit tests: " + unit.total() + " run, " + unit.failed() + " failed, " + unit.skipped()
                    + " skipped (Surefire, " + run.unitSeconds() + "s)");
            red |= unit.failed() > 0;
            reports.forEach(this::listFailures);
        }
        TestCounts device = run.device() ? deviceRun() : TestCounts.NONE;
        lines.add(FOOTER);
        if (run.device()) {
            lines.add("device tests: " + device.passed() + " passed, " + device.failed() + " failed, " + device.skipped()
                    + " skipped");
        }
        return new Result(List.copyOf(lines), red ? 1 : 0);
    }

    private TestCounts deviceRun() throws IOException {
        Path report = run.reports().resolve(TestRun.LAUNCHER_REPORT);
        TestCounts device = TestCounts.NONE;
        TestCounts twoHost = TestCounts.NONE;
        String note = "";
        JUnitReport failures = null;
        if (!run.built()) {
            note = "not run: the build failed";
        } else if (!Files.isRegularFile(report)) {
            note = "no launcher report (exit " + run.deviceStatus() + "): the VM or the JVM died before the end of the run";
            List<Path> crashes = crashReports();
            if (!crashes.isEmpty()) {
                note += "; the JVM crashed in native code: " + crashes.getFirst();
            }
            red = true;
        } else {
            JUnitReport launcher = JUnitReport.read(report);
            device = launcher.counts();
            failures = launcher;
            twoHost = TwoHostSummary.counts(launcher);
            // The launcher exits 1 on test failures; any other non-zero exit (VM, JVM) is a failure too.
            if (run.deviceStatus() != 0 && device.failed() == 0) {
                note = "the device run exited with " + run.deviceStatus() + " although no test failed";
                red = true;
            }
        }
        Optional<HostShareSummary.Result> hostB = run.built() ? HostShareSummary.of(run, failures) : Optional.empty();
        device = device.plus(hostB.map(HostShareSummary.Result::counts).orElse(TestCounts.NONE));
        lines.add("device: " + device.total() + " run, " + device.failed() + " failed, " + device.skipped() + " skipped on the "
                + run.where() + " (" + run.deviceSeconds() + "s; reports in " + run.shown(run.reports()) + ")");
        if (failures != null) {
            listFailures(failures);
        }
        hostB.flatMap(HostShareSummary.Result::report).ifPresent(share -> listFailures(share, " on host B"));
        hostB.ifPresent(share -> {
            lines.addAll(share.lines());
            red |= share.red();
        });
        if (!note.isEmpty()) {
            lines.add("device run: " + note);
        }
        red |= device.failed() > 0;
        if (run.built()) {
            TwoHostSummary.Result twoHosts = TwoHostSummary.of(run, twoHost);
            lines.addAll(twoHosts.lines());
            red |= twoHosts.red();
            HarnessSelfCheck.Result check = HarnessSelfCheck.check(run, device);
            lines.add(check.line());
            red |= !check.ok();
        }
        if (run.ci() && device.ran() == 0) {
            fail("CI=true and no device test ran (all skipped or none found): failing");
        }
        return device;
    }

    /** One line per failed test, so that the summary (often all a CI log keeps) names what failed. */
    private void listFailures(JUnitReport report) {
        listFailures(report, "");
    }

    /** The same, each line with {@code where} after the test's name (e.g. " on host B"). */
    private void listFailures(JUnitReport report, String where) {
        for (JUnitReport.TestCase test : report.failedCases()) {
            lines.add("  FAILED " + test.shortName() + where + (test.failure().isEmpty() ? "" : ": " + test.failure()));
        }
    }

    private void fail(String line) {
        lines.add(line);
        red = true;
    }

    /** Surefire's reports: {@code <module>/target/surefire-reports/TEST-*.xml}. */
    private List<Path> unitReports() throws IOException {
        List<Path> reports = new ArrayList<>();
        try (Stream<Path> modules = Files.list(run.root())) {
            for (Path dir : modules.map(module -> module.resolve("target/surefire-reports")).filter(Files::isDirectory).toList()) {
                reports.addAll(matching(dir, "TEST-", ".xml"));
            }
        }
        return reports;
    }

    /** hs_err files the device JVM left in the reports folder (-XX:ErrorFile points there). */
    private List<Path> crashReports() throws IOException {
        return Files.isDirectory(run.reports()) ? matching(run.reports(), "hs_err_pid", ".log") : List.of();
    }

    private static List<Path> matching(Path dir, String prefix, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(file -> {
                String name = file.getFileName().toString();
                return name.startsWith(prefix) && name.endsWith(suffix);
            }).sorted().toList();
        }
    }
}
