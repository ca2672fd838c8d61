package dev.panamaverbs.perftest.interop;

/** {@code atomic_lat} between our Java twin and Debian's perftest, both ways and Java with Java ({@link PerftestInterop}). */
class PerftestAtomicLatInteropTwoHostTest extends PerftestInterop {
    PerftestAtomicLatInteropTwoHostTest() {
        super("atomic_lat", 8, 1000);
    }
}
