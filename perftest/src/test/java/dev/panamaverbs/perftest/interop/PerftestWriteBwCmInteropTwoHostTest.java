package dev.panamaverbs.perftest.interop;

/** {@code write_bw -R} (rdma_cm) between our Java twin and Debian's perftest, both ways and Java with Java ({@link PerftestInterop}). */
class PerftestWriteBwCmInteropTwoHostTest extends PerftestInterop {
    PerftestWriteBwCmInteropTwoHostTest() {
        super("write_bw", 1024, 1000, true);
    }
}
