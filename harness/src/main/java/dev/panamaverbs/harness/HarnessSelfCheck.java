package dev.panamaverbs.harness;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The harness self-check after a device step: the device step also runs a deliberately failing
 * canary test (verbs-testkit HarnessCanaryTest, tag harness-canary). The run stays green only if
 * the canary run exited 1 with exactly the canary's deliberate failure(s) in its report, and the
 * step's exit status as the host got it (through the VM) is the one the device side computed from
 * the two recorded statuses. So a harness that stops noticing a failing device test goes red.
 */
final class HarnessSelfCheck {
    /** The canary's class and the start of its failure message (verbs-testkit HarnessCanaryTest). */
    static final String CANARY_CLASS = "dev.panamaverbs.testkit.HarnessCanaryTest";
    static final String CANARY_MARKER = "harness canary: deliberate failure";
    private static final String NOT_RED = "harness self-check: a failing device test did not turn the run red";

    /** One summary line, and whether the check passed. */
    record Result(String line, boolean ok) {}

    private HarnessSelfCheck() {}

    static Result check(TestRun run, TestCounts device) {
        if (TestRun.recordedExit(run.reports()).isEmpty()) {
            return red("harness self-check: not run (the device step did not get past the device tests)");
        }
        var recordedCanary = TestRun.recordedExit(run.canary());
        if (recordedCanary.isEmpty()) {
            return red("harness self-check: FAILED: the canary run did not finish (device step exit " + run.stepStatus()
                    + "; see " + run.shown(run.canary().resolve("launcher.log")) + ")");
        }
        int canaryStatus = recordedCanary.get();
        int deviceStatus = run.deviceStatus();
        // The device step exits with the device launcher's status, or the canary's when that is 0.
        int expected = deviceStatus != 0 ? deviceStatus : canaryStatus;
        if (run.stepStatus() != expected) {
            return red("harness self-check: FAILED: the device step exited " + expected + " where it ran (device launcher "
                    + deviceStatus + ", canary " + canaryStatus + ") but ./verbs test got " + run.stepStatus()
                    + ": its exit status was not honoured");
        }
        Path file = run.canary().resolve(TestRun.LAUNCHER_REPORT);
        JUnitReport report = Files.isRegularFile(file) ? JUnitReport.read(file) : null;
        TestCounts canary = report == null ? TestCounts.NONE : report.counts();
        long marked = report == null ? 0 : report.failureMessages().stream().filter(m -> m.startsWith(CANARY_MARKER)).count();
        long others = report == null ? 0 : report.testClasses().stream().filter(c -> !c.equals(CANARY_CLASS)).count();
        if (canary.total() > 0 && canary.skipped() == canary.total() && device.ran() == 0) {
            return new Result("harness self-check: not possible: the canary was skipped like every device test (no device)", true);
        }
        if (canaryStatus != 1 || canary.total() < 1 || canary.failed() != canary.total() || marked != canary.total()
                || others != 0) {
            return red(NOT_RED + ": the deliberately failing canary run exited " + canaryStatus + " (1 expected); its report: "
                    + canary.total() + " run, " + canary.failed() + " failed, " + canary.skipped() + " skipped, " + marked
                    + " with the canary's message, " + others + " other tests (" + run.shown(run.canary()) + ")");
        }
        return new Result("harness self-check: a deliberately failing device test was reported as failed (exit " + canaryStatus
                + (run.inVm() ? ", seen by the host through the VM's exit status" : "") + ")", true);
    }

    private static Result red(String line) {
        return new Result(line, false);
    }
}
