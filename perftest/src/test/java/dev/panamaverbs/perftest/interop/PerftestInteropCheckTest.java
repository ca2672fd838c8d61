package dev.panamaverbs.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.it.support.PeerPairing.Outputs;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link PerftestInterop#check} on outputs shaped as the two-VM run of RC {@code -a -n 5} printed them. */
class PerftestInteropCheckTest {
    private static final List<Integer> ALL = allSizes();
    private static final List<Integer> LAST = List.of(ALL.getLast());

    @Test
    void aWriteOrReadBandwidthServerReportsOnlyTheLastSize() {
        for (String test : List.of("write_bw", "read_bw")) {
            assertDoesNotThrow(() -> interop(test).check(new Outputs(bandwidth(LAST), bandwidth(ALL))), test);
        }
    }

    @Test
    void aWriteBandwidthServerWithARowForEverySizeIsNotPerftests() {
        AssertionError error = assertThrows(AssertionError.class, () -> interop("write_bw").check(new Outputs(bandwidth(ALL), bandwidth(ALL))));
        assertTrue(error.getMessage().startsWith("server: a row for 2 bytes"), error.getMessage());
    }

    @Test
    void theClientNeedsARowForEverySize() {
        List<Integer> missing = new ArrayList<>(ALL);
        missing.remove(Integer.valueOf(4096));
        AssertionError error = assertThrows(AssertionError.class, () -> interop("write_bw").check(new Outputs(bandwidth(LAST), bandwidth(missing))));
        assertTrue(error.getMessage().startsWith("client: no result row for 4096 bytes"), error.getMessage());
    }

    @Test
    void aSendBandwidthServerNeedsARowForEverySize() {
        AssertionError error = assertThrows(AssertionError.class, () -> interop("send_bw").check(new Outputs(bandwidth(LAST), bandwidth(ALL))));
        assertTrue(error.getMessage().startsWith("server: no result row for 2 bytes"), error.getMessage());
        assertDoesNotThrow(() -> interop("send_bw").check(new Outputs(bandwidth(ALL), bandwidth(ALL))));
    }

    private static PerftestInterop interop(String test) {
        return new PerftestInterop(test, PerftestInterop.ALL_SIZES, 5) {};
    }

    /** A bandwidth side's output: the remote address line, then the table with a row for each of {@code sizes}. */
    private static String bandwidth(List<Integer> sizes) {
        StringBuilder out = new StringBuilder(" remote address: LID 0000 QPN 0x0015 PSN 0xe02e12 RKey 0x000613 VAddr 0x007f3cc49d8000\n");
        out.append("---------------------------------------------------------------------------------------\n");
        out.append(PerftestInterop.BANDWIDTH_HEADER).append('\n');
        for (int size : sizes) {
            out.append(String.format(" %-10d %-5d            6.75               6.75   \t\t   0.000001%n", size, 5));
        }
        return out.append("---------------------------------------------------------------------------------------\n").toString();
    }

    private static List<Integer> allSizes() {
        List<Integer> sizes = new ArrayList<>();
        for (int size = 2; size <= 1 << 23; size *= 2) {
            sizes.add(size);
        }
        return sizes;
    }
}
