package dev.panamaverbs.messaging;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The payload of a {@link MessageType#RENDEZVOUS_OFFER}, 32 bytes, little-endian (the rendezvous
 * id, which the DONE echoes, is the header's correlation):
 *
 * <pre>
 *  offset size field
 *   0     8    address      where the message starts in the sender's memory (the RDMA READ's remote address)
 *   8     8    length       the message's bytes (1..2^31-1)
 *  16     4    rkey         the remote key of the sender's registration (REMOTE_READ)
 *  20     4    type         what the message is once read: {@link MessageType#code()} of DATA, REQUEST or RESPONSE
 *  24     8    correlation  the request/response id of a REQUEST or RESPONSE; 0 for DATA
 * </pre>
 *
 * @param address the remote address of the first byte
 * @param length the message's length in bytes
 * @param rkey the remote key
 * @param type the message's own type: DATA, REQUEST or RESPONSE
 * @param correlation its request/response id (0 for DATA)
 */
record RendezvousOffer(long address, long length, int rkey, MessageType type, long correlation) {
    /** The payload's size. */
    static final int SIZE = 32;

    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** A DATA message's offer. */
    RendezvousOffer(long address, long length, int rkey) {
        this(address, length, rkey, MessageType.DATA, 0);
    }

    /** Writes the offer at {@code offset} of {@code buffer}. */
    void write(MemorySegment buffer, long offset) {
        write(buffer, offset, address, length, rkey, type, correlation);
    }

    /** Writes an offer of these fields at {@code offset} of {@code buffer} (in place: no record made). */
    static void write(MemorySegment buffer, long offset, long address, long length, int rkey, MessageType type,
            long correlation) {
        buffer.set(U64, offset, address);
        buffer.set(U64, offset + 8, length);
        buffer.set(U32, offset + 16, rkey);
        buffer.set(U32, offset + 20, type.code());
        buffer.set(U64, offset + 24, correlation);
    }

    /**
     * Reads the offer in a received payload.
     *
     * @throws MessagingException (a protocol error) when the payload is not {@value #SIZE} bytes,
     *         the length is not in 1..2^31-1, the type is not DATA, REQUEST or RESPONSE, or the
     *         correlation is not 0 for DATA and not 0 otherwise
     */
    static RendezvousOffer read(MemorySegment buffer, long offset, int payloadLength) {
        check(buffer, offset, payloadLength);
        return new RendezvousOffer(address(buffer, offset), length(buffer, offset), rkey(buffer, offset),
                type(buffer, offset), correlation(buffer, offset));
    }

    /**
     * Checks the offer in a received payload, as {@link #read} does, without making a record;
     * its fields are then read in place ({@link #address}, {@link #length}...).
     *
     * @throws MessagingException (a protocol error) as {@link #read}
     */
    static void check(MemorySegment buffer, long offset, int payloadLength) {
        if (payloadLength != SIZE) {
            throw new MessagingException("rendezvous offer: protocol error: a payload of " + payloadLength
                    + " bytes, an offer has " + SIZE, null);
        }
        long length = buffer.get(U64, offset + 8);
        if (length < 1 || length > Integer.MAX_VALUE) {
            throw new MessagingException("rendezvous offer: protocol error: length " + Long.toUnsignedString(length)
                    + " is not in 1.." + Integer.MAX_VALUE, null);
        }
        int code = buffer.get(U32, offset + 20);
        MessageType type = MessageType.ofCode(code);
        if (type != MessageType.DATA && type != MessageType.REQUEST && type != MessageType.RESPONSE) {
            throw new MessagingException("rendezvous offer: protocol error: type " + Integer.toUnsignedString(code)
                    + " is not DATA, REQUEST or RESPONSE", null);
        }
        long correlation = buffer.get(U64, offset + 24);
        if ((type == MessageType.DATA) != (correlation == 0)) {
            throw new MessagingException("rendezvous offer: protocol error: correlation " + correlation + " with type "
                    + type + " (0 for DATA only)", null);
        }
    }

    static long address(MemorySegment buffer, long offset) {
        return buffer.get(U64, offset);
    }

    static long length(MemorySegment buffer, long offset) {
        return buffer.get(U64, offset + 8);
    }

    static int rkey(MemorySegment buffer, long offset) {
        return buffer.get(U32, offset + 16);
    }

    static MessageType type(MemorySegment buffer, long offset) {
        return MessageType.ofCode(buffer.get(U32, offset + 20));
    }

    static long correlation(MemorySegment buffer, long offset) {
        return buffer.get(U64, offset + 24);
    }
}
