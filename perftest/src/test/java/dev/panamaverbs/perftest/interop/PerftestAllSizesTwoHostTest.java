package dev.panamaverbs.perftest.interop;

import dev.panamaverbs.it.support.PeerPairing.Outputs;
import dev.panamaverbs.it.support.TwoHostExtension;
import dev.panamaverbs.it.support.TwoHosts;
import dev.panamaverbs.perftest.interop.PerftestAllSizesPlan.Case;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code ./verbs bench --perftest-all-sizes}: perftest's {@code -a} on RC ({@code -a -n 5}, every
 * size from 2 B to 8 MiB) for send_bw, send_lat, write_bw, write_lat, read_bw and read_lat
 * between our Java twin and Debian's perftest across the two hosts, in the pairings with C
 * ({@link PerftestAllSizesPlan}), with {@link PerftestInterop}'s checks: both exit 0, the header
 * and a row for every size on both sides. Minutes a pairing under TCG, too long for the suite
 * (which runs {@code -a} on UD): tag {@value #TAG} only, so neither Surefire nor {@code ./verbs test}
 * runs it; scripts/perftest-sweep.sh launches it.
 *
 * <p>No pairing hangs: the twin waits at most its {@code --timeout} (default 300 s) for anything,
 * and the harness kills both sides after {@code VERBS_ALL_SIZES_PAIRING_SECONDS} (default 600 s),
 * failing with both outputs.
 *
 * <p>Environment: {@code VERBS_ALL_SIZES_TESTS} (comma-separated subset), {@code VERBS_ALL_SIZES_PAIRINGS}
 * (comma-separated {@code Pairing} names; default the two with C), {@code VERBS_ALL_SIZES_TWIN_TIMEOUT}
 * (seconds), {@code VERBS_ALL_SIZES_PAIRING_SECONDS}.
 */
@Tag(PerftestAllSizesTwoHostTest.TAG)
@ExtendWith(TwoHostExtension.class)
class PerftestAllSizesTwoHostTest {
    static final String TAG = "perftest-all-sizes";
    private static final int ITERATIONS = 5;
    /** perftest's largest size of {@code -a} on RC: its rows are printed for the record. */
    private static final String LARGEST_ROW = " " + (1 << 23) + " ";

    static Stream<Case> cases() {
        return PerftestAllSizesPlan.cases(System.getenv("VERBS_ALL_SIZES_TESTS"), System.getenv("VERBS_ALL_SIZES_PAIRINGS")).stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void allSizes(Case run, TwoHosts hosts) throws Exception {
        Duration twinTimeout = Duration.ofSeconds(seconds("VERBS_ALL_SIZES_TWIN_TIMEOUT", 300));
        Duration pairingTimeout = Duration.ofSeconds(seconds("VERBS_ALL_SIZES_PAIRING_SECONDS", 600));
        PerftestInterop interop = new PerftestInterop(run.test(), PerftestInterop.ALL_SIZES, ITERATIONS, twinTimeout, pairingTimeout) {
            @Override
            void passed(Outputs outputs) {
                System.out.println("==> " + run + ": 8 MiB rows, server " + largestRows(outputs.server())
                        + ", client " + largestRows(outputs.client()));
            }
        };
        long start = System.nanoTime();
        String verdict = "failed";
        try {
            interop.pairOn(hosts, run.pairing());
            verdict = "passed";
        } finally {
            System.out.printf("==> %s: %s in %.1f s%n", run, verdict, (System.nanoTime() - start) / 1e9);
        }
    }

    private static List<String> largestRows(String output) {
        return output.lines().filter(line -> line.startsWith(LARGEST_ROW)).map(String::strip).toList();
    }

    private static long seconds(String name, long fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : Long.parseLong(value.strip());
    }
}
