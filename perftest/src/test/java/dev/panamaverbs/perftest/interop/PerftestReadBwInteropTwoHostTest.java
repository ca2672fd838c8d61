package dev.panamaverbs.perftest.interop;

/** {@code read_bw} between our Java twin and Debian's perftest, both ways and Java with Java ({@link PerftestInterop}). */
class PerftestReadBwInteropTwoHostTest extends PerftestInterop {
    PerftestReadBwInteropTwoHostTest() {
        super("read_bw", 1024, 1000);
    }
}
