package dev.panamaverbs.messaging;

import java.lang.foreign.MemorySegment;

/**
 * A message that arrived on a {@link MessageChannel}, in the receive buffer it landed in: no
 * copy. Its {@link #payload()} is a read-only view, valid until {@link #release()}, which re-posts
 * the buffer and returns its credit to the peer. A message not released keeps its credit: the
 * peer's sends wait for it (that is the flow control). One object per receive buffer, reused for
 * each message that lands there, so delivery allocates nothing.
 */
public final class ReceivedMessage {
    private final MessageChannel channel;
    private final int slot;
    private final MemorySegment buffer;
    private MessageType type;
    private int length;
    private long correlation;
    private volatile boolean held;

    ReceivedMessage(MessageChannel channel, int slot, MemorySegment buffer) {
        this.channel = channel;
        this.slot = slot;
        this.buffer = buffer;
    }

    /** Fills in a message that just landed (the poller thread). */
    void arrived(MessageType arrivedType, int payloadLength, long arrivedCorrelation) {
        this.type = arrivedType;
        this.length = payloadLength;
        this.correlation = arrivedCorrelation;
        this.held = true;
    }

    /**
     * The payload: a read-only view of the receive buffer, after the header.
     *
     * @return the payload's bytes, {@link #length()} of them
     * @throws IllegalStateException once released (the buffer may hold another message already), or
     *         once its channel is closed
     */
    public MemorySegment payload() {
        requireHeld("payload");
        return buffer.asSlice(MessageHeader.SIZE, length);
    }

    /**
     * The payload's length.
     *
     * @return the bytes after the header
     */
    public int length() {
        return length;
    }

    /**
     * The type from the header ({@link MessageType#DATA} for now).
     *
     * @return the message type
     */
    public MessageType type() {
        return type;
    }

    /**
     * The header's correlation id (0 for DATA).
     *
     * @return the correlation id
     */
    public long correlation() {
        return correlation;
    }

    /** {@return true until released} */
    public boolean isHeld() {
        return held;
    }

    /**
     * Re-posts the buffer and returns its credit to the peer (piggy-backed on the next message, or
     * in a credit message once half the window waits). A second call does nothing; after the
     * channel closed it only marks the message released.
     */
    public void release() {
        if (held) {
            held = false;
            channel.repost(slot);
        }
    }

    private void requireHeld(String what) {
        if (!held) {
            throw new IllegalStateException(what + ": message already released (its buffer was re-posted)");
        }
        if (channel.isClosed()) {
            throw new IllegalStateException(what + ": the message's channel is closed (its buffers are freed)");
        }
    }

    @Override
    public String toString() {
        return "ReceivedMessage[" + type + ", " + length + " bytes, buffer " + slot + (held ? "" : ", released") + "]";
    }
}
