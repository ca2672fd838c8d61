package dev.panamaverbs.perftest.interop;

import java.util.List;

/**
 * {@code write_bw -l 4} (four requests per post list) between our Java twin and Debian's perftest,
 * both ways and Java with Java ({@link PerftestInterop}).
 */
class PerftestWriteBwPostListInteropTwoHostTest extends PerftestInterop {
    PerftestWriteBwPostListInteropTwoHostTest() {
        super("write_bw", 1024, 1000, List.of("-l", "4"));
    }
}
