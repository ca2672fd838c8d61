package dev.panamaverbs.perftest.interop;

/** {@code write_bw} between our Java twin and Debian's perftest, both ways and Java with Java ({@link PerftestInterop}). */
class PerftestWriteBwInteropTwoHostTest extends PerftestInterop {
    PerftestWriteBwInteropTwoHostTest() {
        super("write_bw", 1024, 1000);
    }
}
