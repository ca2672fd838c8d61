package dev.panamaverbs.perftest.interop;

import java.util.List;

/**
 * {@code send_bw -a -c UD} between our Java twin and Debian's perftest, both ways and Java with
 * Java ({@link PerftestInterop}): every size from 2 B to the MTU (perftest's own bound of
 * {@code -a} on UD; 1024 B on the VMs' link), 5 messages each, a row each on both sides. perftest
 * makes a hand shake after each size's report (docs/perftest-protocol.md); a side that did not
 * would leave both waiting from the second size. On RC {@code -a} runs to 8 MiB: too slow and,
 * with 8192 packets a message, too exposed to rxe's stalls under TCG for the suite (one RC run's
 * results are in docs/perftest-protocol.md).
 */
class PerftestSendBwAllSizesInteropTwoHostTest extends PerftestInterop {
    PerftestSendBwAllSizesInteropTwoHostTest() {
        super("send_bw", ALL_SIZES, 5, List.of("-c", "UD"));
    }
}
