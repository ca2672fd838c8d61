package dev.panamaverbs.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The summary and verdict of ./verbs test over fake Surefire and launcher reports in a temporary
 * folder: what it prints and its exit status, for green runs, failed device tests, the CI=true
 * "no device test ran" rule and the harness self-check.
 */
class TestSummaryTest {
    private static final String CANARY_CLASS = HarnessSelfCheck.CANARY_CLASS;
    private static final String SELF_CHECK_OK = "harness self-check: a deliberately failing device test was reported"
            + " as failed (exit 1, seen by the host through the VM's exit status)";
    private static final String CI_NO_DEVICE_TEST = "CI=true and no device test ran (all skipped or none found): failing";
    private static final String NOT_RED = "harness self-check: a failing device test did not turn the run red";

    @TempDir
    Path root;
    Path reports;
    Path canary;

    @BeforeEach
    void layout() throws IOException {
        reports = Files.createDirectories(root.resolve("target/device-reports"));
        canary = Files.createDirectories(reports.resolve("harness-canary"));
    }

    // ---- fake reports ----

    private void unitReport(String module, String suite, int tests, int failures, int skipped) throws IOException {
        Path dir = Files.createDirectories(root.resolve(module).resolve("target/surefire-reports"));
        Files.writeString(dir.resolve("TEST-" + suite + ".xml"), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<testsuite xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" version=\"3.0.2\" name=\"" + suite
                + "\" time=\"0.1\" tests=\"" + tests + "\" errors=\"0\" skipped=\"" + skipped + "\" failures=\"" + failures + "\">\n"
                + "  <testcase name=\"t\" classname=\"" + suite + "\" time=\"0.01\"/>\n</testsuite>\n");
    }

    /** A launcher report (TEST-junit-jupiter.xml) in {@code dir} and its recorded exit status. */
    private static void launcherRun(Path dir, int exit, int tests, int failures, int skipped, String testcases)
            throws IOException {
        Files.writeString(dir.resolve("TEST-junit-jupiter.xml"), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<testsuite name=\"JUnit Jupiter\" tests=\"" + tests + "\" skipped=\"" + skipped + "\" failures=\""
                + failures + "\" errors=\"0\" time=\"2.5\" hostname=\"vm\" timestamp=\"2025-01-01T00:00:00\">\n"
                + testcases + "</testsuite>\n");
        Files.writeString(dir.resolve("launcher-exit"), exit + "\n");
    }

    private void deviceRun(int exit, int tests, int failures, int skipped) throws IOException {
        launcherRun(reports, exit, tests, failures, skipped,
                "  <testcase name=\"works()\" classname=\"dev.panamaverbs.it.QuickStartDeviceTest\" time=\"0.2\"/>\n");
    }

    private static final String TWO_HOST_PASSED =
            "  <testcase name=\"rdmaWriteLandsInBsRegion()\" classname=\"dev.panamaverbs.it.twohost.RcTwoHostTest\" time=\"0.3\"/>\n";
    private static final String TWO_HOST_SKIPPED = "  <testcase name=\"datagramsBothWays(TwoHosts)\" classname=\""
            + "dev.panamaverbs.it.twohost.UdTwoHostTest\" time=\"0\"><skipped><![CDATA[two-host: not in the two-VM harness]]></skipped></testcase>\n";
    private static final String TWO_HOST_FAILED = "  <testcase name=\"datagramsBothWays(TwoHosts)\" classname=\""
            + "dev.panamaverbs.it.twohost.UdTwoHostTest\" time=\"1\"><failure message=\"UdPeer exited 1\"/></testcase>\n";

    /** A device run with two-host test cases besides a one-host one, and host B's outcome (null: no second host). */
    private void twoHostRun(int exit, int tests, int failures, int skipped, String peerOutcome, String... twoHostCases)
            throws IOException {
        launcherRun(reports, exit, tests, failures, skipped,
                "  <testcase name=\"works()\" classname=\"dev.panamaverbs.it.QuickStartDeviceTest\" time=\"0.2\"/>\n"
                        + String.join("", twoHostCases));
        if (peerOutcome != null) {
            Files.writeString(reports.resolve("peer-host"), peerOutcome + "\n");
        }
    }

