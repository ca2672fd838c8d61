package dev.panamaverbs.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** perftest's {@code -w}/{@code -y} verdict, with its 4.5 quirk: {@code -y} counts only with {@code -w}. */
class BandwidthLimitsTest {
    @Test
    void belowTheBandwidthLimitFails() {
        BandwidthLimits limits = new BandwidthLimits(100, -1);
        limits.check(99.5, 1);
        assertEquals("Error: BW result is below bw limit", limits.failure());
        limits.check(100, 1);
        assertNull(limits.failure(), "one row reaching it passes (perftest ORs the rows of -a)");
    }

    @Test
    void messageRateCountsOnlyWithABandwidthLimit() {
        BandwidthLimits alone = new BandwidthLimits(-1, 5);
        alone.check(10, 1);
        assertNull(alone.failure(), "-y alone: perftest 4.5 gives no verdict");
        BandwidthLimits both = new BandwidthLimits(0, 5);
        both.check(10, 1);
        assertEquals("Error: Msg rate  is below msg_rate limit", both.failure());
        BandwidthLimits none = new BandwidthLimits(-1, -1);
        none.check(0, 0);
        assertNull(none.failure());
    }
}
