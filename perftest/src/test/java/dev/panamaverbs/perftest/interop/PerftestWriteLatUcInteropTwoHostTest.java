package dev.panamaverbs.perftest.interop;

import java.util.List;

/** {@code write_lat -c UC} between our Java twin and Debian's perftest, both ways and Java with Java ({@link PerftestInterop}). */
class PerftestWriteLatUcInteropTwoHostTest extends PerftestInterop {
    PerftestWriteLatUcInteropTwoHostTest() {
        super("write_lat", 64, 1000, List.of("-c", "UC"));
    }
}