    /** The canary run as planned: one test, failed with the canary's message, launcher exit 1. */
    private void canaryFails() throws IOException {
        launcherRun(canary, 1, 1, 1, 0, "  <testcase name=\"failsOnTheDeviceOnPurpose(TestDevice, Context)\" classname=\""
                + CANARY_CLASS + "\" time=\"0.1\">\n    <failure message=\"harness canary: deliberate failure after"
                + " querying rxe0 port 1 (ACTIVE)\" type=\"org.opentest4j.AssertionFailedError\">trace</failure>\n"
                + "  </testcase>\n");
    }

    // ---- running the summary ----

    /** The summary over {@link #root} with the options of ./verbs test's summary; {@code ci}: CI=true. */
    private TestSummary.Result summary(boolean ci, String... args) throws IOException {
        return TestSummary.of(SummaryOptions.parse(root, List.of(args), ci));
    }

    /**
     * A clean device run, then a canary report of {@code tests} failing {@code testcases}: the
     * self-check must turn the run red with a "not red" line that mentions {@code why}.
     */
    private void assertCanaryRunIsRed(String why, int tests, String testcases) throws IOException {
        deviceRun(0, 5, 0, 0);
        launcherRun(canary, 1, tests, tests, 0, testcases);
        TestSummary.Result result = summary(false, "--device", "--step-status", "1");
        assertStatus(1, result);
        assertTrue(result.lines().stream().anyMatch(line -> line.startsWith(NOT_RED) && line.contains(why)),
                () -> String.join("\n", result.lines()));
    }

    /**
     * The summary of a device run ({@code exit}, {@code tests} run, {@code failures} failed, none
     * skipped) followed by the canary failing as planned, the device step exiting {@code stepStatus}.
     */
    private TestSummary.Result withFailingCanary(boolean ci, int exit, int tests, int failures, String stepStatus,
            String... more) throws IOException {
        deviceRun(exit, tests, failures, 0);
        canaryFails();
        List<String> args = new ArrayList<>(List.of("--device", "--step-status", stepStatus));
        args.addAll(List.of(more));
        return summary(ci, args.toArray(String[]::new));
    }

    /**
     * The CI summary (device step exit 0) of a clean device run of {@code tests} ({@code skipped}
     * of them skipped), then a canary run exiting 0 whose one test ({@code canarySkipped}: 0 or 1)
     * holds {@code inner} ({@link #canaryTestcase}).
     */
    private TestSummary.Result withCanaryExitingZero(int tests, int skipped, int canarySkipped, String inner)
            throws IOException {
        deviceRun(0, tests, 0, skipped);
        launcherRun(canary, 0, 1, 0, canarySkipped, canaryTestcase(inner));
        return summary(true, "--device", "--step-status", "0");
    }

    /** The canary's testcase element of a launcher report, holding {@code inner} (a skip or a failure, or nothing). */
    private static String canaryTestcase(String inner) {
        return "  <testcase name=\"failsOnTheDeviceOnPurpose(TestDevice, Context)\" classname=\"" + CANARY_CLASS + "\">"
                + inner + "</testcase>\n";
    }

    private static void assertStatus(int expected, TestSummary.Result result) {
        assertEquals(expected, result.status(), () -> "exit status; output:\n" + String.join("\n", result.lines()));
    }

    private static void assertLine(TestSummary.Result result, String line) {
        assertTrue(result.lines().contains(line), () -> "no line '" + line + "' in:\n" + String.join("\n", result.lines()));
    }

    private static void assertLineStartingWith(TestSummary.Result result, String start) {
        assertTrue(result.lines().stream().anyMatch(line -> line.startsWith(start)),
                () -> "no line starting '" + start + "' in:\n" + String.join("\n", result.lines()));
    }

