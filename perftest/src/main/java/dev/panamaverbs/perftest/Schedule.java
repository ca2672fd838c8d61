package dev.panamaverbs.perftest;

/**
 * How many hand shakes (one key message each way) perftest 4.5-0.17 makes where, per test, as
 * its {@code main}s do them (docs/perftest-protocol.md); the rest of the order is {@link Session}'s.
 */
final class Schedule {
    private Schedule() {}

    /** Key exchanges before RTR: one before the per-QP loop and one in it (seen on the wire from ib_write_bw). */
    static int keyExchanges(TestKind test) {
        return 2;
    }

    /** Whether a latency test ends with {@code ctx_close_connection} (ib_write_lat just exits). */
    static boolean closesLatency(TestKind test) {
        return test != TestKind.WRITE_LAT;
    }
}
