package dev.panamaverbs.perftest.report;

/**
 * perftest's bandwidth figures ({@code print_report_bw}) from when each iteration was posted and
 * completed: the average over the whole run (first post to last completion), the peak from the
 * fastest single iteration (0 when perftest does not measure it: {@code -N}, duration mode, a
 * SEND server), and the message rate; bandwidth in MB/s (2^20 bytes) or, with
 * {@code --report_gbits}, Gb/s (10^9 bits). As in perftest's double arithmetic, a run that took
 * no measurable time gives {@code inf} (and a 0/0 {@code NaN}), not a clamped figure.
 *
 * @param peak        BW peak
 * @param average     BW average
 * @param messageRate MsgRate in Mpps
 */
public record BandwidthStatistics(double peak, double average, double messageRate) {
    private static final double MEBIBYTE = 0x100000;
    private static final double GIGABIT_BYTES = 125_000_000.0;

    /**
     * From {@code posted[0..iterations)} and {@code completed[0..iterations)} (nanoseconds);
     * {@code noPeak} prints the peak as perftest does without measuring it.
     */
    public static BandwidthStatistics of(long size, int iterations, long[] posted, long[] completed, boolean noPeak,
                                         boolean gbits) {
        long total = completed[iterations - 1] - posted[0];
        if (noPeak) {
            return over(size, iterations, total, gbits);
        }
        long fastest = Long.MAX_VALUE;
        for (int i = 0; i < iterations; i++) {
            long t = completed[i] - posted[i];
            if (t >= 0 && t < fastest) {
                fastest = t;
            }
        }
        if (fastest == Long.MAX_VALUE) {
            fastest = total;
        }
        BandwidthStatistics figures = over(size, iterations, total, gbits);
        double peak = size / (fastest / 1e9) / factor(gbits);
        return new BandwidthStatistics(Math.max(peak, figures.average()), figures.average(), figures.messageRate());
    }

    /**
     * From a run of {@code iterations} messages that took {@code totalNanos}, without a peak
     * (perftest's noPeak: printed as 0.00).
     */
    public static BandwidthStatistics over(long size, long iterations, long totalNanos, boolean gbits) {
        double seconds = totalNanos / 1e9;
        double average = size * (double) iterations / seconds / factor(gbits);
        double rate = iterations / seconds / 1e6;
        return new BandwidthStatistics(0, average, rate);
    }

    private static double factor(boolean gbits) {
        return gbits ? GIGABIT_BYTES : MEBIBYTE;
    }
}