    // ---- the cases ----

    @Test
    void greenRunPassesEvenUnderCi() throws Exception {
        unitReport("verbs-core", "dev.panamaverbs.CoreTest", 10, 0, 1);
        unitReport("verbs-loader", "dev.panamaverbs.loader.LoaderTest", 4, 0, 0);
        twoHostRun(0, 5, 0, 1, "exit 0", TWO_HOST_PASSED);
        canaryFails();
        // The device step exits with the canary's 1 when the device tests passed.
        TestSummary.Result result = summary(true, "--unit", "--device", "--step-status", "1", "--unit-seconds", "12",
                "--device-seconds", "34");
        assertStatus(0, result);
        assertEquals(List.of("", TestSummary.HEADER,
                "unit tests: 14 run, 0 failed, 1 skipped (Surefire, 12s)",
                "device: 5 run, 0 failed, 1 skipped on the rxe VM (34s; reports in target/device-reports)",
                "two-host: 1 run, 0 failed, 0 skipped (host A 198.18.0.1 <-> host B 198.18.0.2; host B: exit 0)",
                SELF_CHECK_OK,
                TestSummary.FOOTER,
                "device tests: 4 passed, 0 failed, 1 skipped"), result.lines());
    }

    @Test
    void localDeviceRunSaysSoInTheSelfCheck() throws Exception {
        TestSummary.Result result = withFailingCanary(false, 0, 2, 0, "1", "--where", "local device (rxe0)");
        assertStatus(0, result);
        assertLine(result, "harness self-check: a deliberately failing device test was reported as failed (exit 1)");
        assertLine(result, "device: 2 run, 0 failed, 0 skipped on the local device (rxe0) (0s; reports in target/device-reports)");
    }

    @Test
    void noDeviceTestRanFailsUnderCiOnly() throws Exception {
        // No device: every device test and the canary skipped, both launchers exit 0.
        TestSummary.Result ci = withCanaryExitingZero(3, 3, 1, "<skipped/>");
        assertStatus(1, ci);
        assertLine(ci, CI_NO_DEVICE_TEST);
        assertLine(ci, "harness self-check: not possible: the canary was skipped like every device test (no device)");
        assertLine(ci, "device tests: 0 passed, 0 failed, 3 skipped");

        TestSummary.Result local = summary(false, "--device", "--step-status", "0");
        assertStatus(0, local);
        assertFalse(local.lines().contains(CI_NO_DEVICE_TEST), () -> String.join("\n", local.lines()));
    }

    @Test
    void noDeviceTestFoundFailsUnderCi() throws Exception {
        // A run that found no device test at all (e.g. every one excluded): nothing ran.
        TestSummary.Result result = withFailingCanary(true, 0, 0, 0, "1");
        assertStatus(1, result);
        assertLine(result, CI_NO_DEVICE_TEST);
        assertLine(result, SELF_CHECK_OK);
    }

    @Test
    void noDeviceReportUnderCiFails() throws Exception {
        TestSummary.Result result = summary(true, "--device", "--step-status", "0");
        assertStatus(1, result);
        assertLine(result, "device run: no launcher report (exit 0): the VM or the JVM died before the end of the run");
        assertLine(result, "harness self-check: not run (the device step did not get past the device tests)");
        assertLine(result, CI_NO_DEVICE_TEST);
    }

    @Test
    void nativeCrashIsNamed() throws Exception {
        Files.writeString(reports.resolve("hs_err_pid42.log"), "SIGSEGV\n");
        TestSummary.Result result = summary(false, "--device", "--step-status", "134");
        assertStatus(1, result);
        assertLine(result, "device run: no launcher report (exit 134): the VM or the JVM died before the end of the run;"
                + " the JVM crashed in native code: " + reports.resolve("hs_err_pid42.log"));
    }

