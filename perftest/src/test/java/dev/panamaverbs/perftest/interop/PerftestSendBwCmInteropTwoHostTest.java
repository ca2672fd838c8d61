package dev.panamaverbs.perftest.interop;

/** {@code send_bw -R} (rdma_cm) between our Java twin and Debian's perftest, both ways and Java with Java ({@link PerftestInterop}). */
class PerftestSendBwCmInteropTwoHostTest extends PerftestInterop {
    PerftestSendBwCmInteropTwoHostTest() {
        super("send_bw", 1024, 1000, true);
    }
}
