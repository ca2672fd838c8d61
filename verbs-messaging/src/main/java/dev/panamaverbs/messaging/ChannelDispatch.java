package dev.panamaverbs.messaging;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.values.CompletionStatus;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receive and completion path of a {@link MessageChannel}, on the shared poller's thread: polls
 * the completion queue until empty, frees the send slots whose SENDs completed, hands RDMA READ
 * completions to {@link RendezvousReads}, checks each arrived header, takes its credits, and
 * dispatches it by type: DATA and REQUEST to the handler or the receive queue, RESPONSE to its
 * pending request, CREDIT and DONE consumed here (their buffers re-posted at once), OFFER to the
 * rendezvous reads. A failed completion fails the channel.
 */
final class ChannelDispatch implements RendezvousReads.Owner {
    private static final Logger LOG = LoggerFactory.getLogger(ChannelDispatch.class);
    private static final int POLL_BATCH = 32;
    /** A busy-polling receive yields its core once per this many + 1 looks (a power of two minus one). */
    private static final int YIELD_EVERY = 63;

    private final MessageChannel channel;
    private final ChannelResources resources;
    private final CreditWindow credits;
    private final InFlight inFlight;
    private final ChannelSends sends;
    private final PendingRequests pending;
    private final RendezvousSends rendezvousSends;
    private final MemorySegment receiveMemory;
    private final ReceiveSlots messages;
    /** This channel as the owner of the messages that arrive on it. */
    private final ReceiveSlots.Owner slotOwner;
    private final SlotQueue arrived;
    private final Completions batch = Completions.allocate(POLL_BATCH);
    private final Object drainLock = new Object();
    private final AtomicLong messagesReceived = new AtomicLong();
    private final AtomicLong creditMessagesReceived = new AtomicLong();
    private RendezvousReads reads;
    private volatile Consumer<? super ReceivedMessage> handler;
    /** {@link ChannelOptions#receiveBusyPoll()}: how long {@link #receive} drains the CQ itself before it parks. */
    private final long busyPollNanos;

    ChannelDispatch(MessageChannel channel, ChannelResources resources, CreditWindow credits, InFlight inFlight,
            ChannelSends sends, PendingRequests pending, RendezvousSends rendezvousSends) {
        this.channel = channel;
        this.resources = resources;
        this.credits = credits;
        this.inFlight = inFlight;
        this.sends = sends;
        this.pending = pending;
        this.rendezvousSends = rendezvousSends;
        this.busyPollNanos = channel.options().receiveBusyPoll().toNanos();
        this.receiveMemory = resources.receiveBuffers.region.memory();
        this.arrived = new SlotQueue(channel.options().receiveBuffers());
        this.messages = resources.receiveBuffers.slots;
        this.slotOwner = new ReceiveSlots.Owner() {
            @Override
            public void repost(int slot) {
                ChannelDispatch.this.repost(slot);
            }

            @Override
            public boolean isClosed() {
                return channel.isClosed();
            }
        };
    }

    /** Set once at start, before the first drain. */
    void reads(RendezvousReads rendezvousReads) {
        this.reads = rendezvousReads;
    }

    RendezvousReads reads() {
        return reads;
    }

    void handler(Consumer<? super ReceivedMessage> messageHandler) {
        this.handler = messageHandler;
    }

    /**
     * The next message (or a rendezvous failure in its place), waiting until {@code deadline}.
     *
     * @return the message, or null when none came in time
     * @throws RendezvousException when the next message is a large one that could not be read
     */
    ReceivedMessage receive(long deadline) {
        int slot = busyPollNanos > 0 && handler == null ? busyPoll(deadline) : -1;
        if (slot < 0) {
            slot = arrived.take(deadline);
        }
        if (slot < 0) {
            return null;
        }
        ReceivedMessage message = messages.current(slot);
        RendezvousException failure = message.failure();
        if (failure != null) {
            message.release();
            throw new RendezvousException(failure.getMessage(), failure.status(), failure.messageId(), failure);
        }
        return message;
    }