    @Test
    void failedDeviceTestFailsTheRun() throws Exception {
        TestSummary.Result result = withFailingCanary(true, 1, 5, 1, "1");
        assertStatus(1, result);
        assertLine(result, "device: 5 run, 1 failed, 0 skipped on the rxe VM (0s; reports in target/device-reports)");
        assertLine(result, SELF_CHECK_OK);
        assertLine(result, "device tests: 4 passed, 1 failed, 0 skipped");
    }

    @Test
    void deviceRunExitingNonZeroWithoutFailureFailsTheRun() throws Exception {
        TestSummary.Result result = withFailingCanary(false, 3, 5, 0, "3");
        assertStatus(1, result);
        assertLine(result, "device run: the device run exited with 3 although no test failed");
    }

    @Test
    void failedUnitTestFailsTheRun() throws Exception {
        unitReport("verbs-core", "dev.panamaverbs.CoreTest", 10, 2, 0);
        TestSummary.Result result = summary(false, "--unit");
        assertStatus(1, result);
        assertEquals(List.of("", TestSummary.HEADER, "unit tests: 10 run, 2 failed, 0 skipped (Surefire, 0s)",
                TestSummary.FOOTER), result.lines());
    }

    @Test
    void canaryThatDoesNotFailTurnsTheRunRed() throws Exception {
        TestSummary.Result result = withCanaryExitingZero(5, 0, 0, "");
        assertStatus(1, result);
        assertLine(result, NOT_RED + ": the deliberately failing canary run exited 0 (1 expected); its report: 1 run,"
                + " 0 failed, 0 skipped, 0 with the canary's message, 0 other tests (target/device-reports/harness-canary)");
    }

    @Test
    void canaryFailingForAnotherReasonTurnsTheRunRed() throws Exception {
        assertCanaryRunIsRed("0 with the canary's message", 1, "  <testcase name=\"failsOnTheDeviceOnPurpose(TestDevice, Context)\""
                + " classname=\"" + CANARY_CLASS + "\">\n    <failure message=\"port 1 is DOWN\""
                + " type=\"java.lang.IllegalStateException\"/>\n  </testcase>\n");
    }

    @Test
    void canaryReportWithOtherTestsTurnsTheRunRed() throws Exception {
        List<String> cases = new ArrayList<>();
        cases.add("  <testcase name=\"failsOnTheDeviceOnPurpose(TestDevice, Context)\" classname=\"" + CANARY_CLASS
                + "\">\n    <failure message=\"harness canary: deliberate failure\"/>\n  </testcase>\n");
        cases.add("  <testcase name=\"works()\" classname=\"dev.panamaverbs.it.QuickStartDeviceTest\">\n"
                + "    <failure message=\"harness canary: deliberate failure\"/>\n  </testcase>\n");
        assertCanaryRunIsRed("1 other tests", 2, String.join("", cases));
    }

    @Test
    void failingStatusLostOnTheWayTurnsTheRunRed() throws Exception {
        // The guest's step exited 1 (the canary), but the host got 0: the VM dropped it.
        TestSummary.Result result = withFailingCanary(false, 0, 5, 0, "0");
        assertStatus(1, result);
        assertLine(result, "harness self-check: FAILED: the device step exited 1 where it ran (device launcher 0,"
                + " canary 1) but ./verbs test got 0: its exit status was not honoured");
    }

    @Test
    void canaryRunThatDidNotFinishTurnsTheRunRed() throws Exception {
        deviceRun(0, 5, 0, 0);
        TestSummary.Result result = summary(false, "--device", "--step-status", "137");
        assertStatus(1, result);
        assertLine(result, "harness self-check: FAILED: the canary run did not finish (device step exit 137;"
                + " see target/device-reports/harness-canary/launcher.log)");
    }

    @Test
    void buildFailureSkipsTheDeviceRun() throws Exception {
        TestSummary.Result result = summary(true, "--unit", "--device", "--build-status", "1");
        assertStatus(1, result);
        assertLine(result, "build: FAILED (mvn exit 1); see the Maven output above");
        assertLine(result, "device run: not run: the build failed");
    }

