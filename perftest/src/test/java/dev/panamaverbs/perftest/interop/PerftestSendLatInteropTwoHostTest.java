package dev.panamaverbs.perftest.interop;

/** {@code send_lat} between our Java twin and Debian's perftest, both ways and Java with Java ({@link PerftestInterop}). */
class PerftestSendLatInteropTwoHostTest extends PerftestInterop {
    PerftestSendLatInteropTwoHostTest() {
        super("send_lat", 2, 1000);
    }
}
