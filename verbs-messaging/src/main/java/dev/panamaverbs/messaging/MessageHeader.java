package dev.panamaverbs.messaging;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The 24-byte header at the start of every message a {@link MessageChannel} sends, little-endian
 * ({@code docs/messaging.md} has the table):
 *
 * <pre>
 *  offset size field
 *   0     1    version        1
 *   1     1    type           {@link MessageType#code()}
 *   2     2    flags          0 (reserved, must be 0 in version 1)
 *   4     4    credits        receive credits the sender returns to the receiver (piggy-backed)
 *   8     4    length         payload bytes after the header
 *  12     4    reserved       0 (rendezvous status, later)
 *  16     8    correlation    request/response and rendezvous id; 0 for DATA and CREDIT
 * </pre>
 *
 * Static helpers only: they read and write a header in a receive or send buffer in place, without
 * allocating.
 */
public final class MessageHeader {
    /** The header's size in bytes. */
    public static final int SIZE = 24;
    /** The wire version this code writes and accepts. */
    public static final int VERSION = 1;

    static final int VERSION_OFFSET = 0;
    static final int TYPE_OFFSET = 1;
    static final int FLAGS_OFFSET = 2;
    static final int CREDITS_OFFSET = 4;
    static final int LENGTH_OFFSET = 8;
    static final int RESERVED_OFFSET = 12;
    static final int CORRELATION_OFFSET = 16;

    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private MessageHeader() {}

    /**
     * Writes a header at {@code offset} of {@code buffer}.
     *
     * @param buffer where the message is built
     * @param offset where the header starts
     * @param type the message type
     * @param credits the credits returned to the peer (not negative)
     * @param length the payload's length in bytes (not negative)
     * @param correlation the correlation id (0 for DATA and CREDIT)
     * @throws IllegalArgumentException when {@code credits} or {@code length} is negative
     */
    public static void write(MemorySegment buffer, long offset, MessageType type, int credits, int length, long correlation) {
        if (credits < 0 || length < 0) {
            throw new IllegalArgumentException("message header: credits (" + credits + ") and length (" + length
                    + ") must not be negative");
        }
        buffer.set(ValueLayout.JAVA_BYTE, offset + VERSION_OFFSET, (byte) VERSION);
        buffer.set(ValueLayout.JAVA_BYTE, offset + TYPE_OFFSET, (byte) type.code());
        buffer.set(U16, offset + FLAGS_OFFSET, (short) 0);
        buffer.set(U32, offset + CREDITS_OFFSET, credits);
        buffer.set(U32, offset + LENGTH_OFFSET, length);
        buffer.set(U32, offset + RESERVED_OFFSET, 0);
        buffer.set(U64, offset + CORRELATION_OFFSET, correlation);
    }

    /**
     * The version byte.
     *
     * @param buffer the message
     * @param offset where its header starts
     * @return the version (0..255)
     */
    public static int version(MemorySegment buffer, long offset) {
        return Byte.toUnsignedInt(buffer.get(ValueLayout.JAVA_BYTE, offset + VERSION_OFFSET));
    }

    /**
     * The type byte as on the wire.
     *
     * @param buffer the message
     * @param offset where its header starts
     * @return the type code (0..255)
     */
    public static int typeCode(MemorySegment buffer, long offset) {
        return Byte.toUnsignedInt(buffer.get(ValueLayout.JAVA_BYTE, offset + TYPE_OFFSET));
    }

    /**
     * The flags.
     *
     * @param buffer the message
     * @param offset where its header starts
     * @return the flags (0..65535)
     */
    public static int flags(MemorySegment buffer, long offset) {
        return Short.toUnsignedInt(buffer.get(U16, offset + FLAGS_OFFSET));
    }

    /**
     * The credits the sender returned.
     *
     * @param buffer the message
     * @param offset where its header starts
     * @return the credits (as signed; a negative value is a protocol error {@link #check} reports)
     */
    public static int credits(MemorySegment buffer, long offset) {
        return buffer.get(U32, offset + CREDITS_OFFSET);
    }

    /**
     * The payload length.
     *
     * @param buffer the message
     * @param offset where its header starts
     * @return the payload length (as signed; a negative value is a protocol error {@link #check} reports)
     */
    public static int length(MemorySegment buffer, long offset) {
        return buffer.get(U32, offset + LENGTH_OFFSET);
    }

    /**
     * The correlation id.
     *
     * @param buffer the message
     * @param offset where its header starts
     * @return the correlation id
     */
    public static long correlation(MemorySegment buffer, long offset) {
        return buffer.get(U64, offset + CORRELATION_OFFSET);
    }

    /**
     * Checks a received header against the bytes that arrived and returns its type.
     *
     * @param buffer the receive buffer
     * @param offset where the header starts
     * @param received the bytes the completion reported ({@code byte_len})
     * @return the message type
     * @throws MessagingException naming what is wrong: too short, another version, an unknown type,
     *         flags set, negative credits, or a length that disagrees with the bytes received
     */
    public static MessageType check(MemorySegment buffer, long offset, int received) {
        if (received < SIZE) {
            throw protocol("a message of " + received + " bytes is shorter than the " + SIZE + "-byte header");
        }
        int version = version(buffer, offset);
        if (version != VERSION) {
            throw protocol("header version " + version + ", this side speaks " + VERSION);
        }
        MessageType type = MessageType.ofCode(typeCode(buffer, offset));
        if (type == null) {
            throw protocol("unknown message type " + typeCode(buffer, offset));
        }
        if (flags(buffer, offset) != 0) {
            throw protocol("flags 0x" + Integer.toHexString(flags(buffer, offset)) + " set in a version " + VERSION + " header");
        }
        if (credits(buffer, offset) < 0) {
            throw protocol("negative credits " + Integer.toUnsignedString(credits(buffer, offset)));
        }
        int length = length(buffer, offset);
        if (length != received - SIZE) {
            throw protocol("header says " + Integer.toUnsignedString(length) + " payload bytes, "
                    + (received - SIZE) + " arrived");
        }
        return type;
    }

    private static MessagingException protocol(String what) {
        return new MessagingException("message header: protocol error: " + what, null);
    }
}
