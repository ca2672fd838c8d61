package dev.panamaverbs.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.panamaverbs.it.support.CrossPairing;
import dev.panamaverbs.it.support.PeerHost;
import dev.panamaverbs.it.support.RdmaCmSupport;
import dev.panamaverbs.it.support.TwoHostTest;
import dev.panamaverbs.it.support.TwoHosts;
import org.opentest4j.TestAbortedException;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of {@link PerftestOptionTable} between our Java twin and Debian's perftest 4.5 across
 * the two hosts, in both directions (Java with Java is left to the other interop tests): each row
 * must give both sides exit 0, perftest's header (Gb/s with {@code --report_gbits}) and a row of
 * the size and iterations with the figures perftest prints ({@link PerftestInterop#pair}). Every
 * row runs even when one fails; the test prints one line per row and direction, then fails naming
 * the rows that did not pass. The two directions run at the same time ({@link CrossPairing}).
 * (The twin's classes are not on the device tests' class path: it runs from its jar, as a job
 * of each host's resident twin, {@code ResidentTwins}; the options it refuses are checked by
 * {@code PerftestOptionTableTest}.)
 */
class PerftestOptionTableInteropTwoHostTest {
    @TwoHostTest
    @CrossPairing
    void javaServerWithCClient(TwoHosts hosts) throws Exception {
        runRows(hosts, true);
    }

    @TwoHostTest
    @CrossPairing
    void cServerWithJavaClient(TwoHosts hosts) throws Exception {
        runRows(hosts, false);
    }

    private static void runRows(TwoHosts hosts, boolean javaServer) throws Exception {
        RdmaCmSupport.requireRdmaCm();
        String direction = javaServer ? "java server, C client" : "C server, java client";
        List<String> failed = new ArrayList<>();
        for (PerftestOptionTable.Row row : PerftestOptionTable.ROWS) {
            String label = "ib_" + row.test() + " -s " + row.size() + " -n " + row.iterations() + " "
                    + String.join(" ", row.options());
            PerftestInterop pairing = new PerftestInterop(row.test(), row.size(), row.iterations(), row.options()) { };
            try {
                pairing.pair(hosts.device().name(), PeerHost.hostB(hosts), PeerHost.hostA(hosts), javaServer, !javaServer);
                System.out.println("option table: " + label + " (" + direction + "): pass");
            } catch (TestAbortedException e) {
                System.out.println("option table: " + label + " (" + direction + "): skipped: " + e.getMessage());
            } catch (AssertionError | Exception e) {
                System.out.println("option table: " + label + " (" + direction + "): FAILED: " + e.getMessage());
                failed.add(label);
            }
        }
        assertEquals(List.of(), failed, "option-table rows that failed (" + direction + ")");
    }
}
