package dev.panamaverbs.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Host B's share of the one-host device tests in a split two-host run (verbs-it HostShare;
 * scripts/device-run.sh): host A's launcher wrote the split ({@value #SPLIT_FILE}: {@code <host>
 * <class>} a line) next to its report, host B's launcher its report and exit status in
 * {@value #HOST_B_DIR}/. B's tests count with A's; the run is red when B's share did not finish or
 * exited non-zero with no failed test, when a class of the split has no test in its host's report
 * (not run), or when B ran a class that was not its share (the hosts split differently).
 */
final class HostShareSummary {
    /** The split host A's launcher writes (verbs-it HostShare.SPLIT_FILE_PROPERTY, set by device-run.sh). */
    static final String SPLIT_FILE = "host-share";
    /** Host B's share's reports and exit status, under the reports folder. */
    static final String HOST_B_DIR = "host-b";

    /**
     * What B's share adds to the summary.
     *
     * @param report B's launcher report, when there is one
     * @param lines  the summary lines
     * @param red    whether they turn the run red
     */
    record Result(Optional<JUnitReport> report, List<String> lines, boolean red) {
        TestCounts counts() {
            return report.map(JUnitReport::counts).orElse(TestCounts.NONE);
        }
    }

    private HostShareSummary() {}

    /**
     * B's share, checked against the split and host A's report; empty when the run was not split.
     *
     * @param hostA host A's launcher report, or null when there is none (the run is red already)
     */
    static Optional<Result> of(TestRun run, JUnitReport hostA) {
        Path splitFile = run.reports().resolve(SPLIT_FILE);
        Path dir = run.reports().resolve(HOST_B_DIR);
        if (!Files.isRegularFile(splitFile) && !Files.isDirectory(dir)) {
            return Optional.empty();
        }
        List<String> lines = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<String, String> split = Files.isRegularFile(splitFile) ? readSplit(splitFile) : Map.of();
        if (!Files.isRegularFile(splitFile)) {
            problems.add("host A recorded no split (" + run.shown(splitFile) + " is missing)");
        }
        Path file = dir.resolve(TestRun.LAUNCHER_REPORT);
        Optional<JUnitReport> report = Files.isRegularFile(file) ? Optional.of(JUnitReport.read(file)) : Optional.empty();
        Optional<Integer> exit = Files.isDirectory(dir) ? TestRun.recordedExit(dir) : Optional.empty();
        Set<String> shareB = classesOf(split, "b");
        if (exit.isEmpty() && (!shareB.isEmpty() || Files.isDirectory(dir))) {
            problems.add("host B's share did not finish (no " + run.shown(dir.resolve(TestRun.LAUNCHER_EXIT)) + "; see "
                    + run.shown(dir.resolve("launcher.log")) + " and host B's console)");
        }
        TestCounts counts = report.map(JUnitReport::counts).orElse(TestCounts.NONE);
        if (exit.isPresent() && exit.get() != 0 && counts.failed() == 0) {
            problems.add("host B's share exited with " + exit.get() + " although no test failed (see "
                    + run.shown(dir.resolve("launcher.log")) + ")");
        }
        Set<String> ranOnB = report.map(r -> new TreeSet<>(r.testClasses())).orElse(new TreeSet<>());
        Set<String> notRunB = new TreeSet<>(shareB);
        notRunB.removeAll(ranOnB);
        if (!notRunB.isEmpty() && exit.isPresent()) {
            problems.add("not run on host B, whose share they were: " + String.join(", ", notRunB));
        }
        if (hostA != null) {
            Set<String> notRunA = classesOf(split, "a");
            notRunA.removeAll(hostA.testClasses());
            if (!notRunA.isEmpty()) {
                problems.add("not run on host A, whose share they were: " + String.join(", ", notRunA));
            }
        }
        Set<String> strays = new TreeSet<>(ranOnB);
        strays.removeAll(shareB);
        if (!strays.isEmpty()) {
            problems.add("run on host B but not its share (the hosts split differently): " + String.join(", ", strays));
        }
        lines.add("host B's share of the one-host tests: " + shareB.size() + " classes of " + split.size() + "; " + counts.total()
                + " run, " + counts.failed() + " failed, " + counts.skipped() + " skipped (launcher exit "
                + exit.map(String::valueOf).orElse("not recorded") + "; reports in " + run.shown(dir) + ")");
        problems.forEach(problem -> lines.add("host B's share: FAILED: " + problem));
        return Optional.of(new Result(report, lines, !problems.isEmpty()));
    }

    private static Set<String> classesOf(Map<String, String> split, String host) {
        return split.entrySet().stream().filter(entry -> entry.getValue().equals(host)).map(Map.Entry::getKey)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** Each class's host, from {@code <host> <class>} lines. */
    private static Map<String, String> readSplit(Path file) {
        Map<String, String> split = new TreeMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                if (line.isBlank()) {
                    continue;
                }
                String[] fields = line.strip().split(" ");
                if (fields.length != 2 || !(fields[0].equals("a") || fields[0].equals("b"))) {
                    throw new HarnessException("unreadable line in " + file + ": " + line);
                }
                split.put(fields[1], fields[0]);
            }
        } catch (IOException e) {
            throw new HarnessException("cannot read the split in " + file + ": " + e.getMessage(), e);
        }
        return split;
    }
}
