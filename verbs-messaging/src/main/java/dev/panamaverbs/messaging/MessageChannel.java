package dev.panamaverbs.messaging;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.cm.ConnectionEvent;
import dev.panamaverbs.cm.ConnectionEventChannel;
import dev.panamaverbs.cm.ConnectionId;
import dev.panamaverbs.cm.ConnectionOptions;
import dev.panamaverbs.cm.ConnectionRequest;
import dev.panamaverbs.cm.PortSpace;
import dev.panamaverbs.values.CompletionStatus;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A message channel over one RC connection made with rdma_cm, with credit-based flow control: the
 * peer advertised its window of receive buffers at connection set-up, and this side never posts a
 * message without one of those credits, so the peer never meets a SEND without a posted receive
 * (both queue pairs run with an RNR retry count of 0: an RNR would fail the channel, never retry
 * silently). Credits come back in the header of the peer's messages, or in a
 * {@link MessageType#CREDIT} message once half the window was released with no traffic to carry
 * them. The wire format is {@link MessageHeader}; {@code docs/messaging.md} has all of it.
 *
 * <p>Sending: {@link #sendBuffer()} gives a registered buffer to fill and send without a copy;
 * {@link #send(MemorySegment)} and {@link #send(ByteBuffer)} copy into one. Without a credit a send
 * waits up to {@link ChannelOptions#sendTimeout()} and then throws {@link CreditTimeoutException};
 * nothing is ever sent beyond the peer's window. A payload larger than {@link #maxMessageSize()}
 * is refused (rendezvous for large messages is reserved in the wire format, not implemented yet).
 *
 * <p>Receiving: {@link #receive(Duration)} blocks for the next message, or a handler set with
 * {@link #setMessageHandler} is called with each on the shared poller's thread. Either way the
 * {@link ReceivedMessage} is a read-only view of the receive buffer until released.
 *
 * <p>Waits: the completion queue's completion channel has an event handler on the shared
 * {@link dev.panamaverbs.events.Poller}: no thread per channel polls. One virtual thread per channel
 * parks (on the same poller) waiting for the rdma_cm DISCONNECTED event. A peer that disconnects or
 * dies fails the channel: blocked and later sends throw a {@link MessagingException}, messages that
 * already arrived can still be received, then receive throws too.
 *
 * <p>Request/response: {@link #request} sends a {@link MessageType#REQUEST} with a new correlation
 * id and returns a future for the {@link MessageType#RESPONSE} of the same id, failed after its
 * timeout or when the peer is lost. Requests arrive like DATA (handler or {@link #receive}, with
 * {@link ReceivedMessage#type()} REQUEST); {@link #respond} answers one, now or later, from any
 * thread. Serialization is the caller's.
 *
 * <p>Thread-safe: any thread may send, receive, release and close.
 */
public final class MessageChannel implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MessageChannel.class);
    private static final int POLL_BATCH = 32;
    private static final long CLOSE_DRAIN_NANOS = 5_000_000_000L;
    private static final Duration DISCONNECT_WATCH_SLICE = Duration.ofMinutes(10);

    private final ChannelResources resources;
    private final ChannelOptions options;
    private final CreditWindow credits;
    private final int maxSend;
    private final String peer;
    private final SlotQueue freeSends;
    private final SlotQueue arrived;
    private final SendBuffer[] sendBuffers;
    private final ReceiveSlots messages;
    private final MemorySegment receiveMemory;
    private final MemorySegment sendMemory;
    private final Completions batch = Completions.allocate(POLL_BATCH);
    private final PendingRequests pending = new PendingRequests();
    private final Object drainLock = new Object();
    /** Bit i set: credit message slot i is posted and not yet completed. */
    private final AtomicInteger controlBusy = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong messagesSent = new AtomicLong();
    private final AtomicLong messagesReceived = new AtomicLong();
    private final AtomicLong creditMessagesSent = new AtomicLong();
    private final AtomicLong creditMessagesReceived = new AtomicLong();
    private volatile Consumer<? super ReceivedMessage> handler;
    private volatile MessagingException failure;
    private volatile boolean closed;

    private MessageChannel(ChannelResources resources, ChannelOptions options, Handshake peerHandshake, String peer) {
        this.resources = resources;
        this.options = options;
        this.peer = peer;
        this.credits = new CreditWindow(peerHandshake.credits(), options.receiveCredits());
        this.maxSend = Math.min(options.maxMessageSize(), peerHandshake.maxMessageSize());
        this.receiveMemory = resources.receivePool.memory();
        this.sendMemory = resources.sendPool.memory();
        this.freeSends = SlotQueue.full(options.sendBuffers());
        this.arrived = new SlotQueue(options.receiveBuffers());
        this.sendBuffers = new SendBuffer[options.sendBuffers()];
        for (int slot = 0; slot < sendBuffers.length; slot++) {
            sendBuffers[slot] = new SendBuffer(this, slot,
                    sendMemory.asSlice(resources.sendOffset(slot) + MessageHeader.SIZE, maxSend));
        }
        MemorySegment[] receiveBuffers = new MemorySegment[options.receiveBuffers()];
        for (int slot = 0; slot < receiveBuffers.length; slot++) {
            receiveBuffers[slot] = receiveMemory.asSlice(resources.receiveOffset(slot), resources.bufferSize).asReadOnly();
        }
        this.messages = new ReceiveSlots(new ReceiveSlots.Owner() {
            @Override
            public void repost(int slot) {
                MessageChannel.this.repost(slot);
            }

            @Override
            public boolean isClosed() {
                return closed;
            }
        }, receiveBuffers);
    }

    /**
     * Connects to a {@link MessageServer} at {@code remote} (rdma_cm: resolve address and route,
     * {@code rdma_connect}), the receive buffers posted before the connect and the window
     * advertised in the private data.
     *
     * @param remote the server's address
     * @param options buffer sizes and deadlines (the server may use other sizes: each side sends at
     *                most what the other's buffers hold)
     * @return the connected channel
     * @throws dev.panamaverbs.cm.ConnectionRejectedException when rejected (also when the server
     *         refused the handshake; its reason is in the exception's private data)
     * @throws dev.panamaverbs.cm.ConnectionException when resolution or the connect fails or times out
     * @throws MessagingException when the server's handshake is not a channel's
     */
    public static MessageChannel connect(InetSocketAddress remote, ChannelOptions options) {
        Objects.requireNonNull(remote, "message channel: remote is null");
        Objects.requireNonNull(options, "message channel: options is null");
        ConnectionEventChannel cmChannel = ConnectionEventChannel.create();
        try {
            ConnectionId id = cmChannel.createIdentifier(PortSpace.TCP);
            id.resolveAddress(remote, options.connectTimeout());
            id.resolveRoute(options.connectTimeout());
            ChannelResources resources = ChannelResources.create(cmChannel, id, options);
            ConnectionEvent established = id.connect(connectionOptions(options), options.connectTimeout());
            String peer = remote.getAddress().getHostAddress() + ":" + remote.getPort();
            Handshake theirs = Handshake.decode(established.privateData(), peer);
            return start(resources, options, theirs, peer);
        } catch (RuntimeException | Error e) {
            cmChannel.close();
            throw e;
        }
    }

    /** The server side: checks the request's handshake (rejecting a stranger), makes the resources, accepts. */
    static MessageChannel accept(ConnectionRequest request, ChannelOptions options) {
        String peer = request.remoteAddress().getAddress().getHostAddress() + ":" + request.remoteAddress().getPort();
        Handshake theirs;
        try {
            theirs = Handshake.decode(request.privateData(), peer);
        } catch (MessagingException e) {
            byte[] reason = e.getMessage().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            request.reject(java.util.Arrays.copyOf(reason, Math.min(reason.length, ConnectionOptions.MAX_REJECT_PRIVATE_DATA)));
            throw e;
        }
        ConnectionId id = request.identifier();
        ConnectionEventChannel cmChannel = id.channel();
        try {
            ChannelResources resources = ChannelResources.create(cmChannel, id, options);
            id.accept(connectionOptions(options), options.connectTimeout());
            return start(resources, options, theirs, peer);
        } catch (RuntimeException | Error e) {
            cmChannel.close();
            throw e;
        }
    }

    /** The rdma_cm parameters: our handshake, RNR retry 0 (an RNR is an error, never a silent retry). */
    private static ConnectionOptions connectionOptions(ChannelOptions options) {
        return ConnectionOptions.builder()
                .privateData(new Handshake(options.receiveCredits(), options.maxMessageSize()).encode())
                .rnrRetryCount(0).retryCount(options.retryCount())
                .connectTimeout(options.connectTimeout()).resolveTimeout(options.connectTimeout()).build();
    }

    private static MessageChannel start(ChannelResources resources, ChannelOptions options, Handshake theirs, String peer) {
        MessageChannel channel = new MessageChannel(resources, options, theirs, peer);
        resources.events.setEventHandler(channel::drain);
        resources.completionQueue.requestNotification(false);
        channel.drain(resources.completionQueue); // what completed before the arm raised no event
        Thread.ofVirtual().name("message-channel-watch " + peer).start(channel::watchDisconnect);
        return channel;
    }

    // ---------------------------------------------------------------- sending

    /**
     * A free registered send buffer, waiting up to {@link ChannelOptions#sendTimeout()}.
     *
     * @return the buffer, the caller's until sent or closed
     * @throws CreditTimeoutException when every buffer stayed in flight past the timeout
     * @throws MessagingException when the channel failed or is closed
     */
    public SendBuffer sendBuffer() {
        return sendBuffer(options.sendTimeout());
    }

    /**
     * As {@link #sendBuffer()} with its own timeout.
     *
     * @param timeout how long to wait for a free buffer (zero: one look)
     * @return the buffer
     */
    public SendBuffer sendBuffer(Duration timeout) {
        return takeBuffer(deadline(timeout));
    }

    /**
     * Copies {@code data} into a send buffer and sends it, waiting up to
     * {@link ChannelOptions#sendTimeout()} for a buffer and a credit.
     *
     * @param data the payload, at most {@link #maxMessageSize()} bytes
     * @throws IllegalArgumentException when larger than {@link #maxMessageSize()}
     * @throws CreditTimeoutException when no buffer or credit came in time (nothing sent)
     * @throws MessagingException when the channel failed or is closed
     */
    public void send(MemorySegment data) {
        send(data, options.sendTimeout());
    }

    /**
     * As {@link #send(MemorySegment)} with its own timeout (zero: fail at once without credit).
     *
     * @param data the payload
     * @param timeout the deadline of the whole call
     */
    public void send(MemorySegment data, Duration timeout) {
        sendCopy(data, MessageType.DATA, 0, deadline(timeout));
    }

    /** Copies {@code data} into a free send buffer and posts it as {@code type} with {@code correlation}. */
    private void sendCopy(MemorySegment data, MessageType type, long correlation, long deadline) {
        Objects.requireNonNull(data, "send: data is null");
        int length = checkLength(data.byteSize());
        SendBuffer buffer = takeBuffer(deadline);
        try {
            MemorySegment.copy(data, 0, buffer.segment(), 0, length);
            post(buffer, type, length, correlation, deadline);
        } finally {
            buffer.close(); // gives it back only when it was not sent
        }
    }

    /**
     * Sends {@code data} as a request with a new correlation id; the future completes with the
     * peer's response (release it when done) or fails with a {@link RequestTimeoutException} after
     * {@code timeout}, or with the channel's failure when the peer is lost. The send itself waits
     * for a buffer and a credit within the same {@code timeout}. The future completes on the
     * poller's thread: chain blocking work with the {@code ...Async} methods.
     *
     * @param data the request's payload, at most {@link #maxMessageSize()} bytes
     * @param timeout how long to wait for the response (and, within it, for a credit)
     * @return the response's future
     * @throws CreditTimeoutException when no buffer or credit came in time (nothing sent)
     * @throws MessagingException when the channel failed or is closed
     * @throws IllegalArgumentException when larger than {@link #maxMessageSize()}
     */
    public CompletableFuture<ReceivedMessage> request(MemorySegment data, Duration timeout) {
        long deadline = deadline(timeout);
        requireOpen("request");
        long id = pending.nextId();
        CompletableFuture<ReceivedMessage> response = pending.register(id, timeout, "request to " + peer);
        try {
            sendCopy(data, MessageType.REQUEST, id, deadline);
        } catch (RuntimeException e) {
            pending.abandon(id, e);
            throw e;
        }
        return response;
    }

    /**
     * Answers the request of {@code correlation} ({@link ReceivedMessage#correlation()} of a
     * {@link MessageType#REQUEST} message), now or later, from any thread; the request message may
     * be released before. Waits for a buffer and a credit up to {@link ChannelOptions#sendTimeout()}.
     *
     * @param correlation the request's id
     * @param data the response's payload, at most {@link #maxMessageSize()} bytes
     * @throws IllegalArgumentException when {@code correlation} is 0 or the payload too large
     * @throws CreditTimeoutException when no buffer or credit came in time (nothing sent)
     * @throws MessagingException when the channel failed or is closed
     */
    public void respond(long correlation, MemorySegment data) {
        if (correlation == 0) {
            throw new IllegalArgumentException("respond: correlation id 0 is no request's (a DATA message's)");
        }
        sendCopy(data, MessageType.RESPONSE, correlation, deadline(options.sendTimeout()));
    }

    /**
     * Copies the remaining bytes of {@code data} (its position is not moved) and sends them, as
     * {@link #send(MemorySegment)}.
     *
     * @param data the payload, heap or direct
     */
    public void send(ByteBuffer data) {
        send(data, options.sendTimeout());
    }

    /**
     * As {@link #send(ByteBuffer)} with its own timeout.
     *
     * @param data the payload
     * @param timeout the deadline of the whole call
     */
    public void send(ByteBuffer data, Duration timeout) {
        Objects.requireNonNull(data, "send: data is null");
        send(MemorySegment.ofBuffer(data), timeout);
    }

    private SendBuffer takeBuffer(long deadline) {
        requireOpen("send");
        int slot = freeSends.take(deadline);
        if (slot < 0) {
            throw new CreditTimeoutException("send: all " + sendBuffers.length + " send buffers of the channel to "
                    + peer + " stayed in flight past the deadline");
        }
        SendBuffer buffer = sendBuffers[slot];
        buffer.take();
        return buffer;
    }

    private int checkLength(long length) {
        if (length < 0 || length > maxSend) {
            throw new IllegalArgumentException("send: a message of " + length + " bytes exceeds the channel's "
                    + maxSend + "-byte buffers (the smaller of both sides' maxMessageSize); larger messages need"
                    + " rendezvous, which is not implemented yet");
        }
        return (int) length;
    }

    /** A zero-copy DATA send of {@code buffer} ({@link SendBuffer#send}). */
    void sendFrom(SendBuffer buffer, int length, long deadline) {
        post(buffer, MessageType.DATA, length, 0, deadline);
    }

    /** Takes a credit (waiting until {@code deadline}), writes the header and posts {@code buffer}'s SEND. */
    private void post(SendBuffer buffer, MessageType type, int length, long correlation, long deadline) {
        checkLength(length);
        requireOpen("send");
        credits.acquire(deadline);
        int slot = buffer.slot();
        int returns = credits.takeReturns();
        long offset = resources.sendOffset(slot);
        MessageHeader.write(sendMemory, offset, type, returns, length, correlation);
        buffer.sent();
        inFlight.incrementAndGet();
        try {
            resources.queuePair.postSend(resources.sends[slot].sge(0, resources.sendPool, offset, MessageHeader.SIZE + length));
        } catch (RuntimeException e) {
            inFlight.decrementAndGet();
            credits.giveBack();
            credits.untake(returns);
            freeSends.put(slot);
            throw fail(new MessagingException("send: ibv_post_send to " + peer + " failed", e));
        }
        messagesSent.incrementAndGet();
    }

    /** A send buffer closed unsent. */
    void giveBack(int slot) {
        freeSends.put(slot);
    }

    /** Sends the unreturned credits in a CREDIT message when half the window waits and a control slot is free. */
    private void maybeSendCredit() {
        while (failure == null && !closed && credits.creditMessageDue()) {
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
            inFlight.incrementAndGet();
            try {
                resources.queuePair.postSend(resources.controls[slot]);
                creditMessagesSent.incrementAndGet();
            } catch (RuntimeException e) {
                inFlight.decrementAndGet();
                credits.untake(returns);
                freeControl(slot);
                fail(new MessagingException("credit message: ibv_post_send to " + peer + " failed", e));
            }
            return;
        }
    }

    private void freeControl(int slot) {
        controlBusy.getAndUpdate(bits -> bits & ~(1 << slot));
    }

    // ---------------------------------------------------------------- receiving

    /**
     * The next message, waiting up to {@code timeout}; release it when done.
     *
     * @param timeout how long to wait (zero: one look)
     * @return the message, or null when none came in time
     * @throws MessagingException when the channel failed (after every message that arrived before
     *         was received) or is closed
     */
    public ReceivedMessage receive(Duration timeout) {
        int slot = arrived.take(deadline(timeout));
        return slot < 0 ? null : messages.current(slot);
    }

    /**
     * Has {@code handler} called with each message that arrives from now on, on the shared
     * poller's thread, instead of queueing it for {@link #receive}. The handler must be short and
     * must not block (no send that waits for a credit: the credits arrive on that same thread); it
     * releases each message, at once or later from another thread. Messages queued before stay
     * for {@link #receive}. Null goes back to queueing.
     *
     * @param handler the handler, or null
     */
    public void setMessageHandler(Consumer<? super ReceivedMessage> handler) {
        this.handler = handler;
    }

    /** Re-posts receive buffer {@code slot} and counts its credit for return (from the first {@link ReceivedMessage#release}). */
    void repost(int slot) {
        if (closed || failure != null) {
            return; // nothing is sent again: the buffers go with the channel
        }
        try {
            resources.queuePair.postReceive(resources.receives[slot]);
        } catch (RuntimeException e) {
            if (!closed) {
                fail(new MessagingException("release: ibv_post_recv on the channel to " + peer + " failed", e));
            }
            return;
        }
        credits.returned();
        maybeSendCredit();
    }

    /** The completion handler (the poller thread; once at start on the caller's): polls until empty. */
    private void drain(CompletionQueue queue) {
        synchronized (drainLock) {
            if (closed) {
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

    private void complete(int index) {
        long wrId = batch.wrId(index);
        boolean success = batch.isSuccess(index);
        if ((wrId & ChannelResources.SEND_TAG) != 0) {
            inFlight.decrementAndGet();
            freeSends.put((int) (wrId & 0xffff_ffffL));
        } else if ((wrId & ChannelResources.CONTROL_TAG) != 0) {
            inFlight.decrementAndGet();
            freeControl((int) (wrId & 0xffff_ffffL));
        }
        if (!success) {
            if (!closed && failure == null) {
                // A flush comes first when the connection goes: rdma_cm moves the queue pair to
                // ERROR on DISCONNECTED before the watching thread takes that event.
                String why = batch.status(index) == CompletionStatus.WR_FLUSH_ERR
                        ? "the connection was lost (the queue pair is in the error state: the peer disconnected or died): "
                        : "a work request failed: ";
                fail(new MessagingException("message channel to " + peer + ": " + why + batch.status(index)
                        + " (wr_id 0x" + Long.toHexString(wrId) + ", vendor error 0x"
                        + Integer.toHexString(batch.vendorError(index)) + ")", null));
            }
            return;
        }
        if ((wrId & (ChannelResources.SEND_TAG | ChannelResources.CONTROL_TAG)) != 0) {
            maybeSendCredit(); // a control slot may have come free
            return;
        }
        received((int) wrId, batch.byteLength(index));
    }

    private void received(int slot, int bytes) {
        long offset = resources.receiveOffset(slot);
        MessageType type;
        try {
            type = MessageHeader.check(receiveMemory, offset, bytes);
            credits.grant(MessageHeader.credits(receiveMemory, offset));
        } catch (MessagingException e) {
            fail(new MessagingException("message channel to " + peer + ": " + e.getMessage(), null));
            return;
        }
        switch (type) {
            case CREDIT -> {
                creditMessagesReceived.incrementAndGet();
                repostControl(slot);
            }
            case DATA, REQUEST -> deliver(slot, type, bytes - MessageHeader.SIZE, MessageHeader.correlation(receiveMemory, offset));
            case RESPONSE -> {
                messagesReceived.incrementAndGet();
                ReceivedMessage response = messages.arrived(slot, type, bytes - MessageHeader.SIZE,
                        MessageHeader.correlation(receiveMemory, offset));
                if (!pending.complete(response.correlation(), response)) {
                    response.release(); // its request timed out: dropped
                }
            }
            default -> fail(new MessagingException("message channel to " + peer + ": the peer sent a " + type
                    + " message, which this version does not implement yet", null));
        }
    }

    /** A credit message's buffer is a reserve outside the window: re-posted at once, no credit returned for it. */
    private void repostControl(int slot) {
        try {
            resources.queuePair.postReceive(resources.receives[slot]);
        } catch (RuntimeException e) {
            if (!closed) {
                fail(new MessagingException("ibv_post_recv on the channel to " + peer + " failed", e));
            }
        }
    }

    private void deliver(int slot, MessageType type, int length, long correlation) {
        messagesReceived.incrementAndGet();
        ReceivedMessage message = messages.arrived(slot, type, length, correlation);
        Consumer<? super ReceivedMessage> current = handler;
        if (current == null) {
            arrived.put(slot);
            return;
        }
        try {
            current.accept(message);
        } catch (RuntimeException e) {
            LOG.warn("message handler of the channel to {} threw; the message is released", peer, e);
            message.release();
        }
    }

    // ---------------------------------------------------------------- life cycle

    /** The virtual thread that waits for rdma_cm's DISCONNECTED (parked on the poller). */
    private void watchDisconnect() {
        try {
            while (!closed) {
                if (resources.id.awaitDisconnect(DISCONNECT_WATCH_SLICE)) {
                    if (!closed) {
                        fail(new MessagingException("message channel to " + peer + ": the peer disconnected", null));
                    }
                    return;
                }
            }
        } catch (RuntimeException e) {
            if (!closed) {
                fail(new MessagingException("message channel to " + peer + ": the connection failed", e));
            }
        }
    }

    /** Records the first failure and wakes every waiter with it; {@return the failure now in force} */
    private MessagingException fail(MessagingException cause) {
        synchronized (this) {
            if (failure == null) {
                failure = cause;
                if (!closed) {
                    LOG.debug("message channel to {} failed", peer, cause);
                }
            }
        }
        MessagingException first = failure;
        credits.fail(first);
        pending.failAll(first);
        freeSends.fail(first);
        arrived.fail(first);
        return first;
    }

    private void requireOpen(String what) {
        MessagingException failed = failure;
        if (failed != null) {
            throw new MessagingException(what + ": the channel to " + peer + " failed: " + failed.getMessage(), failed);
        }
    }

    /**
     * Waits (5 s at most) for the sends in flight to complete, then disconnects and frees
     * everything: queue pair, completion queue and channel, registered pools, protection domain,
     * rdma_cm identifier. Waiters end with a {@link MessagingException}; the peer sees its channel
     * fail. Idempotent, from any thread.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            if (failure == null) {
                long deadline = System.nanoTime() + CLOSE_DRAIN_NANOS;
                while (inFlight.get() > 0 && failure == null && System.nanoTime() < deadline) {
                    try {
                        wait(1);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
            }
            closed = true;
        }
        fail(new MessagingException("message channel to " + peer + " is closed", null));
        synchronized (drainLock) {
            // a drain under way ends first; later ones see closed (not held while closing: closing
            // the completion channel may wait for its handler)
        }
        resources.close();
    }

    // ---------------------------------------------------------------- state

    /** {@return the options this channel was made with} */
    public ChannelOptions options() {
        return options;
    }

    /** {@return the largest payload this side may send: the smaller of both sides' maxMessageSize} */
    public int maxMessageSize() {
        return maxSend;
    }

    /** {@return the credits, pending requests and message counters, read now (each on its own, not as one atomic snapshot)} */
    public ChannelStatistics statistics() {
        return new ChannelStatistics(credits.available(), credits.peerWindow(), pending.size(), messagesSent.get(),
                messagesReceived.get(), creditMessagesSent.get(), creditMessagesReceived.get());
    }

    /** {@return the failure that ended the channel (peer lost, protocol error, closed), or empty while it works} */
    public Optional<MessagingException> failure() {
        return Optional.ofNullable(failure);
    }

    /** {@return true until the channel failed or was closed} */
    public boolean isOpen() {
        return failure == null && !closed;
    }

    /** {@return the peer's address} */
    public InetSocketAddress remoteAddress() {
        return resources.id.remoteAddress();
    }

    /** {@return this side's address} */
    public InetSocketAddress localAddress() {
        return resources.id.localAddress();
    }

    /** {@return the queue pair underneath (for diagnostics: posting on it bypasses the credits)} */
    public dev.panamaverbs.QueuePair queuePair() {
        return resources.queuePair;
    }

    static long deadline(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout is null");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, got " + timeout);
        }
        long now = System.nanoTime();
        long nanos;
        try {
            nanos = timeout.toNanos();
        } catch (ArithmeticException huge) {
            nanos = Long.MAX_VALUE;
        }
        long deadline = now + nanos;
        return deadline < now ? Long.MAX_VALUE : deadline; // saturate
    }

    @Override
    public String toString() {
        return "MessageChannel[to " + peer + ", credits " + credits.available() + "/" + credits.peerWindow()
                + (closed ? ", closed" : failure != null ? ", failed" : "") + "]";
    }
}
