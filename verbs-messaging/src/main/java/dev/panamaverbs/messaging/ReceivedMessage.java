package dev.panamaverbs.messaging;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A message that arrived on a {@link MessageChannel}, in the receive buffer it landed in (or, for
 * a large message, in the buffer rendezvous read it into): no copy. Its {@link #payload()} is a
 * read-only view, valid until {@link #release()}, which re-posts the buffer (and gives a
 * rendezvous buffer back to its allocator) and returns its credit to the peer. A message not released keeps its credit: the
 * peer's sends wait for it (that is the flow control). Each object shows one message: once
 * released it stays released (a second release does nothing, {@code payload()} throws), and the
 * next message of the same buffer comes in another object. That replacement is the one object a
 * received message costs; {@link MessageChannel#receive(MemorySegment, Duration)} copies instead
 * and allocates nothing.
 */
public final class ReceivedMessage {
    private static final int WAITING = 0;
    private static final int HELD = 1;
    private static final int RELEASED = 2;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(ReceivedMessage.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ReceiveSlots slots;
    private final int slot;
    /** Set again with {@link #onRelease} when a copied-out large message's object is reused (never handed out before). */
    private MemorySegment buffer;
    private final long payloadOffset;
    private Runnable onRelease;
    private RendezvousException failure;
    private MessageType type;
    private int length;
    private long correlation;
    @SuppressWarnings("unused") // through STATE
    private volatile int state;

    ReceivedMessage(ReceiveSlots slots, int slot, MemorySegment buffer) {
        this(slots, slot, buffer, MessageHeader.SIZE, null);
    }

    /**
     * A message that arrived elsewhere than its receive buffer (a rendezvous destination, or none
     * when it failed), though it holds receive slot {@code slot}: {@code onRelease} runs before
     * the slot is re-posted.
     */
    ReceivedMessage(ReceiveSlots slots, int slot, MemorySegment payloadBuffer, long payloadOffset, Runnable onRelease) {
        this.slots = slots;
        this.slot = slot;
        this.buffer = payloadBuffer;
        this.payloadOffset = payloadOffset;
        this.onRelease = onRelease;
    }

    /**
     * This large message's object, copied out and so never handed out, shows the slot's next
     * large message, in {@code payloadBuffer} ({@link ReceiveSlots#recycledLarge}); published
     * by the {@link #arrived} that follows.
     */
    void reuseLarge(MemorySegment payloadBuffer, Runnable release) {
        this.buffer = payloadBuffer;
        this.onRelease = release;
    }

    /** Marks this message as a failed rendezvous that {@link MessageChannel#receive} reports. */
    void failed(RendezvousException cause) {
        this.failure = cause;
    }

    /** {@return the receive slot the message holds} */
    int slot() {
        return slot;
    }

    /** {@return the rendezvous failure in this message's place, or null} */
    RendezvousException failure() {
        return failure;
    }

    /** Fills in the message that just landed (the poller thread); once per object. */
    void arrived(MessageType arrivedType, int payloadLength, long arrivedCorrelation) {
        this.type = arrivedType;
        this.length = payloadLength;
        this.correlation = arrivedCorrelation;
        if (!STATE.compareAndSet(this, WAITING, HELD)) {
            throw new IllegalStateException("receive buffer " + slot + ": a message arrived in a buffer not re-posted");
        }
    }

    /**
     * The payload: a read-only view of the receive buffer after the header, or of the buffer a
     * large message was read into by rendezvous.
     *
     * @return the payload's bytes, {@link #length()} of them
     * @throws IllegalStateException once released (the buffer may hold another message already), or
     *         once its channel is closed
     */
    public MemorySegment payload() {
        if (state != HELD) {
            throw new IllegalStateException("payload: " + this + " was released (its buffer was re-posted)");
        }
        if (slots.isClosed(slot)) {
            throw new IllegalStateException("payload: the channel of " + this + " is closed (its buffers are freed)");
        }
        return buffer.asSlice(payloadOffset, length);
    }

    /**
     * The payload's length (still this message's after release).
     *
     * @return the bytes after the header
     */
    public int length() {
        return length;
    }

    /**
     * The type from the header ({@link MessageType#DATA}, {@link MessageType#REQUEST} or
     * {@link MessageType#RESPONSE}; still this message's after release).
     *
     * @return the message type
     */
    public MessageType type() {
        return type;
    }

    /**
     * The header's correlation id (0 for DATA; still this message's after release).
     *
     * @return the correlation id
     */
    public long correlation() {
        return correlation;
    }

    /** {@return true until released} */
    public boolean isHeld() {
        return state == HELD;
    }

    /**
     * Re-posts the buffer ({@code ibv_post_recv}) and returns its credit to the peer (piggy-backed
     * on the next message, or in a credit message once half the window waits). Idempotent: only
     * the first call, from whichever thread, re-posts; later calls do nothing and never touch the
     * buffer's next message. After the channel closed it only marks the message released.
     */
    public void release() {
        if (STATE.compareAndSet(this, HELD, RELEASED)) {
            if (onRelease != null) {
                onRelease.run();
            }
            slots.released(slot);
        }
    }

    /**
     * Copies the payload into {@code destination} (as much as fits) and re-posts the buffer, for a
     * message that never left its channel ({@link MessageChannel#receive(MemorySegment, Duration)}).
     * No reference to this object escaped, so it waits for the buffer's next message itself and,
     * unlike {@link #release()}, no replacement is made: nothing is allocated. A large message
     * (its own buffer, given back on release) is released as usual.
     *
     * @return the payload's full length (more than {@code destination}'s size when cut)
     * @throws IllegalStateException once its channel is closed (the buffer freed)
     */
    int copyAndRecycle(MemorySegment destination) {
        if (slots.isClosed(slot)) {
            throw new IllegalStateException("receive: the channel of " + this + " is closed (its buffers are freed)");
        }
        MemorySegment.copy(buffer, payloadOffset, destination, 0, Math.min(length, destination.byteSize()));
        if (onRelease != null) {
            // A large message: its buffer goes back, and its object (never handed out) waits for
            // the slot's next large message.
            if (STATE.compareAndSet(this, HELD, WAITING)) {
                onRelease.run();
                slots.recycledLarge(slot, this);
            }
        } else if (slots.current(slot) != this) {
            release();
        } else if (STATE.compareAndSet(this, HELD, WAITING)) {
            slots.recycled(slot);
        }
        return length;
    }

    @Override
    public String toString() {
        return "ReceivedMessage[" + type + ", " + length + " bytes, buffer " + slot
                + (state == RELEASED ? ", released" : "") + "]";
    }
}
