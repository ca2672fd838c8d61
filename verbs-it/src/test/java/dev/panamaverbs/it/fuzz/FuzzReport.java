package dev.panamaverbs.it.fuzz;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The line format a misuse-fuzz child ({@link MisuseFuzz}) prints on stdout and its parent
 * ({@link MisuseFuzzDeviceTest}) parses, one fact per line, every line starting with
 * {@value #PREFIX}:
 * <pre>
 * FUZZ seed 12345
 * FUZZ case useAfterClose/QueuePair.query() refused IllegalStateException
 * FUZZ case absurdSizes/createCompletionQueue(-1) UNEXPECTED NullPointerException: ...
 * FUZZ hang closeRace/round 3
 * FUZZ skip capability CONNECT_WITHOUT_CM: siw0 reports transport IWARP
 * FUZZ leaks none
 * FUZZ done 412
 * </pre>
 * A case's outcome is {@code clean} (it returned), {@code refused} (an exception the case
 * expects, named) or {@code UNEXPECTED} (anything else, with its message). A {@code skip} line
 * is a part of the category the device cannot run, with the reason.
 */
record FuzzReport(long cases, Map<String, Long> outcomes, List<String> unexpected, List<String> hangs,
                  List<String> skips, String leaks, long done) {
    static final String PREFIX = "FUZZ ";
    static final String CLEAN = "clean";
    static final String REFUSED = "refused";
    static final String UNEXPECTED = "UNEXPECTED";

    static String caseLine(String name, String outcome, String detail) {
        return PREFIX + "case " + name.replace(' ', '_') + " " + outcome + (detail.isEmpty() ? "" : " " + oneLine(detail));
    }

    static String hangLine(String name) {
        return PREFIX + "hang " + name.replace(' ', '_');
    }

    static String skipLine(String reason) {
        return PREFIX + "skip " + oneLine(reason);
    }

    static String leaksLine(String leaks) {
        return PREFIX + "leaks " + oneLine(leaks);
    }

    static String doneLine(long cases) {
        return PREFIX + "done " + cases;
    }

    static String seedLine(long seed) {
        return PREFIX + "seed " + seed;
    }

    private static String oneLine(String text) {
        return String.valueOf(text).replace('\n', ' ').replace('\r', ' ');
    }

    /** The report in a child's output; {@code leaks} is null and {@code done} -1 when those lines are missing. */
    static FuzzReport parse(String output) {
        long cases = 0;
        long done = -1;
        String leaks = null;
        Map<String, Long> outcomes = new LinkedHashMap<>();
        List<String> unexpected = new ArrayList<>();
        List<String> hangs = new ArrayList<>();
        List<String> skips = new ArrayList<>();
        for (String line : output.split("\n")) {
            if (!line.startsWith(PREFIX)) {
                continue;
            }
            String[] words = line.substring(PREFIX.length()).split(" ", 4);
            switch (words[0]) {
                case "case" -> {
                    cases++;
                    String outcome = words.length > 2 ? words[2] : "?";
                    outcomes.merge(outcome, 1L, Long::sum);
                    if (!outcome.equals(CLEAN) && !outcome.equals(REFUSED)) {
                        unexpected.add(line);
                    }
                }
                case "hang" -> hangs.add(words[1]);
                case "skip" -> skips.add(line.substring(PREFIX.length() + "skip ".length()));
                case "leaks" -> leaks = line.substring(PREFIX.length() + "leaks ".length());
                case "done" -> done = Long.parseLong(words[1]);
                default -> { }
            }
        }
        return new FuzzReport(cases, outcomes, unexpected, hangs, skips, leaks, done);
    }
}
