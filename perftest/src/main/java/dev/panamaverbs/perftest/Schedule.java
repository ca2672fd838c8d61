package dev.panamaverbs.perftest;

/**
 * How many hand shakes (one key message each way) perftest 4.5-0.17 makes where, per test, as
 * its {@code main}s do them (docs/perftest-protocol.md); the rest of the order is {@link Session}'s.
 */
final class Schedule {
    private Schedule() {}

    /**
     * Whether the hand shake after RTR comes between perftest's two per-QP key-exchange loops
     * (the queue pairs are connected after the first): ib_send_bw's order (key messages, RTR/RTS,
     * hand shake, key messages; send_bw.c's {@code main}); the WRITE, READ and atomic tests make it
     * after both loops. With one queue pair (every latency test) both orders put the same bytes
     * on the wire; with
     * {@code -q 2} ib_send_bw sends QP0, QP1, QP0, QP0, QP1 (its 3rd and 4th messages both the
     * first queue pair's, as seen on the wire), where read_bw sends QP0, QP1, QP0, QP1, QP0.
     */
    static boolean handShakeAfterRtrBetweenKeyLoops(TestKind test) {
        return test.verb() == TestKind.Verb.SEND;
    }

    /**
     * Hand shakes after the one after RTR and before the test: ib_write_lat, ib_read_lat and
     * ib_atomic_lat make one more (4 before their run, on the wire); ib_send_lat instead makes its
     * hand shake after posting receives, per size.
     */
    static int extraHandShakesBeforeRun(TestKind test) {
        return switch (test) {
            case WRITE_LAT, READ_LAT, ATOMIC_LAT -> 1;
            default -> 0;
        };
    }

    /** Whether a latency test ends with {@code ctx_close_connection} (ib_write_lat just exits). */
    static boolean closesLatency(TestKind test) {
        return test != TestKind.WRITE_LAT;
    }

    /**
     * Whether the test makes one more hand shake after each size's report when it runs every
     * size ({@code -a}): ib_send_bw does (its {@code RUN_ALL} loop: receives, hand shake, run,
     * report, hand shake); ib_send_lat does not (receives, hand shake, run, report), and the
     * WRITE, READ and atomic tests run their sizes without the server.
     */
    static boolean handShakeAfterEachSize(TestKind test, boolean allSizes) {
        return allSizes && test == TestKind.SEND_BW;
    }

    /**
     * Whether, on UD with {@code -R}, the client sends its QPN in one datagram after the
     * resolution answered it, for the server to learn where to send: only where the server sends,
     * the latency tests and bandwidth with {@code -b} (perftest's
     * {@code (tst == BW && duplex) || tst == LAT} in {@code rdma_cm_establish_ud_connection}).
     */
    static boolean clientSendsQpnDatagram(PerftestOptions o) {
        return o.rdmaCm() && o.connection() == PerftestOptions.Connection.UD && (o.test().isLatency() || o.duplex());
    }
}
