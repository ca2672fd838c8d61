package dev.panamaverbs.perftest.interop;

import java.util.List;

/**
 * {@code send_bw -a} between our Java twin and Debian's perftest, both ways and Java with Java
 * ({@link PerftestInterop}): every size from 2 B to 8 MiB, 5 messages each, a row each on both
 * sides. perftest makes a hand shake after each size's report (docs/perftest-protocol.md); a side
 * that did not would leave both waiting.
 */
class PerftestSendBwAllSizesInteropTwoHostTest extends PerftestInterop {
    PerftestSendBwAllSizesInteropTwoHostTest() {
        super("send_bw", ALL_SIZES, 5, List.of());
    }
}
