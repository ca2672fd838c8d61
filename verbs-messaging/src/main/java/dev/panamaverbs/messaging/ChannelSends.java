package dev.panamaverbs.messaging;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The send path of a {@link MessageChannel}: its registered send buffers, the credit taken for
 * each message and the header written in place before {@code ibv_post_send}, and the explicit
 * {@link MessageType#CREDIT} messages on the two reserved control slots. Never sends beyond the
 * peer's window.
 */
final class ChannelSends {
    private final MessageChannel channel;
    private final ChannelResources resources;
    private final CreditWindow credits;
    private final InFlight inFlight;
    private final int maxSend;
    private final SlotQueue freeSends;
    private final SendBuffer[] sendBuffers;
    private final MemorySegment sendMemory;
    /** Bit i set: credit message slot i is posted and not yet completed. */
    private final AtomicInteger controlBusy = new AtomicInteger();
    private final AtomicLong messagesSent = new AtomicLong();
    private final AtomicLong creditMessagesSent = new AtomicLong();

    /** The send path of {@code channel}, whose payload limit ({@link MessageChannel#maxMessageSize()}) is already set. */
    ChannelSends(MessageChannel channel, ChannelResources resources, CreditWindow credits, InFlight inFlight) {
        this.channel = channel;
        this.resources = resources;
        this.credits = credits;
        this.inFlight = inFlight;
        this.maxSend = channel.maxMessageSize();
        this.sendMemory = resources.sendPool.memory();
        this.sendBuffers = new SendBuffer[resources.sends.length];
        for (int slot = 0; slot < sendBuffers.length; slot++) {
            sendBuffers[slot] = new SendBuffer(channel, slot,
                    sendMemory.asSlice(resources.sendOffset(slot) + MessageHeader.SIZE, maxSend));
        }
        this.freeSends = SlotQueue.full(sendBuffers.length);
    }

    /** A free send buffer, waiting until {@code deadline}. */
    SendBuffer takeBuffer(long deadline) {
        channel.failures().requireOpen("send");
        int slot = freeSends.take(deadline);
        if (slot < 0) {
            throw new CreditTimeoutException("send: all " + sendBuffers.length + " send buffers of the channel to "
                    + channel.peerName() + " stayed in flight past the deadline");
        }
        SendBuffer buffer = sendBuffers[slot];
        buffer.take();
        return buffer;
    }

    /** Copies {@code data} into a free send buffer and posts it as {@code type} with {@code correlation}. */
    void sendCopy(MemorySegment data, MessageType type, long correlation, long deadline) {
        Objects.requireNonNull(data, "send: data is null");
        int length = checkLength(data.byteSize());
        SendBuffer buffer = takeBuffer(deadline);
        try {
            MemorySegment.copy(data, 0, buffer.segment(), 0, length);
            post(buffer, type, length, correlation, 0, deadline);
        } finally {
            buffer.close(); // gives it back only when it was not sent
        }
    }

    /** Sends a header-only message ({@link MessageType#RENDEZVOUS_DONE}) with {@code status}. */
    void sendHeader(MessageType type, long correlation, int status, long deadline) {
        SendBuffer buffer = takeBuffer(deadline);
        try {
            post(buffer, type, 0, correlation, status, deadline);
        } finally {
            buffer.close();
        }
    }

    /**
     * Sends a {@link MessageType#RENDEZVOUS_OFFER} with rendezvous id {@code id}, the offer's
     * fields written straight into a send buffer ({@link RendezvousOffer}).
     */
    void sendOffer(long address, long length, int rkey, MessageType type, long correlation, long id, long deadline) {
        SendBuffer buffer = takeBuffer(deadline);
        try {
            RendezvousOffer.write(buffer.segment(), 0, address, length, rkey, type, correlation);
            post(buffer, MessageType.RENDEZVOUS_OFFER, RendezvousOffer.SIZE, id, 0, deadline);
        } finally {
            buffer.close();
        }
    }

    /**
     * Sends a header-only message at once when a buffer and a credit are free now, never waiting
     * (so the poller thread may call it).
     *
     * @return false when none was free (nothing sent), true once posted
     */
    boolean trySendHeader(MessageType type, long correlation, int status) {
        if (!channel.isOpen()) {
            return false;
        }
        int slot = freeSends.poll();
        if (slot < 0) {
            return false;
        }
        if (!credits.tryAcquire()) {
            freeSends.put(slot);
            return false;
        }
        SendBuffer buffer = sendBuffers[slot];
        buffer.take();
        try {
            postTaken(buffer, type, 0, correlation, status);
        } finally {
            buffer.close();
        }
        return true;
    }

    int checkLength(long length) {
        if (length < 0 || length > maxSend) {
            throw new IllegalArgumentException("send: a message of " + length + " bytes exceeds the channel's "
                    + maxSend + "-byte buffers (the smaller of both sides' maxMessageSize); larger ones go by"
                    + " rendezvous through send, request and respond");
        }
        return (int) length;
    }

    /** Takes a credit (waiting until {@code deadline}), writes the header and posts {@code buffer}'s SEND. */
    void post(SendBuffer buffer, MessageType type, int length, long correlation, int status, long deadline) {
        checkLength(length);
        channel.failures().requireOpen("send");
        credits.acquire(deadline);
        postTaken(buffer, type, length, correlation, status);
    }

    /** Writes the header and posts {@code buffer}'s SEND, the credit already taken. */
    private void postTaken(SendBuffer buffer, MessageType type, int length, long correlation, int status) {
        int slot = buffer.slot();
        int returns = credits.takeReturns();
        long offset = resources.sendOffset(slot);
        MessageHeader.write(sendMemory, offset, type, returns, length, correlation, status);
        buffer.sent();
        inFlight.posted();
        try {
            resources.queuePair.postSend(resources.sends[slot].sge(0, resources.sendPool, offset, MessageHeader.SIZE + length));
        } catch (RuntimeException e) {
            inFlight.completed();
            credits.giveBack();
            credits.untake(returns);
            freeSends.put(slot);
            throw channel.failures().fail(new MessagingException("send: ibv_post_send to " + channel.peerName() + " failed", e));
        }
        messagesSent.incrementAndGet();
    }

    /** A send buffer closed unsent, or whose SEND completed. */
    void giveBack(int slot) {
        freeSends.put(slot);
    }

    /** Sends the unreturned credits in a CREDIT message when half the window waits and a control slot is free. */
    void maybeSendCredit() {
        while (channel.isOpen() && credits.creditMessageDue()) {
            int busy = controlBusy.get();
            int slot = Integer.numberOfTrailingZeros(~busy);
            if (slot >= ChannelOptions.CONTROL_RESERVE) {
                return; // both in flight: the next control completion tries again
            }
            if (!controlBusy.compareAndSet(busy, busy | 1 << slot)) {
                continue;
            }
            int returns = credits.takeReturns();
            if (returns == 0) {
                freeControl(slot);
                continue;
            }
            MessageHeader.write(sendMemory, resources.controlOffset(slot), MessageType.CREDIT, returns, 0, 0);
            inFlight.posted();
            try {
                resources.queuePair.postSend(resources.controls[slot]);
                creditMessagesSent.incrementAndGet();
            } catch (RuntimeException e) {
                inFlight.completed();
                credits.untake(returns);
                freeControl(slot);
                channel.failures().fail(new MessagingException("credit message: ibv_post_send to " + channel.peerName() + " failed", e));
            }
            return;
        }
    }

    /** A credit message's SEND completed: its control slot is free again. */
    void freeControl(int slot) {
        // A plain CAS loop: getAndUpdate with a lambda capturing slot may allocate per completion.
        int bits;
        do {
            bits = controlBusy.get();
        } while (!controlBusy.compareAndSet(bits, bits & ~(1 << slot)));
    }

    /** Wakes every sender waiting for a buffer with the channel's failure. */
    void fail(MessagingException cause) {
        freeSends.fail(cause);
    }

    long messagesSent() {
        return messagesSent.get();
    }

    long creditMessagesSent() {
        return creditMessagesSent.get();
    }
}
