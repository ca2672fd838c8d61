package dev.panamaverbs.perftest.interop;

/** {@code read_lat} between our Java twin and Debian's perftest, both ways and Java with Java ({@link PerftestInterop}). */
class PerftestReadLatInteropTwoHostTest extends PerftestInterop {
    PerftestReadLatInteropTwoHostTest() {
        super("read_lat", 64, 1000);
    }
}
