package dev.panamaverbs.harness;

import java.util.Collection;

/** What JUnit XML reports count: tests run, failed (failures and errors) and skipped. */
record TestCounts(int total, int failed, int skipped) {
    static final TestCounts NONE = new TestCounts(0, 0, 0);

    int passed() {
        return total - failed - skipped;
    }

    /** Passed or failed: the tests that really ran on a device, as opposed to skipped. */
    int ran() {
        return passed() + failed;
    }

    TestCounts plus(TestCounts other) {
        return new TestCounts(total + other.total, failed + other.failed, skipped + other.skipped);
    }

    static TestCounts of(Collection<JUnitReport> reports) {
        return reports.stream().map(JUnitReport::counts).reduce(NONE, TestCounts::plus);
    }
}
