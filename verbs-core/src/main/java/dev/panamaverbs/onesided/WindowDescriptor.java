package dev.panamaverbs.onesided;

import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.RemoteRegion;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * What a peer needs to reach a {@link Window}: the device address of its first byte (the
 * region's {@code iova}), its length and its rkey. Small and fixed on the wire, so it fits
 * {@code rdma_cm} private data (56 bytes on an RC connect) and any control channel;
 * {@link #toRemoteRegion()} and {@link #of(RemoteRegion)} carry it through
 * {@link dev.panamaverbs.cm.EndpointExchange} too.
 *
 * <p>Wire format, {@value #BYTES} bytes, little-endian:
 * <pre>
 * offset size field
 *      0    1 version ({@value #VERSION})
 *      1    3 reserved, zero
 *      4    4 rkey
 *      8    8 address (the window's iova)
 *     16    8 length in bytes
 * </pre>
 *
 * @param address the device address of the window's first byte
 * @param length  the window's length in bytes
 * @param rkey    the window's remote key
 */
public record WindowDescriptor(long address, long length, int rkey) {
    /** The encoded size in bytes. */
    public static final int BYTES = 24;
    /** The wire format version this class writes and reads. */
    public static final byte VERSION = 1;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Checks the length; the address and key are the owner's to choose. */
    public WindowDescriptor {
        if (length < 0) {
            throw new IllegalArgumentException("a window's length must be >= 0, got " + length);
        }
    }

    /**
     * What {@code region} tells a peer: its iova, length and rkey.
     *
     * @param region the registered region
     * @return the descriptor of {@code region}
     */
    public static WindowDescriptor of(MemoryRegion region) {
        return new WindowDescriptor(region.iova(), region.length(), region.rkey());
    }

    /**
     * The descriptor of a region a peer advertised in its {@link dev.panamaverbs.cm.EndpointInfo}.
     *
     * @param region the advertised region
     * @return the same address, length and rkey as a descriptor
     */
    public static WindowDescriptor of(RemoteRegion region) {
        return new WindowDescriptor(region.address(), region.length(), region.rkey());
    }

    /**
     * This descriptor as a {@link RemoteRegion}, e.g. for {@link dev.panamaverbs.cm.EndpointInfo#withRegion(RemoteRegion)}.
     *
     * @return the same address, rkey and length as a remote region
     */
    public RemoteRegion toRemoteRegion() {
        return new RemoteRegion(address, rkey, length);
    }

    /**
     * The {@value #BYTES}-byte encoding.
     *
     * @return a new array holding the encoding
     */
    public byte[] toBytes() {
        byte[] bytes = new byte[BYTES];
        writeTo(MemorySegment.ofArray(bytes), 0);
        return bytes;
    }

    /**
     * Writes the {@value #BYTES}-byte encoding at {@code offset} of {@code target}.
     *
     * @param target where to write (heap or native)
     * @param offset the byte offset in {@code target}
     * @throws IndexOutOfBoundsException if fewer than {@value #BYTES} bytes follow {@code offset}
     */
    public void writeTo(MemorySegment target, long offset) {
        Objects.checkFromIndexSize(offset, BYTES, target.byteSize());
        target.set(ValueLayout.JAVA_BYTE, offset, VERSION);
        target.asSlice(offset + 1, 3).fill((byte) 0);
        target.set(INT, offset + 4, rkey);
        target.set(LONG, offset + 8, address);
        target.set(LONG, offset + 16, length);
    }

    /**
     * Decodes a descriptor from exactly {@value #BYTES} bytes.
     *
     * @param bytes the encoding
     * @return the descriptor
     * @throws IllegalArgumentException for another length, another version, non-zero reserved
     *         bytes or a negative length
     */
    public static WindowDescriptor fromBytes(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length != BYTES) {
            throw new IllegalArgumentException("a window descriptor is " + BYTES + " bytes, got " + bytes.length);
        }
        return readFrom(MemorySegment.ofArray(bytes), 0);
    }

    /**
     * Decodes the descriptor at {@code offset} of {@code source}.
     *
     * @param source where to read (heap or native)
     * @param offset the byte offset in {@code source}
     * @return the descriptor
     * @throws IndexOutOfBoundsException if fewer than {@value #BYTES} bytes follow {@code offset}
     * @throws IllegalArgumentException for another version, non-zero reserved bytes or a negative length
     */
    public static WindowDescriptor readFrom(MemorySegment source, long offset) {
        Objects.checkFromIndexSize(offset, BYTES, source.byteSize());
        byte version = source.get(ValueLayout.JAVA_BYTE, offset);
        if (version != VERSION) {
            throw new IllegalArgumentException("window descriptor version " + Byte.toUnsignedInt(version)
                    + " is not the supported version " + VERSION);
        }
        for (int i = 1; i < 4; i++) {
            if (source.get(ValueLayout.JAVA_BYTE, offset + i) != 0) {
                throw new IllegalArgumentException("window descriptor reserved byte " + i + " is not zero");
            }
        }
        long length = source.get(LONG, offset + 16);
        if (length < 0) {
            throw new IllegalArgumentException("window descriptor length " + Long.toUnsignedString(length)
                    + " is out of range");
        }
        return new WindowDescriptor(source.get(LONG, offset + 8), length, source.get(INT, offset + 4));
    }

    @Override
    public String toString() {
        return "WindowDescriptor[address=0x" + Long.toHexString(address) + ", length=" + length
                + ", rkey=0x" + Integer.toHexString(rkey) + "]";
    }
}
