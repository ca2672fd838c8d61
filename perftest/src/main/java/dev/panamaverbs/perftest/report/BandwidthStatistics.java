package dev.panamaverbs.perftest.report;

/**
 * perftest's bandwidth figures ({@code print_report_bw}) from when each iteration was posted and
 * completed: the average over the whole run (first post to last completion), the peak from the
 * fastest single iteration, and the message rate; bandwidth in MB/s (2^20 bytes) or, with
 * {@code --report_gbits}, Gb/s (10^9 bits).
 *
 * @param peak        BW peak
 * @param average     BW average
 * @param messageRate MsgRate in Mpps
 */
public record BandwidthStatistics(double peak, double average, double messageRate) {
    private static final double MEBIBYTE = 0x100000;
    private static final double GIGABIT_BYTES = 125_000_000.0;

    /** From {@code posted[0..iterations)} and {@code completed[0..iterations)} (nanoseconds). */
    public static BandwidthStatistics of(long size, int iterations, long[] posted, long[] completed, boolean gbits) {
        long fastest = Long.MAX_VALUE;
        for (int i = 0; i < iterations; i++) {
            long t = completed[i] - posted[i];
            if (t > 0 && t < fastest) {
                fastest = t;
            }
        }
        long total = Math.max(1, completed[iterations - 1] - posted[0]);
        if (fastest == Long.MAX_VALUE) {
            fastest = total;
        }
        return over(size, iterations, total, fastest, gbits);
    }

    /** From a run of {@code iterations} messages that took {@code totalNanos}, the fastest one {@code fastestNanos}. */
    public static BandwidthStatistics over(long size, long iterations, long totalNanos, long fastestNanos, boolean gbits) {
        double factor = gbits ? GIGABIT_BYTES : MEBIBYTE;
        double seconds = Math.max(1, totalNanos) / 1e9;
        double average = size * (double) iterations / seconds / factor;
        double peak = size / (Math.max(1, fastestNanos) / 1e9) / factor;
        double rate = iterations / seconds / 1e6;
        return new BandwidthStatistics(Math.max(peak, average), average, rate);
    }
}
