package dev.panamaverbs.messaging;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The {@link ReceivedMessage} of each receive buffer. A message object shows one message for its
 * whole life: its release retires it and puts a fresh object in its slot before the buffer is
 * re-posted, so a stale reference (a second release, a payload read after release) can only ever
 * see its own, released message, never the next one that lands in the same buffer. Delivery fills
 * in the slot's waiting object and allocates nothing; the replacement is made on the releasing
 * thread.
 *
 * <p>A channel's own buffers have that channel as every slot's owner; the buffers of a
 * {@link SharedReceivePool} belong to whichever channel's queue pair took them last, recorded at
 * each arrival.
 */
final class ReceiveSlots {
    /** What a release does to the channel. */
    interface Owner {
        /** Re-posts receive buffer {@code slot} and counts its credit for return. */
        void repost(int slot);

        /** {@return true once the channel is closed (its buffers freed)} */
        boolean isClosed();
    }

    private final MemorySegment[] buffers;
    private final AtomicReferenceArray<ReceivedMessage> waiting;
    /** The channel each slot's message arrived on: written before the message is filled in, which publishes it. */
    private final Owner[] owners;

    /**
     * @param buffers each slot's receive buffer (header included), read-only
     */
    ReceiveSlots(MemorySegment[] buffers) {
        this.buffers = buffers;
        this.owners = new Owner[buffers.length];
        this.waiting = new AtomicReferenceArray<>(buffers.length);
        for (int slot = 0; slot < buffers.length; slot++) {
            waiting.set(slot, new ReceivedMessage(this, slot, buffers[slot]));
        }
    }

    /** {@return slot's message, filled in with what just landed in its buffer} (the poller thread) */
    ReceivedMessage arrived(Owner owner, int slot, MessageType type, int payloadLength, long correlation) {
        owners[slot] = owner;
        ReceivedMessage message = waiting.get(slot);
        message.arrived(type, payloadLength, correlation);
        return message;
    }

    /**
     * {@return slot's message, a large one read by rendezvous into {@code payload}} (the poller
     * thread); {@code onRelease} gives its buffer back before the slot is re-posted.
     */
    ReceivedMessage arrivedLarge(Owner owner, int slot, MessageType type, long correlation, MemorySegment payload,
            int length, Runnable onRelease) {
        owners[slot] = owner;
        ReceivedMessage message = new ReceivedMessage(this, slot, payload, 0, onRelease);
        message.arrived(type, length, correlation);
        waiting.set(slot, message);
        return message;
    }

    /** {@return slot's message: the failed rendezvous {@code failure} in the message's place} */
    ReceivedMessage arrivedFailure(Owner owner, int slot, RendezvousException failure) {
        owners[slot] = owner;
        ReceivedMessage message = new ReceivedMessage(this, slot, MemorySegment.NULL, 0, null);
        message.failed(failure);
        message.arrived(MessageType.DATA, 0, failure.messageId());
        waiting.set(slot, message);
        return message;
    }

    /** {@return the message that last arrived in {@code slot}} (queued for receive, not released yet) */
    ReceivedMessage current(int slot) {
        return waiting.get(slot);
    }

    /** From the first {@link ReceivedMessage#release()}: a fresh object waits in the slot, then the buffer is re-posted. */
    void released(int slot) {
        waiting.set(slot, new ReceivedMessage(this, slot, buffers[slot]));
        owners[slot].repost(slot);
    }

    /** A message copied out and never handed out waits in its slot again: the buffer is re-posted, no object made. */
    void recycled(int slot) {
        owners[slot].repost(slot);
    }

    /** {@return true once the channel {@code slot}'s message arrived on is closed} */
    boolean isClosed(int slot) {
        return owners[slot].isClosed();
    }
}
