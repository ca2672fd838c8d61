package dev.panamaverbs.perftest.interop;

/** {@code write_lat -R} (rdma_cm) between our Java twin and Debian's perftest, both ways and Java with Java ({@link PerftestInterop}). */
class PerftestWriteLatCmInteropTwoHostTest extends PerftestInterop {
    PerftestWriteLatCmInteropTwoHostTest() {
        super("write_lat", 2, 20, true);
    }
}
