package dev.panamaverbs.examples.rping;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * rping's buffer advertisement, C {@code struct rping_rdma_info { __be64 buf; __be32 rkey; __be32 size; }}:
 * 16 bytes, every field in network byte order. The client sends one per buffer the server
 * should RDMA READ from or WRITE to; the server's "go ahead" messages are the same 16 bytes,
 * all zero.
 *
 * @param address the buffer's address as the remote side targets it (the MR's iova)
 * @param rkey    the buffer's remote key
 * @param size    its length in bytes (unsigned 32 bits)
 */
public record RpingInfo(long address, int rkey, int size) {
    /** {@code sizeof(struct rping_rdma_info)}. */
    public static final int SIZE = 16;
    private static final ValueLayout.OfLong BE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt BE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** The server's "go ahead": all zero. */
    public static final RpingInfo GO_AHEAD = new RpingInfo(0, 0, 0);

    /** Writes the 16 bytes at the start of {@code target}. */
    public void encode(MemorySegment target) {
        target.set(BE64, 0, address);
        target.set(BE32, 8, rkey);
        target.set(BE32, 12, size);
    }

    /** The 16 bytes as an array. */
    public byte[] toBytes() {
        byte[] bytes = new byte[SIZE];
        encode(MemorySegment.ofArray(bytes));
        return bytes;
    }

    /** Reads the 16 bytes at the start of {@code source}. */
    public static RpingInfo decode(MemorySegment source) {
        return new RpingInfo(source.get(BE64, 0), source.get(BE32, 8), source.get(BE32, 12));
    }

    /** {@link #size()} as the unsigned number it is. */
    public long unsignedSize() {
        return Integer.toUnsignedLong(size);
    }
}
