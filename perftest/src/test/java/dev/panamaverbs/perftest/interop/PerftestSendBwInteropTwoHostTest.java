package dev.panamaverbs.perftest.interop;

/** {@code send_bw} between our Java twin and Debian's perftest, both ways and Java with Java ({@link PerftestInterop}). */
class PerftestSendBwInteropTwoHostTest extends PerftestInterop {
    PerftestSendBwInteropTwoHostTest() {
        super("send_bw", 1024, 1000);
    }
}
