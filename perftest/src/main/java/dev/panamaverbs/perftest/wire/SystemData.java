package dev.panamaverbs.perftest.wire;

import java.nio.ByteBuffer;

/**
 * The system-data step ({@code check_sys_data}, when the peer is 5.32 or newer): two exchanges of
 * one 4-byte big-endian int each, first the cycle buffer (the page size, {@code sysconf}), then
 * the cache line size. Each side then uses the larger of the two values: the cycle buffer is the
 * span of a side's buffer the peer's RDMA addresses walk through.
 */
public final class SystemData {
    /** Each value's size on the wire. */
    public static final int SIZE = 4;
    /** {@code DEF_PAGE_SIZE}. */
    public static final int DEFAULT_CYCLE_BUFFER = 4096;
    /** {@code DEF_CACHE_LINE_SIZE}. */
    public static final int DEFAULT_CACHE_LINE = 64;

    private SystemData() {}

    /** {@code value} in network byte order. */
    public static byte[] encode(int value) {
        return ByteBuffer.allocate(SIZE).putInt(value).array();
    }

    /** The int in {@code field} (network byte order). */
    public static int decode(byte[] field) {
        if (field.length != SIZE) {
            throw new IllegalArgumentException("a system-data field is " + SIZE + " bytes, not " + field.length);
        }
        return ByteBuffer.wrap(field).getInt();
    }
}
