package dev.panamaverbs.perftest.interop;

import dev.panamaverbs.it.support.InteropPairingTests.Pairing;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What {@link PerftestAllSizesTwoHostTest} runs: each test of {@link #TESTS} (or the subset
 * named) in each pairing named, by default the two with Debian's perftest on one side
 * ({@link Pairing#withC}); Java with Java runs only when named.
 */
final class PerftestAllSizesPlan {
    /** The RC tests with {@code -a}, in the order they run. */
    static final List<String> TESTS = List.of("send_bw", "send_lat", "write_bw", "write_lat", "read_bw", "read_lat");

    /** One pairing of one test. */
    record Case(String test, Pairing pairing) {
        @Override
        public String toString() {
            return test + " -a, " + pairing.label();
        }
    }

    private PerftestAllSizesPlan() {}

    /**
     * The cases, test by test, each in the pairings' order.
     *
     * @param tests comma-separated tests of {@link #TESTS}, or null or blank for all of them
     * @param pairings comma-separated {@link Pairing} names, or null or blank for {@link Pairing#withC}
     */
    static List<Case> cases(String tests, String pairings) {
        List<String> testList = blank(tests) ? TESTS : split(tests);
        for (String test : testList) {
            if (!TESTS.contains(test)) {
                throw new IllegalArgumentException("unknown test " + test + " (one of " + TESTS + ")");
            }
        }
        List<Pairing> pairingList = blank(pairings) ? Pairing.withC() : split(pairings).stream().map(Pairing::valueOf).toList();
        List<Case> cases = new ArrayList<>();
        for (String test : testList) {
            for (Pairing pairing : pairingList) {
                cases.add(new Case(test, pairing));
            }
        }
        return cases;
    }

    private static boolean blank(String list) {
        return list == null || list.isBlank();
    }

    private static List<String> split(String list) {
        return Arrays.stream(list.split(",")).map(String::strip).toList();
    }
}
