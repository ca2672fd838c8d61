package dev.panamaverbs.perftest.wire;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The bandwidth-report step ({@code xchg_bw_reports}), after a bandwidth test: five exchanges,
 * each one value big-endian: the message size (8 bytes, {@code unsigned long}), the iterations
 * (8 bytes for peers from 5.33), peak and average bandwidth and the average message rate
 * ({@code double}s, 8 bytes each). The server prints the client's figures (a half-duplex
 * WRITE/READ server measured nothing itself).
 *
 * @param size        message size in bytes
 * @param iterations  iterations run
 * @param peak        peak bandwidth, in the report's unit (MB/s, or Gb/s with --report_gbits)
 * @param average     average bandwidth, same unit
 * @param messageRate average message rate, Mpps
 */
public record BandwidthReportWire(long size, long iterations, double peak, double average, double messageRate) {
    /** Each value's size on the wire. */
    public static final int FIELD = 8;

    /** One exchange per value, in perftest's order; returns the peer's report. */
    public BandwidthReportWire exchange(OobLink channel) throws IOException {
        long theirSize = field(channel.exchange(longField(size), "the bandwidth report's size"));
        long theirIterations = field(channel.exchange(longField(iterations), "the bandwidth report's iterations"));
        double theirPeak = Double.longBitsToDouble(field(channel.exchange(doubleField(peak), "the bandwidth report's peak")));
        double theirAverage = Double.longBitsToDouble(field(channel.exchange(doubleField(average),
                "the bandwidth report's average")));
        double theirRate = Double.longBitsToDouble(field(channel.exchange(doubleField(messageRate),
                "the bandwidth report's message rate")));
        return new BandwidthReportWire(theirSize, theirIterations, theirPeak, theirAverage, theirRate);
    }

    /** {@code value} big-endian, 8 bytes. */
    public static byte[] longField(long value) {
        return ByteBuffer.allocate(FIELD).putLong(value).array();
    }

    /** {@code value}'s IEEE bits big-endian, 8 bytes ({@code hton_double}). */
    public static byte[] doubleField(double value) {
        return longField(Double.doubleToRawLongBits(value));
    }

    /** The 8-byte big-endian value. */
    public static long field(byte[] bytes) {
        return ByteBuffer.wrap(bytes).getLong();
    }
}