    // ---- two hosts ----

    @Test
    void skippedTwoHostTestsFailUnderCiOnly() throws Exception {
        twoHostRun(0, 3, 0, 1, null, TWO_HOST_PASSED, TWO_HOST_SKIPPED);
        canaryFails();
        TestSummary.Result ci = summary(true, "--device", "--step-status", "1", "--where", "local device (mlx5_0)");
        assertStatus(1, ci);
        assertLine(ci, "two-host: 2 run, 0 failed, 1 skipped (no second host in this run)");
        assertLine(ci, "CI=true and 1 two-host tests were skipped: failing");
        TestSummary.Result local = summary(false, "--device", "--step-status", "1", "--where", "local device (mlx5_0)");
        assertStatus(0, local);
    }

    @Test
    void noTwoHostTestFailsUnderCi() throws Exception {
        deviceRun(0, 5, 0, 0);
        canaryFails();
        TestSummary.Result ci = summary(true, "--device", "--step-status", "1");
        assertStatus(1, ci);
        assertLine(ci, "two-host: 0 run, 0 failed, 0 skipped (no second host in this run)");
        assertLine(ci, "CI=true and no two-host test ran: failing");
    }

    @Test
    void hostBFailingTurnsTheRunRed() throws Exception {
        twoHostRun(0, 2, 0, 0, "stopped without reporting its command's exit status (qemu exit 1): boot failure or crash;"
                + " see .cache/vm/runs/x/b/console.log", TWO_HOST_PASSED);
        canaryFails();
        TestSummary.Result result = summary(false, "--device", "--step-status", "1");
        assertStatus(1, result);
        assertLine(result, "host B: FAILED: stopped without reporting its command's exit status (qemu exit 1): boot failure"
                + " or crash; see .cache/vm/runs/x/b/console.log");
    }

    @Test
    void failedTwoHostTestsAreCountedAndFailTheRun() throws Exception {
        twoHostRun(1, 3, 1, 0, "exit 0", TWO_HOST_PASSED, TWO_HOST_FAILED);
        canaryFails();
        TestSummary.Result result = summary(true, "--device", "--step-status", "1");
        assertStatus(1, result);
        assertLine(result, "two-host: 2 run, 1 failed, 0 skipped (host A 198.18.0.1 <-> host B 198.18.0.2; host B: exit 0)");
        assertLine(result, "device tests: 2 passed, 1 failed, 0 skipped");
        assertLine(result, "  FAILED UdTwoHostTest.datagramsBothWays(TwoHosts): UdPeer exited 1");
    }

    // ---- a split two-host run: host B's share of the one-host tests (HostShareSummary) ----

    private static final String QUICK_START = "dev.panamaverbs.it.QuickStartDeviceTest";
    private static final String FUZZ = "dev.panamaverbs.it.fuzz.MisuseFuzzDeviceTest";
    private static final String ALLOCATION = "dev.panamaverbs.it.device.DataPathAllocationDeviceTest";

    /** Host A's split ({@code <host> <class>} lines), as verbs-it HostShare writes it. */
    private void split(String... lines) throws IOException {
        Files.writeString(reports.resolve(HostShareSummary.SPLIT_FILE), String.join("\n", lines) + "\n");
    }

    /** Host B's share's launcher report of the given test cases and its exit status. */
    private Path hostBRun(int exit, int tests, int failures, String testcases) throws IOException {
        Path dir = Files.createDirectories(reports.resolve(HostShareSummary.HOST_B_DIR));
        launcherRun(dir, exit, tests, failures, 0, testcases);
        return dir;
    }

    private static String passed(String className) {
        return "  <testcase name=\"t()\" classname=\"" + className + "\" time=\"1\"/>\n";
    }

