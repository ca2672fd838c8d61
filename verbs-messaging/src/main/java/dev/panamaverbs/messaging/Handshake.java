package dev.panamaverbs.messaging;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * What each side tells the other in the rdma_cm private data (the connect's and the accept's), 16
 * bytes, little-endian: magic {@code "PVMC"}, version u8 (1), flags u8 (0), reserved u16, the
 * receive credits u32 (the window it posted), the largest payload u32 its receive buffers hold.
 *
 * @param credits the window the side posted
 * @param maxMessageSize the largest payload one of its receive buffers holds
 */
record Handshake(int credits, int maxMessageSize) {
    static final int SIZE = 16;
    static final int MAGIC = 'P' | 'V' << 8 | 'M' << 16 | 'C' << 24;

    byte[] encode() {
        return ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN).putInt(MAGIC).put((byte) MessageHeader.VERSION)
                .put((byte) 0).putShort((short) 0).putInt(credits).putInt(maxMessageSize).array();
    }

    /**
     * The peer's handshake from its private data (the CM pads it; only the first 16 bytes count).
     *
     * @throws MessagingException when the bytes are not a version 1 handshake, or carry no credit
     */
    static Handshake decode(byte[] privateData, String peer) {
        if (privateData.length < SIZE) {
            // Named like the magic refusal: an IB CM pads a stranger's private data with zeros, iWARP's MPA does not.
            throw refused(peer, "its private data has " + privateData.length + " bytes, a channel's handshake (\"PVMC\"...) "
                    + SIZE + ": not a message channel");
        }
        ByteBuffer in = ByteBuffer.wrap(privateData).order(ByteOrder.LITTLE_ENDIAN);
        if (in.getInt() != MAGIC) {
            throw refused(peer, "its private data does not start with \"PVMC\": not a message channel");
        }
        int version = Byte.toUnsignedInt(in.get());
        if (version != MessageHeader.VERSION) {
            throw refused(peer, "it speaks channel version " + version + ", this side " + MessageHeader.VERSION);
        }
        in.get();
        in.getShort();
        int credits = in.getInt();
        int maxMessageSize = in.getInt();
        if (credits < 1 || maxMessageSize < 1) {
            throw refused(peer, "it advertised " + credits + " credits and " + maxMessageSize
                    + "-byte buffers (each must be at least 1)");
        }
        return new Handshake(credits, maxMessageSize);
    }

    private static MessagingException refused(String peer, String why) {
        return new MessagingException("message channel handshake with " + peer + ": " + why, null);
    }
}
