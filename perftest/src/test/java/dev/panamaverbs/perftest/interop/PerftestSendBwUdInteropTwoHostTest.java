package dev.panamaverbs.perftest.interop;

import java.util.List;

/**
 * {@code send_bw -c UD} between our Java twin and Debian's perftest, both ways and Java with Java
 * ({@link PerftestInterop}). 100 messages, fewer than the receiver's 512 receives posted up front:
 * UD drops a message that finds no receive, and with 1000 a C client outran our C1-only test
 * server's reposting (12 lost; the server then failed after its 60 s bound; it now gives up
 * through perftest's liveness alarm and prints a row of what it received, which this test counts as
 * a failure too).
 */
class PerftestSendBwUdInteropTwoHostTest extends PerftestInterop {
    PerftestSendBwUdInteropTwoHostTest() {
        super("send_bw", 512, 100, List.of("-c", "UD"));
    }
}
