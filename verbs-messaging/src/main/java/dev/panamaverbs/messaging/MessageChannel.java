package dev.panamaverbs.messaging;

import dev.panamaverbs.cm.ConnectionRequest;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * nothing is ever sent beyond the peer's window. A {@link #send(MemorySegment)} payload larger than
 * {@link ChannelOptions#rendezvousThreshold()} goes by rendezvous, without the caller's help: the
 * region is registered for REMOTE_READ, offered, read by the peer with RDMA READ into a buffer of
 * its own, and the send returns once the peer's DONE says it was read (or throws a
 * {@link RendezvousException} naming why not, or the channel's failure when the connection is
 * lost). The send's deadline bounds the wait for DONE too: past it the channel fails and the send
 * throws a {@link RendezvousTimeoutException}. The receiver gets it like any message, its payload
 * in the rendezvous buffer.
 *
 * <p>Receiving: {@link #receive(Duration)} blocks for the next message, or a handler set with
 * {@link #setMessageHandler} is called with each on the shared poller's thread. Either way the
 * {@link ReceivedMessage} is a read-only view of the receive buffer until released.
 *
 * <p>Waits: the completion queue's completion channel has an event handler on the shared
 * {@link dev.panamaverbs.events.Poller}: no thread per channel polls. One virtual thread per channel
 * parks (on the same poller) waiting for the rdma_cm DISCONNECTED event. A peer that disconnects or
 * dies fails the channel: blocked and later sends throw a {@link MessagingException}, messages that
 * already arrived can still be received, then receive throws too. A failure this side finds (a
 * failed completion, a protocol error) fails it the same way and {@code rdma_disconnect}s, so the
 * peer's channel fails at once too.
 *
 * <p>Request/response: {@link #request} sends a {@link MessageType#REQUEST} with a new correlation
 * id and returns a future for the {@link MessageType#RESPONSE} of the same id, failed after its
 * timeout or when the peer is lost. Requests arrive like DATA (handler or {@link #receive}, with
 * {@link ReceivedMessage#type()} REQUEST); {@link #respond} answers one, now or later, from any
 * thread. Serialization is the caller's. Requests and responses above the threshold go by
 * rendezvous too.
 *
 * <p>Thread-safe: any thread may send, receive, release and close.
 */
public final class MessageChannel implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MessageChannel.class);
    private static final long CLOSE_DRAIN_NANOS = 5_000_000_000L;

    private final ChannelResources resources;
    private final ChannelOptions options;
    private final CreditWindow credits;
    private final int maxSend;
    private final int threshold;
    private final String peer;
    private final InFlight inFlight = new InFlight();
    private final PendingRequests pending = new PendingRequests();
    private final ChannelSends sends;
    private final ChannelDispatch dispatch;
    private final RendezvousSends rendezvous;
    private final ChannelFailure failures;
    private final AtomicBoolean closing = new AtomicBoolean();
    /** The offers' way out, made once: a lambda per send would be an allocation per large message. */
    private final RendezvousSends.OfferPost offerPost;
    /** A blocking large send past its deadline, made once for the same reason. */
    private final RendezvousSends.Expiry expiry = (id, length, which, timeout) -> expire(id, length, which + timeout);

    MessageChannel(ChannelResources resources, ChannelOptions options, Handshake peerHandshake, String peer,
            int readDepth) {
        this.resources = resources;
        this.options = options;
        this.peer = peer;
        this.credits = new CreditWindow(peerHandshake.credits(), options.receiveCredits());
        this.failures = new ChannelFailure(peer, resources.id, this::wakeAll);
        this.maxSend = Math.min(options.maxMessageSize(), peerHandshake.maxMessageSize());
        this.threshold = Math.min(options.rendezvousThreshold(), maxSend);
        this.sends = new ChannelSends(this, resources, credits, inFlight);
        ChannelSends channelSends = sends;
        this.offerPost = channelSends::sendOffer;
        this.rendezvous = new RendezvousSends(resources.pd, options, peer);
        this.dispatch = new ChannelDispatch(this, resources, credits, inFlight, sends, pending, rendezvous);
        int chunk = RendezvousLimits.chunkSize(options.rendezvousChunkSize(), resources.portMaxMessageSize());
        dispatch.reads(new RendezvousReads(dispatch, resources.pd, resources.queuePair, inFlight, options, readDepth,
                chunk, peer));
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
        return ChannelSetup.connect(remote, options, null);
    }

    /**
     * {@link #connect(InetSocketAddress, ChannelOptions)}, the receive buffers taken from
     * {@code pool}'s shared receive queue instead of the channel's own: the channel reserves
     * {@link ChannelOptions#receiveBuffers()} of them, and is refused when the pool has fewer free.
     *
     * @param remote the server's address
     * @param options buffer sizes and deadlines; {@link ChannelOptions#bufferSize()} must be the pool's
     * @param pool the pool, on the device the connection goes through
     * @return the connected channel
     * @throws MessagingException when the pool has too few free buffers or is closed
     * @throws IllegalArgumentException when the connection's device or buffer size is not the pool's
     * @throws dev.panamaverbs.cm.ConnectionException when resolution or the connect fails or times out
     */
    public static MessageChannel connect(InetSocketAddress remote, ChannelOptions options, SharedReceivePool pool) {
        java.util.Objects.requireNonNull(pool, "message channel: pool is null");
        return ChannelSetup.connect(remote, options, pool);
    }

    /** The server side ({@link MessageServer#accept}). */
    static MessageChannel accept(ConnectionRequest request, ChannelOptions options, SharedReceivePool pool) {
        return ChannelSetup.accept(request, options, pool);
    }

    /** Called by {@link ChannelSetup} once connected: the completion handler armed, the disconnect watched. */
    void start() {
        resources.events.setEventHandler(dispatch::drain);
        resources.completionQueue.requestNotification(false);
        dispatch.drain(resources.completionQueue); // what completed before the arm raised no event
        failures.watchDisconnect();
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
        return sends.takeBuffer(deadline(timeout));
    }

    /**
     * Sends {@code data}, waiting up to {@link ChannelOptions#sendTimeout()} for a buffer and a
     * credit: copied into a send buffer when at most {@link ChannelOptions#rendezvousThreshold()}
     * bytes, else by rendezvous (see the class comment): then the call returns once the receiver
     * has read it, within the same timeout, and {@code data} must not change until then.
     *
     * @param data the payload
     * @throws IllegalArgumentException when larger than 2^31-1 bytes, or when it needs rendezvous
     *         and the channel's buffers are smaller than the 32-byte offer
     * @throws IllegalStateException when it needs rendezvous and is called on the thread that
     *         delivers this channel's messages (its message handler, or a callback of a future
     *         this channel completes), which must deliver the DONE it would wait for: nothing is
     *         sent; use {@link #sendAsync} there
     * @throws CreditTimeoutException when no buffer or credit came in time (nothing sent)
     * @throws RendezvousTimeoutException when the receiver's DONE of a large message did not come
     *         in time (the channel is failed and disconnected)
     * @throws RendezvousException when the receiver refused or could not read a large message
     *         (the channel stays usable unless it failed too)
     * @throws MessagingException when the channel failed or is closed
     */
    public void send(MemorySegment data) {
        send(data, options.sendTimeout());
    }

    /**
     * As {@link #send(MemorySegment)} with its own timeout (zero: fail at once without credit),
     * which bounds the buffer and credit waits and a large message's wait for the receiver's DONE
     * together: when the DONE has not come by then, the channel fails with a
     * {@link RendezvousTimeoutException} ({@code rdma_disconnect} first, so that the peer can
     * READ the region no more, then the message's registration is released and every other
     * waiter on the channel ends with that failure) and this call throws it.
     *
     * @param data the payload
     * @param timeout the deadline of the buffer and credit waits and of a large message's DONE
     */
    public void send(MemorySegment data, Duration timeout) {
        Objects.requireNonNull(data, "send: data is null");
        long deadline = deadline(timeout);
        if (data.byteSize() <= threshold) {
            sends.sendCopy(data, MessageType.DATA, 0, deadline);
            return;
        }
        refuseOnDeliveryThread("send", "sendAsync");
        checkLarge(data, "send");
        rendezvous.sendAndAwait(data, MessageType.DATA, 0, deadline, offerPost, expiry, "the send's timeout of ", timeout);
    }

    /**
     * Starts sending {@code data} and returns at once after the offer (rendezvous) or the copy
     * (small): the future completes when {@code data} may change again, i.e. when the receiver's
     * DONE arrived for a large message (exceptionally with a {@link RendezvousException} or the
     * channel's failure). Waits for a buffer and a credit up to {@code timeout}; the future itself
     * has no deadline (its user chooses the wait, e.g. {@code get} with a timeout; a peer that stays
     * connected and never answers leaves it pending, the message's registration leased, until the
     * channel fails or is closed).
     *
     * @param data the payload
     * @param timeout the deadline of the buffer and credit waits
     * @return the message's future (completes on the poller thread)
     * @throws CreditTimeoutException when no buffer or credit came in time (nothing sent)
     * @throws MessagingException when the channel failed or is closed
     */
    public CompletableFuture<Void> sendAsync(MemorySegment data, Duration timeout) {
        Objects.requireNonNull(data, "send: data is null");
        long deadline = deadline(timeout);
        if (data.byteSize() <= threshold) {
            sends.sendCopy(data, MessageType.DATA, 0, deadline);
            return CompletableFuture.completedFuture(null);
        }
        return sendLarge(data, MessageType.DATA, 0, deadline, "send").done();
    }

    /**
     * Offers {@code data} by rendezvous as a message of {@code type} with {@code correlation};
     * {@return the message offered, with the future of its DONE}
     */
    private RendezvousSends.Offered sendLarge(MemorySegment data, MessageType type, long correlation, long deadline,
            String what) {
        checkLarge(data, what);
        return rendezvous.send(data, type, correlation, deadline, offerPost);
    }

    /** Refuses a large message the channel cannot offer, or a channel that failed. */
    private void checkLarge(MemorySegment data, String what) {
        failures.requireOpen(what);
        if (maxSend < RendezvousOffer.SIZE) {
            throw new IllegalArgumentException(what + ": a message of " + data.byteSize() + " bytes needs rendezvous,"
                    + " whose " + RendezvousOffer.SIZE + "-byte offer does not fit the channel's " + maxSend
                    + "-byte buffers");
        }
        if (data.byteSize() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(what + ": a message of " + data.byteSize() + " bytes exceeds the"
                    + " rendezvous limit of 2^31-1 bytes");
        }
    }

    /**
     * A large message's DONE did not come within {@code which}: fails the channel, disconnecting
     * first (a disconnected queue pair serves no more READs of the message, so its lease can go).
     */
    private RendezvousTimeoutException expire(long id, long length, String which) {
        RendezvousTimeoutException expired = new RendezvousTimeoutException("message channel to " + peer
                + ": the receiver's DONE of rendezvous message " + id + " (" + length
                + " bytes) did not come within " + which + "; the channel is failed and disconnected", id);
        failures.failDisconnectingFirst(expired);
        return expired;
    }

    /**
     * Refuses a blocking large send on the thread in this channel's {@link ChannelDispatch#drain}
     * (the message handler's, or a callback of a future the channel completes): the DONE it
     * would wait for is delivered by that same thread.
     */
    private void refuseOnDeliveryThread(String what, String instead) {
        if (dispatch.isDelivering()) {
            throw new IllegalStateException(what + ": a large message on the thread that delivers the messages of the"
                    + " channel to " + peer + " (its message handler) would wait for a DONE that only this thread can"
                    + " deliver; nothing was sent: use " + instead + " there, or call " + what
                    + " from another thread");
        }
    }

    /**
     * Sends {@code data} as a request with a new correlation id; the future completes with the
     * peer's response (release it when done) or fails with a {@link RequestTimeoutException} after
     * {@code timeout}, or with the channel's failure when the peer is lost. The send itself waits
     * for a buffer and a credit within the same {@code timeout}. A request larger than
     * {@link #rendezvousThreshold()} goes by rendezvous (the peer receives it as any REQUEST):
     * then the future completes only once the peer's DONE came as well, so {@code data} must not
     * change until it completes, and a refused or unreadable request fails it with a
     * {@link RendezvousException}. When {@code timeout} passes before that DONE, the channel fails
     * and disconnects (a disconnected queue pair serves no more READs of {@code data}) and the
     * future fails with a {@link MessagingException} whose cause is a
     * {@link RendezvousTimeoutException}. The future completes on the poller's thread: chain blocking work
     * with the {@code ...Async} methods.
     *
     * @param data the request's payload (up to 2^31-1 bytes)
     * @param timeout how long to wait for the response (and, within it, for a credit)
     * @return the response's future
     * @throws CreditTimeoutException when no buffer or credit came in time (nothing sent)
     * @throws MessagingException when the channel failed or is closed
     */
    public CompletableFuture<ReceivedMessage> request(MemorySegment data, Duration timeout) {
        Objects.requireNonNull(data, "request: data is null");
        long deadline = deadline(timeout);
        failures.requireOpen("request");
        long id = pending.nextId();
        CompletableFuture<ReceivedMessage> response = pending.register(id, timeout, "request to " + peer);
        try {
            if (data.byteSize() > threshold) {
                RendezvousSends.Offered offered = sendLarge(data, MessageType.REQUEST, id, deadline, "request");
                // The request's timeout must end it even when the peer never answers the DONE that
                // its future waits for: then the channel fails as a blocking send past its deadline.
                response.whenComplete((message, failure) -> {
                    if (failure instanceof RequestTimeoutException && !offered.done().isDone()) {
                        expire(offered.id(), offered.length(), "the request's timeout of " + timeout);
                    }
                });
                return pending.afterRead(id, offered.done(), response);
            }
            sends.sendCopy(data, MessageType.REQUEST, id, deadline);
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
     * A response larger than {@link #rendezvousThreshold()} goes by rendezvous: then the call
     * returns once the requester has read it, within the same {@code sendTimeout} (past it the
     * channel fails as in {@link #send(MemorySegment, Duration)}); on the message handler's thread,
     * which carries the DONE, it is refused: use {@link #respondAsync} there.
     *
     * @param correlation the request's id
     * @param data the response's payload (up to 2^31-1 bytes)
     * @throws IllegalArgumentException when {@code correlation} is 0
     * @throws IllegalStateException when the response needs rendezvous and this is the thread that
     *         delivers this channel's messages (nothing is sent)
     * @throws CreditTimeoutException when no buffer or credit came in time (nothing sent)
     * @throws RendezvousTimeoutException when the requester's DONE of a large response did not
     *         come in time (the channel is failed and disconnected)
     * @throws RendezvousException when the requester refused or could not read a large response
     * @throws MessagingException when the channel failed or is closed
     */
    public void respond(long correlation, MemorySegment data) {
        long deadline = checkResponse(correlation, data);
        if (data.byteSize() <= threshold) {
            sends.sendCopy(data, MessageType.RESPONSE, correlation, deadline);
            return;
        }
        refuseOnDeliveryThread("respond", "respondAsync");
        checkLarge(data, "respond");
        rendezvous.sendAndAwait(data, MessageType.RESPONSE, correlation, deadline, offerPost, expiry,
                "ChannelOptions.sendTimeout of ", options.sendTimeout());
    }

    /**
     * As {@link #respond}, returning at once after the offer (rendezvous) or the copy (small),
     * also on the message handler's thread: the future completes when {@code data} may change
     * again, as {@link #sendAsync}'s (no deadline of its own: its user chooses the wait).
     *
     * @param correlation the request's id
     * @param data the response's payload (up to 2^31-1 bytes)
     * @return the response's future (completes on the poller thread)
     * @throws IllegalArgumentException when {@code correlation} is 0
     * @throws CreditTimeoutException when no buffer or credit came in time (nothing sent)
     * @throws MessagingException when the channel failed or is closed
     */
    public CompletableFuture<Void> respondAsync(long correlation, MemorySegment data) {
        long deadline = checkResponse(correlation, data);
        if (data.byteSize() <= threshold) {
            sends.sendCopy(data, MessageType.RESPONSE, correlation, deadline);
            return CompletableFuture.completedFuture(null);
        }
        return sendLarge(data, MessageType.RESPONSE, correlation, deadline, "respond").done();
    }

    /** Checks a response's arguments; {@return the deadline of its buffer and credit waits} */
    private long checkResponse(long correlation, MemorySegment data) {
        if (correlation == 0) {
            throw new IllegalArgumentException("respond: correlation id 0 is no request's (a DATA message's)");
        }
        Objects.requireNonNull(data, "respond: data is null");
        return deadline(options.sendTimeout());
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
     * @param timeout the deadline of the buffer and credit waits
     */
    public void send(ByteBuffer data, Duration timeout) {
        Objects.requireNonNull(data, "send: data is null");
        send(MemorySegment.ofBuffer(data), timeout);
    }

    /** A zero-copy DATA send of {@code buffer} ({@link SendBuffer#send}). */
    void sendFrom(SendBuffer buffer, int length, long deadline) {
        sends.post(buffer, MessageType.DATA, length, 0, 0, deadline);
    }

    /** A send buffer closed unsent. */
    void giveBack(int slot) {
        sends.giveBack(slot);
    }

    /**
     * Sends the DONE of rendezvous message {@code id}: at once when a send buffer and a credit are
     * free now (the usual case, allocating nothing), else on a virtual thread (it may wait for a
     * credit, which the poller thread must never do), which tries again after each credit timeout
     * until sent or the channel ends, since the sender holds its region until then.
     */
    void answerRendezvous(long id, RendezvousStatus status) {
        try {
            if (sends.trySendHeader(MessageType.RENDEZVOUS_DONE, id, status.code())) {
                return;
            }
        } catch (MessagingException e) {
            return; // the channel failed: the sender hears of the loss instead
        }
        Thread.ofVirtual().name("rendezvous-done " + peer).start(() -> {
            while (isOpen()) {
                try {
                    sends.sendHeader(MessageType.RENDEZVOUS_DONE, id, status.code(), deadline(options.sendTimeout()));
                    return;
                } catch (CreditTimeoutException e) {
                    LOG.debug("message channel to {}: the DONE of message {} waits for a credit", peer, id);
                } catch (MessagingException e) {
                    return; // the channel failed: the sender hears of the loss instead
                }
            }
        });
    }

    // ---------------------------------------------------------------- receiving

    /**
     * The next message, waiting up to {@code timeout}; release it when done.
     *
     * @param timeout how long to wait (zero: one look)
     * @return the message, or null when none came in time
     * @throws RendezvousException when the next message was a large one this side refused or could
     *         not read (that message is gone; the channel goes on unless it failed too)
     * @throws MessagingException when the channel failed (after every message that arrived before
     *         was received) or is closed
     */
    public ReceivedMessage receive(Duration timeout) {
        return dispatch.receive(deadline(timeout));
    }

    /**
     * The next message copied into {@code destination}, its buffer re-posted at once
     * ({@code ibv_post_recv}, or the pool's SRQ) and its credit counted for return: the copying
     * counterpart of {@link #receive(Duration)}. A message that came in one receive buffer is
     * received without allocating anything (the zero-copy form allocates one small object per
     * message, the guard that keeps a released message from reaching its buffer's next one). A
     * message longer than {@code destination} is cut to its size, and the full length returned
     * tells so. A REQUEST's correlation id is not returned here: receive requests with
     * {@link #receive(Duration)} to answer them.
     *
     * @param destination where the payload goes (writable)
     * @param timeout how long to wait (zero: one look)
     * @return the payload's full length, or -1 when no message came in time
     * @throws IllegalArgumentException when {@code destination} is read-only
     * @throws RendezvousException when the next message was a large one this side refused or could
     *         not read (that message is gone; the channel goes on unless it failed too)
     * @throws MessagingException when the channel failed (after every message that arrived before
     *         was received) or is closed
     */
    public int receive(MemorySegment destination, Duration timeout) {
        Objects.requireNonNull(destination, "receive: destination is null");
        if (destination.isReadOnly()) {
            throw new IllegalArgumentException("receive: the destination segment is read-only");
        }
        ReceivedMessage message = dispatch.receive(deadline(timeout));
        return message == null ? -1 : message.copyAndRecycle(destination);
    }

    /**
     * Has {@code handler} called with each message that arrives from now on, on the shared
     * poller's thread, instead of queueing it for {@link #receive}. The handler must be short and
     * must not block (no send that waits for a credit: the credits arrive on that same thread; a
     * blocking large {@link #send(MemorySegment) send} or {@link #respond respond}, which would wait
     * for a DONE this thread delivers, is refused with {@link IllegalStateException}); it
     * releases each message, at once or later from another thread. Messages queued before stay
     * for {@link #receive}. Null goes back to queueing. A large message that could not be received
     * is logged (WARN) instead.
     *
     * @param handler the handler, or null
     */
    public void setMessageHandler(Consumer<? super ReceivedMessage> handler) {
        dispatch.handler(handler);
    }

    // ---------------------------------------------------------------- life cycle

    /** Ends every waiter, pending request and rendezvous message with {@code first} ({@link ChannelFailure}'s wake-up). */
    private void wakeAll(MessagingException first) {
        credits.fail(first);
        pending.failAll(first);
        sends.fail(first);
        dispatch.fail(first);
        rendezvous.failAll(first);
        inFlight.wake();
    }

    /** {@return how the channel ends: its failure, the waiters' wake-up, the disconnects} */
    ChannelFailure failures() {
        return failures;
    }

    /**
     * Waits (5 s at most, woken by the last completion rather than polling) for the sends and
     * RDMA READs in flight to complete, then disconnects and frees everything: queue pair,
     * completion queue and channel, registered pools and rendezvous buffers, the registration
     * cache, protection domain, rdma_cm identifier. Waiters end with a {@link MessagingException},
     * and so do large sends whose DONE has not come; the peer sees its channel fail. Idempotent,
     * from any thread.
     */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        if (failures.failure() == null) {
            inFlight.awaitNone(System.nanoTime() + CLOSE_DRAIN_NANOS, () -> failures.failure() != null);
        }
        failures.markClosed();
        failures.fail(new MessagingException("message channel to " + peer + " is closed", null));
        dispatch.awaitDrain();
        try {
            rendezvous.close();
        } finally {
            resources.close();
            if (resources.sharedPool != null) {
                resources.sharedPool.forget(this);
                dispatch.releaseAfterClose(); // the pool outlives the channel: give back what it holds
            }
        }
    }

    // ---------------------------------------------------------------- state

    /** {@return the peer's address as the channel's messages and thread names give it} */
    String peerName() {
        return peer;
    }

    /** {@return the options this channel was made with} */
    public ChannelOptions options() {
        return options;
    }

    /** {@return the largest payload sent in one receive buffer: the smaller of both sides' maxMessageSize} */
    public int maxMessageSize() {
        return maxSend;
    }

    /** {@return the payload size above which {@link #send(MemorySegment)} goes by rendezvous} */
    public int rendezvousThreshold() {
        return threshold;
    }

    /** {@return the RDMA READs this side keeps outstanding at most: its negotiated initiator depth} */
    public int rendezvousReadDepth() {
        return dispatch.reads().depth();
    }

    /** {@return the bytes of one rendezvous RDMA READ at most (the option within the port's max_msg_sz)} */
    public int rendezvousChunkSize() {
        return dispatch.reads().chunkSize();
    }

    /** {@return the credits, pending requests and message counters, read now (each on its own, not as one atomic snapshot)} */
    public ChannelStatistics statistics() {
        return new ChannelStatistics(credits.available(), credits.peerWindow(), pending.size(), sends.messagesSent(),
                dispatch.messagesReceived(), sends.creditMessagesSent(), dispatch.creditMessagesReceived());
    }

    /** {@return the failure that ended the channel (peer lost, protocol error, closed), or empty while it works} */
    public Optional<MessagingException> failure() {
        return Optional.ofNullable(failures.failure());
    }

    /** {@return true until the channel failed or was closed} */
    public boolean isOpen() {
        return failures.failure() == null && !failures.isClosed();
    }

    /** {@return true once closed (its buffers freed)} */
    boolean isClosed() {
        return failures.isClosed();
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
                + (isClosed() ? ", closed" : failures.failure() != null ? ", failed" : "") + "]";
    }
}
