package dev.panamaverbs.perftest;

import dev.panamaverbs.perftest.report.BandwidthLimits;

/**
 * perftest's report options: how the result is printed, and the verifier's limits.
 *
 * @param cycles       {@code -C}: latency in CPU cycles instead of microseconds (latency tests)
 * @param histogram    {@code -H}: every measured latency, sorted, before the table (latency tests)
 * @param unsorted     {@code -U}: every latency in the order measured, before the table (latency tests)
 * @param output       {@code --output}: the table, or one figure alone
 * @param limitBw      {@code -w}: the least average bandwidth (in the report's unit) a row must reach;
 *                     {@value #NO_LIMIT} when not given
 * @param limitMsgRate {@code -y}: the least message rate (Mpps) a row must reach; {@value #NO_LIMIT} when not given
 */
public record ReportOptions(boolean cycles, boolean histogram, boolean unsorted, Output output, double limitBw,
                            double limitMsgRate) {
    /** {@code -w} or {@code -y} not given (perftest refuses a negative limit). */
    public static final double NO_LIMIT = -1;

    /** perftest's defaults: the full table, in microseconds, no limits. */
    public static final ReportOptions DEFAULT = new ReportOptions(false, false, false, Output.FULL, NO_LIMIT, NO_LIMIT);

    /**
     * The verifier of this run's rows: {@code -w}/{@code -y} on the bandwidth tests; none on the
     * latency tests, which take both and check neither, as perftest's.
     */
    public BandwidthLimits limits(TestKind test) {
        return test.isLatency() ? new BandwidthLimits(NO_LIMIT, NO_LIMIT) : new BandwidthLimits(limitBw, limitMsgRate);
    }

    /** perftest's {@code --output}: the full report, or one figure ({@code OUTPUT_BW}, {@code OUTPUT_MR}, {@code OUTPUT_LAT}). */
    public enum Output {
        /** No {@code --output}: perftest's full report. */
        FULL,
        /** {@code --output=bandwidth}: the average bandwidth alone. */
        BANDWIDTH,
        /** {@code --output=message_rate}: the message rate alone. */
        MESSAGE_RATE,
        /** {@code --output=latency}: the average latency alone. */
        LATENCY;

        /** perftest's {@code --output} names; another is refused with its text. */
        static Output named(String name) {
            return switch (name) {
                case "bandwidth" -> BANDWIDTH;
                case "message_rate" -> MESSAGE_RATE;
                case "latency" -> LATENCY;
                default -> throw new IllegalArgumentException(
                        "Invalid verbosity level output flag. Please use bandwidth, latency, message_rate");
            };
        }
    }
}
