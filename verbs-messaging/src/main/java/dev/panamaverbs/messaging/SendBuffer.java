package dev.panamaverbs.messaging;

import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * A registered send buffer of a {@link MessageChannel}, taken by {@link MessageChannel#sendBuffer}:
 * write the payload into {@link #segment()} and {@link #send(int)} it, with no copy. The buffer goes
 * back to the channel's pool once the send completes; {@link #close()} gives back one that was not
 * sent. After a send that timed out for lack of credit the buffer is still the caller's: send
 * again, or close it.
 */
public final class SendBuffer implements AutoCloseable {
    private final MessageChannel channel;
    private final int slot;
    private final MemorySegment payload;
    private volatile boolean owned;

    SendBuffer(MessageChannel channel, int slot, MemorySegment payload) {
        this.channel = channel;
        this.slot = slot;
        this.payload = payload;
    }

    void take() {
        owned = true;
    }

    int slot() {
        return slot;
    }

    /**
     * Where the payload goes: the buffer after the header, {@link MessageChannel#maxMessageSize()} bytes.
     *
     * @return the writable payload area
     * @throws IllegalStateException once sent or closed
     */
    public MemorySegment segment() {
        requireOwned("segment");
        return payload;
    }

    /**
     * Sends the first {@code length} bytes of {@link #segment()}, waiting for a credit up to the
     * channel's {@link ChannelOptions#sendTimeout()}.
     *
     * @param length the payload's length, 0..{@link MessageChannel#maxMessageSize()}
     * @throws CreditTimeoutException when no credit came in time (the buffer stays the caller's)
     * @throws MessagingException when the channel failed or is closed
     * @throws IllegalArgumentException when {@code length} is out of range
     * @throws IllegalStateException when already sent or closed
     */
    public void send(int length) {
        send(length, channel.options().sendTimeout());
    }

    /**
     * As {@link #send(int)} with its own timeout (zero: fail at once without credit).
     *
     * @param length the payload's length
     * @param timeout how long to wait for a credit
     */
    public void send(int length, Duration timeout) {
        requireOwned("send");
        channel.sendFrom(this, length, MessageChannel.deadline(timeout));
    }

    /** The channel is about to post it: from now on the pool owns it again. */
    void sent() {
        owned = false;
    }

    /** Gives the buffer back unsent; does nothing once sent or closed. */
    @Override
    public void close() {
        if (owned) {
            owned = false;
            channel.giveBack(slot);
        }
    }

    private void requireOwned(String what) {
        if (!owned) {
            throw new IllegalStateException(what + ": this send buffer was already sent or closed; take another");
        }
    }
}