    /** Host A's run (QuickStart and a two-host test, passed) with the canary failing as planned; the summary under CI. */
    private TestSummary.Result splitRun() throws IOException {
        twoHostRun(0, 2, 0, 0, "exit 0", TWO_HOST_PASSED);
        canaryFails();
        return summary(true, "--device", "--step-status", "1");
    }

    /** {@link #splitRun()}, asserting that it failed. */
    private TestSummary.Result failedSplitRun() throws IOException {
        TestSummary.Result result = splitRun();
        assertStatus(1, result);
        return result;
    }

    @Test
    void hostBsShareCountsWithHostAsAndStaysGreen() throws Exception {
        split("a " + QUICK_START, "b " + FUZZ, "b " + ALLOCATION);
        hostBRun(0, 2, 0, passed(FUZZ) + passed(ALLOCATION));
        TestSummary.Result result = splitRun();
        assertStatus(0, result);
        assertLine(result, "device: 4 run, 0 failed, 0 skipped on the rxe VM (0s; reports in target/device-reports)");
        assertLine(result, "host B's share of the one-host tests: 2 classes of 3; 2 run, 0 failed, 0 skipped (launcher exit 0;"
                + " reports in target/device-reports/host-b)");
        assertLine(result, "device tests: 4 passed, 0 failed, 0 skipped");
    }

    @Test
    void testFailedOnHostBFailsTheRunAndIsNamed() throws Exception {
        split("a " + QUICK_START, "b " + FUZZ);
        hostBRun(1, 1, 1, "  <testcase name=\"useAfterClose()\" classname=\"" + FUZZ + "\" time=\"1\">"
                + "<failure message=\"child crashed\"/></testcase>\n");
        TestSummary.Result result = failedSplitRun();
        assertLine(result, "  FAILED MisuseFuzzDeviceTest.useAfterClose() on host B: child crashed");
        assertLine(result, "device tests: 2 passed, 1 failed, 0 skipped");
    }

    /** A class of either host's share that host B's report lacks fails the run, naming whose share it was. */
    @ParameterizedTest(name = "host {0}'s share")
    @ValueSource(strings = {"B", "A"})
    void classOfAHostsShareNotRunFailsTheRun(String host) throws Exception {
        split("a " + QUICK_START, host.toLowerCase(Locale.ROOT) + " " + ALLOCATION, "b " + FUZZ);
        hostBRun(0, 1, 0, passed(FUZZ));
        TestSummary.Result result = failedSplitRun();
        assertLine(result, "host B's share: FAILED: not run on host " + host + ", whose share they were: " + ALLOCATION);
    }

    @Test
    void hostBsShareThatDidNotFinishFailsTheRun() throws Exception {
        split("a " + QUICK_START, "b " + FUZZ);
        TestSummary.Result result = failedSplitRun();
        assertLineStartingWith(result, "host B's share: FAILED: host B's share did not finish");
    }

    @Test
    void hostBsShareExitingNonZeroWithoutFailureFailsTheRun() throws Exception {
        split("a " + QUICK_START, "b " + FUZZ);
        hostBRun(3, 1, 0, passed(FUZZ));
        TestSummary.Result result = failedSplitRun();
        assertLineStartingWith(result, "host B's share: FAILED: host B's share exited with 3");
    }

    @Test
    void classRunOnTheWrongHostFailsTheRun() throws Exception {
        split("a " + QUICK_START, "b " + FUZZ);
        hostBRun(0, 2, 0, passed(FUZZ) + passed(ALLOCATION));
        TestSummary.Result result = failedSplitRun();
        assertLine(result, "host B's share: FAILED: run on host B but not its share (the hosts split differently): " + ALLOCATION);
    }

    @Test
    void hostBsReportWithoutHostAsSplitFailsTheRun() throws Exception {
        hostBRun(0, 1, 0, passed(FUZZ));
        TestSummary.Result result = failedSplitRun();
        assertLine(result, "host B's share: FAILED: host A recorded no split (target/device-reports/host-share is missing)");
    }
}
