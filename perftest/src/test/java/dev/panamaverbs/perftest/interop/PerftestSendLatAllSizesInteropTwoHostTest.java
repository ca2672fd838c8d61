package dev.panamaverbs.perftest.interop;

import java.util.List;

/**
 * {@code send_lat -a -c UD} between our Java twin and Debian's perftest, both ways and Java with
 * Java ({@link PerftestInterop}): every size from 2 B to the MTU, 5 round trips each. Each size
 * posts its receives again; a side that left the last size's receives posted would find no room
 * (ENOMEM from {@code ibv_post_recv}, as the twin did before issue 22). UD, not RC, for the
 * reason {@link PerftestSendBwAllSizesInteropTwoHostTest} gives.
 */
class PerftestSendLatAllSizesInteropTwoHostTest extends PerftestInterop {
    PerftestSendLatAllSizesInteropTwoHostTest() {
        super("send_lat", ALL_SIZES, 5, List.of("-c", "UD"));
    }
}
