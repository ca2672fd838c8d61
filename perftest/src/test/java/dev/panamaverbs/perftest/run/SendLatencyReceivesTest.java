package dev.panamaverbs.perftest.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * ib_send_lat's receive accounting: with {@code depth} receives posted up front and one posted
 * again only while {@code rcnt + depth <= iters}, a run posts exactly its iterations, so none is
 * left for the next size of {@code -a} (whose receives would otherwise overflow the queue: ENOMEM).
 */
class SendLatencyReceivesTest {
    /** Simulates a run: receives posted in all, and the most outstanding at any time. */
    private static long[] simulate(int depth, long iterations) {
        long posted = depth;
        long outstanding = depth;
        long most = depth;
        for (long received = 1; received <= iterations; received++) {
            outstanding--;
            if (SendLatency.repostAfter(received, depth, iterations)) {
                posted++;
                outstanding++;
            }
            most = Math.max(most, outstanding);
        }
        return new long[] {posted, outstanding, most};
    }

    @Test
    void aRunPostsItsIterationsAndLeavesNoReceive() {
        for (int[] c : new int[][] {{5, 5}, {512, 1000}, {512, 512}, {2, 5}, {16000, 20000}}) {
            long[] r = simulate(c[0], c[1]);
            assertEquals(c[1], r[0], "receives posted, depth " + c[0] + ", " + c[1] + " iterations");
            assertEquals(0, r[1], "left posted");
            assertEquals(c[0], r[2], "never more outstanding than the depth");
        }
    }

    @Test
    void durationModeAlwaysPostsAgain() {
        assertEquals(true, SendLatency.repostAfter(1_000_000, 512, Long.MAX_VALUE));
    }
}
