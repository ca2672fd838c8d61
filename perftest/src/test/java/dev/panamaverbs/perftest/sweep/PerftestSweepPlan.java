package dev.panamaverbs.perftest.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * The schedule of the two-host perftest sweep ({@link PerftestSweepTwoHostTest}): for each round,
 * each test, each of the four pairings (C/C, Java/Java, Java client with C server, C client with
 * Java server) one step, the server on host B and the client on host A. A step runs every size
 * of its test; each size is its own connection (a C tool is one process per size, the Java twin
 * one process for all of them, {@code --sizes}), on port {@code port + i} for size {@code i}.
 * Odd rounds take the pairings in reverse order, so that no pairing always runs first.
 *
 * @param tests  the tests ({@code write_lat} ...)
 * @param rounds how many times each pairing runs each test
 */
record PerftestSweepPlan(List<String> tests, int rounds) {
    /** The tests of ./verbs bench --perftest. */
    static final List<String> TESTS = List.of("write_lat", "send_lat", "write_bw", "send_bw");
    /**
     * The one-sided latency tests, run only when {@code VERBS_SWEEP_TESTS} names them (issue 22's
     * READ and atomic ratios): the server takes no part, so a pairing's ratio is its client's.
     */
    static final List<String> ONE_SIDED_TESTS = List.of("read_lat", "atomic_lat");
    /** The first step's first port; each step takes {@value #PORTS_PER_STEP}. */
    static final int FIRST_PORT = 18700;
    static final int PORTS_PER_STEP = 8; // the warm-up and at most five sizes

    /** Who runs which side. */
    enum Pairing {
        C_C("C/C", false, false),
        JAVA_JAVA("Java/Java", true, true),
        JAVA_CLIENT_C_SERVER("Java client / C server", true, false),
        C_CLIENT_JAVA_SERVER("C client / Java server", false, true);

        final String label;
        final boolean javaClient;
        final boolean javaServer;

        Pairing(String label, boolean javaClient, boolean javaServer) {
            this.label = label;
            this.javaClient = javaClient;
            this.javaServer = javaServer;
        }
    }

    /**
     * One message size and its iterations ({@code -n}); a warm-up size is run like the others and
     * left out of the results.
     */
    record Size(int bytes, int iterations, boolean warmUp) {
        Size(int bytes, int iterations) {
            this(bytes, iterations, false);
        }
    }

    /**
     * The first connection of every step, not measured: a Java side runs all its sizes in one JVM,
     * and without it the first measured size ran while the JIT was still compiling (2 B came out at
     * 2.4-6x C/C in the first full sweep, under TCG, where C2 takes seconds). 32 B, which no
     * measured size uses; every pairing runs it, C too, so each step does the same work.
     */
    static final Size WARM_UP = new Size(32, 10_000, true);
    /** atomic_lat's warm-up: its one size, 8 B (perftest refuses any other), as many iterations as {@link #WARM_UP}. */
    static final Size ATOMIC_WARM_UP = new Size(8, 10_000, true);

    /** One step: {@code test} between {@code pairing} over {@code sizes}, from port {@code port}. */
    record Step(int index, int round, String test, Pairing pairing, int port, List<Size> sizes) {
        /** The Java twin's {@code --sizes} value: {@code 2:1000,64:1000,...}. */
        String sizesOption() {
            StringJoiner joined = new StringJoiner(",");
            sizes.forEach(size -> joined.add(size.bytes() + ":" + size.iterations()));
            return joined.toString();
        }

        /**
         * The client's {@code rows} without the warm-up's, by position: row i is of size i (a
         * client stops at its first failure, so its rows are a prefix of the sizes), since
         * atomic_lat's warm-up has the measured size. A row whose size is not its position's is
         * left out too: a failed step's stray row is no sample of another size.
         */
        List<PerftestRows.Row> measured(List<PerftestRows.Row> rows) {
            List<PerftestRows.Row> measured = new ArrayList<>();
            for (int i = 0; i < rows.size() && i < sizes.size(); i++) {
                if (!sizes.get(i).warmUp() && sizes.get(i).bytes() == rows.get(i).size()) {
                    measured.add(rows.get(i));
                }
            }
            return measured;
        }
    }

    PerftestSweepPlan {
        tests = List.copyOf(tests);
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be at least 1, got " + rounds);
        }
        for (String test : tests) {
            if (!TESTS.contains(test) && !ONE_SIDED_TESTS.contains(test)) {
                throw new IllegalArgumentException("not a test of the sweep: " + test + " (" + TESTS + ", " + ONE_SIDED_TESTS + ")");
            }
        }
    }

    /**
     * The sizes of {@code test} and their iterations, after {@link #WARM_UP}: 2 B to 64 KiB, fewer iterations for the
     * large ones so that a step stays in seconds under TCG (about 6 MB/s across the link).
     * write_lat stops at 4 KiB: a 64 KiB {@code ib_write_lat} against itself across the emulated
     * link did not finish in 180 s in the first sweep (benchmarks/README.md), where 4 KiB took
     * 1.2 s and 64 KiB {@code ib_send_lat} 19 s. read_lat runs 2 B to 4 KiB at perftest's default
     * 1000 iterations; atomic_lat runs its one size, 8 B, after {@link #ATOMIC_WARM_UP}.
     */
    static List<Size> sizes(String test) {
        if (test.equals("atomic_lat")) {
            return List.of(ATOMIC_WARM_UP, new Size(8, 1000));
        }
        if (test.equals("read_lat")) {
            return List.of(WARM_UP, new Size(2, 1000), new Size(64, 1000), new Size(1024, 1000), new Size(4096, 1000));
        }
        if (test.equals("write_lat")) {
            return List.of(WARM_UP, new Size(2, 1000), new Size(64, 1000), new Size(1024, 1000), new Size(4096, 500));
        }
        if (test.endsWith("_lat")) {
            return List.of(WARM_UP, new Size(2, 1000), new Size(64, 1000), new Size(1024, 1000), new Size(4096, 500),
                    new Size(65536, 100));
        }
        return List.of(WARM_UP, new Size(2, 2000), new Size(64, 2000), new Size(1024, 2000), new Size(4096, 1000),
                new Size(65536, 200));
    }

    /** The steps in the order they run. */
    List<Step> steps() {
        List<Step> steps = new ArrayList<>();
        List<Pairing> forward = List.of(Pairing.values());
        for (int round = 0; round < rounds; round++) {
            List<Pairing> order = round % 2 == 0 ? forward : forward.reversed();
            for (String test : tests) {
                for (Pairing pairing : order) {
                    int index = steps.size();
                    steps.add(new Step(index, round, test, pairing, FIRST_PORT + index * PORTS_PER_STEP, sizes(test)));
                }
            }
        }
        return steps;
    }
}
