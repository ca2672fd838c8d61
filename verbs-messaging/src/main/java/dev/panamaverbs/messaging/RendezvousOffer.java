package dev.panamaverbs.messaging;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The payload of a {@link MessageType#RENDEZVOUS_OFFER}, 24 bytes, little-endian (the message id
 * is the header's correlation):
 *
 * <pre>
 *  offset size field
 *   0     8    address   where the message starts in the sender's memory (the RDMA READ's remote address)
 *   8     8    length    the message's bytes (1..2^31-1)
 *  16     4    rkey      the remote key of the sender's registration (REMOTE_READ)
 *  20     4    reserved  0
 * </pre>
 *
 * @param address the remote address of the first byte
 * @param length the message's length in bytes
 * @param rkey the remote key
 */
record RendezvousOffer(long address, long length, int rkey) {
    /** The payload's size. */
    static final int SIZE = 24;

    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Writes the offer at {@code offset} of {@code buffer}. */
    void write(MemorySegment buffer, long offset) {
        buffer.set(U64, offset, address);
        buffer.set(U64, offset + 8, length);
        buffer.set(U32, offset + 16, rkey);
        buffer.set(U32, offset + 20, 0);
    }

    /**
     * Reads the offer in a received payload.
     *
     * @throws MessagingException (a protocol error) when the payload is not {@value #SIZE} bytes,
     *         the length is not in 1..2^31-1, or the reserved word is set
     */
    static RendezvousOffer read(MemorySegment buffer, long offset, int payloadLength) {
        if (payloadLength != SIZE) {
            throw new MessagingException("rendezvous offer: protocol error: a payload of " + payloadLength
                    + " bytes, an offer has " + SIZE, null);
        }
        long length = buffer.get(U64, offset + 8);
        if (length < 1 || length > Integer.MAX_VALUE) {
            throw new MessagingException("rendezvous offer: protocol error: length " + Long.toUnsignedString(length)
                    + " is not in 1.." + Integer.MAX_VALUE, null);
        }
        if (buffer.get(U32, offset + 20) != 0) {
            throw new MessagingException("rendezvous offer: protocol error: the reserved word is set", null);
        }
        return new RendezvousOffer(buffer.get(U64, offset), length, buffer.get(U32, offset + 16));
    }
}
