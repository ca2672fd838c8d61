package dev.panamaverbs.perftest.interop;

/** {@code atomic_bw} between our Java twin and Debian's perftest, both ways and Java with Java ({@link PerftestInterop}). */
class PerftestAtomicBwInteropTwoHostTest extends PerftestInterop {
    PerftestAtomicBwInteropTwoHostTest() {
        super("atomic_bw", 8, 1000);
    }
}
