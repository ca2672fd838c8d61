package dev.panamaverbs.perftest.interop;

/** {@code send_lat -R} (rdma_cm) between our Java twin and Debian's perftest, both ways and Java with Java ({@link PerftestInterop}). */
class PerftestSendLatCmInteropTwoHostTest extends PerftestInterop {
    PerftestSendLatCmInteropTwoHostTest() {
        super("send_lat", 2, 20, true);
    }
}