    /**
     * Drains the CQ on the calling thread until a message is queued, for at most
     * {@link #busyPollNanos} (and never past {@code deadline}): the next slot, or -1. The
     * completion events still come, and the poller thread's drain then finds the CQ empty.
     */
    private int busyPoll(long deadline) {
        long now = System.nanoTime();
        long end = deadline - now < busyPollNanos ? deadline : now + busyPollNanos;
        for (int spins = 1; ; spins++) {
            int slot = arrived.take(now); // a deadline already reached: one look, no wait
            if (slot >= 0 || channel.isClosed() || end - now <= 0) {
                return slot;
            }
            drain(resources.completionQueue);
            if ((spins & YIELD_EVERY) == 0) {
                // Lets the poller thread and the kernel's RDMA work run where the spinners hold every core.
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
            now = System.nanoTime();
        }
    }

    /**
     * The completion handler (the poller thread; once at start on the caller's; a busy-polling
     * {@link #receive}'s thread): polls until empty.
     */
    void drain(CompletionQueue queue) {
        synchronized (drainLock) {
            if (channel.isClosed()) {
                return;
            }
            int count;
            try {
                while ((count = queue.poll(batch)) > 0) {
                    for (int i = 0; i < count; i++) {
                        complete(i);
                    }
                }
            } catch (IllegalStateException closing) {
                // the CQ is being closed under us: close() finishes the rest
            }
        }
    }

    /**
     * {@return whether the calling thread is in this channel's {@link #drain}}: the thread that
     * calls the message handler and completes the channel's futures, so the one that must deliver
     * any DONE or credit the caller would wait for.
     */
    boolean isDelivering() {
        return Thread.holdsLock(drainLock);
    }

    /** Waits for a drain under way to end (later ones see the channel closed). */
    void awaitDrain() {
        synchronized (drainLock) {
            // not held while closing: closing the completion channel may wait for its handler
        }
    }

    private void complete(int index) {
        long wrId = batch.wrId(index);
        boolean success = batch.isSuccess(index);
        boolean local = (wrId & (ChannelResources.SEND_TAG | ChannelResources.CONTROL_TAG | ChannelResources.READ_TAG)) != 0;
        if ((wrId & ChannelResources.SEND_TAG) != 0) {
            sends.giveBack((int) (wrId & 0xffff_ffffL));
        } else if ((wrId & ChannelResources.CONTROL_TAG) != 0) {
            sends.freeControl((int) (wrId & 0xffff_ffffL));
        } else if ((wrId & ChannelResources.READ_TAG) != 0) {
            int read = (int) (wrId & 0xffff_ffffL);
            if (success) {
                reads.readCompleted(read);
            } else {
                reads.readFailed(read, batch.status(index) + " (vendor error 0x"
                        + Integer.toHexString(batch.vendorError(index)) + ")");
            }
        }
        if (local) {
            inFlight.completed();
        } else {
            resources.received((int) wrId); // a pool's buffer is this channel's now, even when flushed
        }
        if (!success) {
            if (channel.isOpen()) {
                // A flush comes first when the connection goes: rdma_cm moves the queue pair to
                // ERROR on DISCONNECTED before the watching thread takes that event.
                String why = batch.status(index) == CompletionStatus.WR_FLUSH_ERR
                        ? "the connection was lost (the queue pair is in the error state: the peer disconnected or died): "
                        : "a work request failed: ";
                channel.failures().failAndDisconnect(new MessagingException("message channel to " + channel.peerName() + ": " + why
                        + batch.status(index) + " (wr_id 0x" + Long.toHexString(wrId) + ", vendor error 0x"
                        + Integer.toHexString(batch.vendorError(index)) + ")", null));
            }
            return;
        }
        if (local) {
            sends.maybeSendCredit(); // a control slot may have come free
            return;
        }
        received((int) wrId, batch.byteLength(index));
    }

    private void received(int slot, int bytes) {
        long offset = resources.receiveBuffers.offset(slot);
        MessageType type;
        try {
            type = MessageHeader.check(receiveMemory, offset, bytes);
            credits.grant(MessageHeader.credits(receiveMemory, offset));
        } catch (MessagingException e) {
            channel.failures().failAndDisconnect(new MessagingException("message channel to " + channel.peerName() + ": "
                    + e.getMessage(), null));
            return;
        }
        long correlation = MessageHeader.correlation(receiveMemory, offset);
        int length = bytes - MessageHeader.SIZE;
        switch (type) {
            case CREDIT -> {
                creditMessagesReceived.incrementAndGet();
                repostControl(slot);
            }
            case DATA, REQUEST -> deliver(messages.arrived(slotOwner, slot, type, length, correlation));
            case RESPONSE -> respond(messages.arrived(slotOwner, slot, type, length, correlation));
            case RENDEZVOUS_OFFER -> offered(slot, correlation, offset, length);
            case RENDEZVOUS_DONE -> {
                if (!rendezvousSends.isOutstanding(correlation)) {
                    channel.failures().failAndDisconnect(new MessagingException("message channel to " + channel.peerName()
                            + ": protocol error: a RENDEZVOUS_DONE for message " + correlation
                            + ", which this side did not offer", null));
                    return;
                }
                int status = MessageHeader.status(receiveMemory, offset);
                repost(slot); // consumed here: its credit goes back at once
                rendezvousSends.done(correlation, status);
            }
        }
    }

    private void offered(int slot, long id, long offset, int length) {
        long at = offset + MessageHeader.SIZE;
        try {
            RendezvousOffer.check(receiveMemory, at, length);
        } catch (MessagingException e) {
            channel.failures().failAndDisconnect(new MessagingException("message channel to " + channel.peerName() + ": "
                    + e.getMessage(), null));
            return;
        }
        try {
            // Its fields read in place: no offer record per message.
            reads.offered(slot, id, RendezvousOffer.address(receiveMemory, at), RendezvousOffer.length(receiveMemory, at),
                    RendezvousOffer.rkey(receiveMemory, at), RendezvousOffer.type(receiveMemory, at),
                    RendezvousOffer.correlation(receiveMemory, at));
        } catch (MessagingException e) {
            channel.failures().failAndDisconnect(e);
        }
    }

    @Override
    public void deliverLarge(int slot, MessageType type, long correlation, int length, MemorySegment payload,
            Runnable onRelease) {
        ReceivedMessage message = messages.arrivedLarge(slotOwner, slot, type, correlation, payload, length, onRelease);
        if (type == MessageType.RESPONSE) {
            respond(message);
        } else {
            deliver(message);
        }
    }

    @Override
    public void deliverFailure(int slot, MessageType type, long correlation, RendezvousException failure) {
        ReceivedMessage message = messages.arrivedFailure(slotOwner, slot, failure);
        if (type == MessageType.RESPONSE) {
            message.release(); // the buffer goes back; the request hears of the failure
            pending.abandon(correlation, failure);
            return;
        }
        if (handler == null) {
            arrived.put(slot);
        } else {
            LOG.warn("message channel to {}: a large message could not be received", channel.peerName(), failure);
            message.release();
        }
    }

    @Override
    public void answer(long id, RendezvousStatus status) {
        channel.answerRendezvous(id, status);
    }

    /** Completes the pending request of {@code response}'s correlation, or drops a late response. */
    private void respond(ReceivedMessage response) {
        messagesReceived.incrementAndGet();
        if (!pending.complete(response.correlation(), response)) {
            response.release(); // its request timed out: dropped
        }
    }

    private void deliver(ReceivedMessage message) {
        messagesReceived.incrementAndGet();
        Consumer<? super ReceivedMessage> current = handler;
        if (current == null) {
            arrived.put(message.slot());
            return;
        }
        try {
            current.accept(message);
        } catch (RuntimeException e) {
            LOG.warn("message handler of the channel to {} threw; the message is released", channel.peerName(), e);
            message.release();
        }
    }

    /** Re-posts receive buffer {@code slot} and counts its credit for return (from the first {@link ReceivedMessage#release}). */
    void repost(int slot) {
        if (!channel.isOpen()) {
            resources.returnToPool(slot); // no credit goes back: a pool's buffer returns to it, the channel's own go with it
            return;
        }
        try {
            resources.postReceive(slot);
        } catch (RuntimeException e) {
            if (!channel.isClosed()) {
                channel.failures().failAndDisconnect(new MessagingException("release: ibv_post_recv on the channel to "
                        + channel.peerName() + " failed", e));
            }
            return;
        }
        credits.returned();
        sends.maybeSendCredit();
    }

    /** A credit message's buffer is a reserve outside the window: re-posted at once, no credit returned for it. */
    private void repostControl(int slot) {
        try {
            resources.postReceive(slot);
        } catch (RuntimeException e) {
            if (!channel.isClosed()) {
                channel.failures().failAndDisconnect(new MessagingException("ibv_post_recv on the channel to " + channel.peerName()
                        + " failed", e));
            }
        }
    }

    /**
     * The channel closed: the messages queued for {@link #receive} are released, so a pool's
     * buffers they hold go back to it; with the queue pair gone, the destinations of READs still
     * outstanding go back to the allocator.
     */
    void releaseAfterClose() {
        for (int slot = arrived.poll(); slot >= 0; slot = arrived.poll()) {
            messages.current(slot).release();
        }
        RendezvousReads current = reads;
        if (current != null) {
            current.releaseStranded();
        }
    }

    /** Wakes receivers with the channel's failure (what arrived before stays receivable). */
    void fail(MessagingException cause) {
        arrived.fail(cause);
        RendezvousReads current = reads;
        if (current != null) {
            current.failAll();
        }
    }

    long messagesReceived() {
        return messagesReceived.get();
    }

    long creditMessagesReceived() {
        return creditMessagesReceived.get();
    }
}
