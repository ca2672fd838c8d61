package dev.panamaverbs.perftest.interop;

/** {@code write_lat} between our Java twin and Debian's perftest, both ways and Java with Java ({@link PerftestInterop}). */
class PerftestWriteLatInteropTwoHostTest extends PerftestInterop {
    PerftestWriteLatInteropTwoHostTest() {
        super("write_lat", 2, 20);
    }
}
