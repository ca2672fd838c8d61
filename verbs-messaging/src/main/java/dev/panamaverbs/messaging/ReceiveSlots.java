package dev.panamaverbs.messaging;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The {@link ReceivedMessage} of each receive buffer. A message object shows one message for its
 * whole life: its release retires it and puts a fresh object in its slot before the buffer is
 * re-posted, so a stale reference (a second release, a payload read after release) can only ever
 * see its own, released message, never the next one that lands in the same buffer. Delivery fills
 * in the slot's waiting object and allocates nothing; the replacement is made on the releasing
 * thread. A large message (rendezvous) comes in an object of its own, and the slot's waiting
 * object, which nobody has seen, is set aside meanwhile and waits in the slot again once the large
 * one is released: no replacement is made for it. A large message copied out, never handed out
 * either, is kept for the slot's next large message.
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
    /** Each slot's waiting object while a large message (or a failed one) holds the slot: never handed out. */
    private final AtomicReferenceArray<ReceivedMessage> setAside;
    /** Each slot's large message object that was copied out (never handed out), for its next large message. */
    private final AtomicReferenceArray<ReceivedMessage> largeSpare;
    /** The channel each slot's message arrived on: written before the message is filled in, which publishes it. */
    private final Owner[] owners;

    /**
     * @param buffers each slot's receive buffer (header included), read-only
     */
    ReceiveSlots(MemorySegment[] buffers) {
        this.buffers = buffers;
        this.owners = new Owner[buffers.length];
        this.waiting = new AtomicReferenceArray<>(buffers.length);
        this.setAside = new AtomicReferenceArray<>(buffers.length);
        this.largeSpare = new AtomicReferenceArray<>(buffers.length);
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
        ReceivedMessage message = largeSpare.getAndSet(slot, null);
        if (message == null) {
            message = new ReceivedMessage(this, slot, payload, 0, onRelease);
        } else {
            message.reuseLarge(payload, onRelease);
        }
        message.arrived(type, length, correlation);
        setAside.set(slot, waiting.get(slot));
        waiting.set(slot, message);
        return message;
    }

    /** {@return slot's message: the failed rendezvous {@code failure} in the message's place} */
    ReceivedMessage arrivedFailure(Owner owner, int slot, RendezvousException failure) {
        owners[slot] = owner;
        ReceivedMessage message = new ReceivedMessage(this, slot, MemorySegment.NULL, 0, null);
        message.failed(failure);
        message.arrived(MessageType.DATA, 0, failure.messageId());
        setAside.set(slot, waiting.get(slot));
        waiting.set(slot, message);
        return message;
    }

    /** {@return the message that last arrived in {@code slot}} (queued for receive, not released yet) */
    ReceivedMessage current(int slot) {
        return waiting.get(slot);
    }

    /** From the first {@link ReceivedMessage#release()}: a fresh object waits in the slot, then the buffer is re-posted. */
    void released(int slot) {
        ReceivedMessage next = setAside.getAndSet(slot, null);
        waiting.set(slot, next != null ? next : new ReceivedMessage(this, slot, buffers[slot]));
        owners[slot].repost(slot);
    }

    /**
     * A large message copied out and never handed out: kept for the slot's next large message,
     * the set-aside object waits in the slot again, and the buffer is re-posted; nothing made.
     */
    void recycledLarge(int slot, ReceivedMessage large) {
        largeSpare.set(slot, large);
        released(slot);
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
