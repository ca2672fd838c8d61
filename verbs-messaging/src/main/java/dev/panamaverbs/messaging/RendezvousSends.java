package dev.panamaverbs.messaging;

import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.messaging.registration.RegistrationCache;
import dev.panamaverbs.messaging.registration.RegistrationLease;
import dev.panamaverbs.values.AccessFlag;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The sender's side of rendezvous: a message larger than the threshold is registered for
 * {@code REMOTE_READ} (native memory through the channel's {@link RegistrationCache}, whose lease
 * keeps it from eviction until the message ends; heap memory copied into a staging region
 * registered for that one message), offered to the peer in a {@link MessageType#RENDEZVOUS_OFFER},
 * and held until the peer's {@link MessageType#RENDEZVOUS_DONE} of the same id, or until the
 * channel fails, completes the message. A blocking send's message object (its wait, its lease)
 * is kept for the channel's next blocking send once the DONE came, so that a warm blocking large
 * send allocates nothing; an asynchronous one has a future of its own.
 */
final class RendezvousSends {
    /** Posts a RENDEZVOUS_OFFER of these fields with rendezvous id {@code id} (the channel's credited send path). */
    interface OfferPost {
        void post(long address, long length, int rkey, MessageType type, long correlation, long id, long deadline);
    }

    /**
     * A blocking send's DONE did not come before its deadline ({@code which}, then {@code timeout},
     * name it): fails the channel; {@return the exception the send throws}
     */
    interface Expiry {
        RuntimeException expired(long id, long length, String which, Duration timeout);
    }

    /** Blocking sends' message objects kept for reuse at most (more only while that many send at once). */
    private static final int KEPT = 8;

    private final ProtectionDomain pd;
    private final ChannelOptions options;
    private final String peer;
    private final Outstanding<Outgoing> outgoing = new Outstanding<>();
    /** Message objects of finished blocking sends, for the next ones; guarded by this. */
    private final ArrayDeque<Outgoing> kept = new ArrayDeque<>(KEPT);
    private RegistrationCache cache;
    private boolean closed;

    RendezvousSends(ProtectionDomain pd, ChannelOptions options, String peer) {
        this.pd = pd;
        this.options = options;
        this.peer = peer;
    }

    /**
     * Registers {@code data}, offers it as a message of {@code type} (DATA, REQUEST or RESPONSE)
     * with {@code correlation} (its request/response id, 0 for DATA) and returns it with the future
     * that the DONE (or the channel's failure) completes; until then the registration stays leased.
     *
     * @throws CreditTimeoutException when the offer found no credit or buffer before {@code deadline}
     * @throws MessagingException when the channel failed
     */
    Offered send(MemorySegment data, MessageType type, long correlation, long deadline, OfferPost poster) {
        Outgoing message = new Outgoing();
        message.future = new CompletableFuture<>();
        offer(message, data, type, correlation, deadline, poster);
        return new Offered(message.id, message.length, message.future);
    }

    /**
     * As {@link #send}, then waits for the DONE until {@code deadline}: returns once it came with
     * status OK. The message object is reused afterwards.
     *
     * @param expiry what ends the channel when the deadline passes first ({@code which} and
     *               {@code timeout} name the deadline in its message)
     * @throws RendezvousException when the receiver refused or could not read the message
     * @throws MessagingException when the channel failed first, or what {@code expiry} returned
     */
    void sendAndAwait(MemorySegment data, MessageType type, long correlation, long deadline, OfferPost poster,
            Expiry expiry, String which, Duration timeout) {
        Outgoing message = take();
        message.expiry = expiry;
        message.which = which;
        message.timeout = timeout;
        offer(message, data, type, correlation, deadline, poster);
        message.done.await(deadline, message);
        keep(message); // only after a DONE with OK: a failed one is dropped with its exception
    }

    private void offer(Outgoing message, MemorySegment data, MessageType type, long correlation, long deadline,
            OfferPost poster) {
        requireNoFailure();
        long id = outgoing.nextId();
        register(message, data);
        message.id = id;
        message.length = data.byteSize();
        MessagingException failed = outgoing.add(id, message);
        if (failed != null) {
            finish(id, failed);
            throw failed;
        }
        try {
            poster.post(message.address(), data.byteSize(), message.rkey(), type, correlation, id, deadline);
        } catch (RuntimeException | Error e) {
            finish(id, e);
            throw e;
        }
    }

    private synchronized Outgoing take() {
        Outgoing message = kept.poll();
        if (message == null) {
            return new Outgoing();
        }
        message.done.reset();
        return message;
    }

    private synchronized void keep(Outgoing message) {
        message.expiry = null;
        message.which = null;
        message.timeout = null;
        if (kept.size() < KEPT) {
            kept.push(message);
        }
    }

    private void register(Outgoing message, MemorySegment data) {
        if (data.isNative()) {
            message.lease = cache().acquire(data, message.lease);
            return;
        }
        // Heap memory cannot be registered: a staging copy, registered for this message only.
        MemoryRegion staging = pd.allocateMemoryRegion(data.byteSize(), EnumSet.of(AccessFlag.REMOTE_READ));
        try {
            MemorySegment.copy(data, 0, staging.memory(), 0, data.byteSize());
        } catch (RuntimeException | Error e) {
            staging.close();
            throw e;
        }
        message.staging = staging;
    }

    private synchronized RegistrationCache cache() {
        if (closed) {
            throw new MessagingException("send: the channel to " + peer + " is closed", null);
        }
        if (cache == null) {
            cache = RegistrationCache.open(pd, EnumSet.of(AccessFlag.REMOTE_READ), options.rendezvousRegistrationBudget());
        }
        return cache;
    }

    /** A DONE arrived (the poller thread): the message ends with its status. */
    void done(long id, int statusCode) {
        RendezvousStatus status = RendezvousStatus.ofCode(statusCode);
        if (status == RendezvousStatus.OK) {
            finish(id, null);
            return;
        }
        String why = status == null ? "an unknown status " + statusCode : status.toString();
        Outgoing message = outgoing.get(id);
        long length = message == null ? -1 : message.length;
        finish(id, new RendezvousException("send: the rendezvous of message " + id + " (" + length + " bytes) to "
                + peer + " failed on the receiver: " + why + describe(status), status, id, null));
    }

    private static String describe(RendezvousStatus status) {
        if (status == null) {
            return "";
        }
        return switch (status) {
            case TOO_LARGE -> " (larger than the receiver's maxRendezvousSize)";
            case NO_BUFFER -> " (the receiver could not allocate or register the destination)";
            case READ_FAILED -> " (the receiver's RDMA READ of the registered region failed)";
            case OK -> "";
        };
    }

    /** {@return whether a DONE of {@code id} is expected} (an unknown one is a protocol error) */
    boolean isOutstanding(long id) {
        return outgoing.contains(id);
    }

    /**
     * Ends message {@code id}: its registration released, its wait and future completed (null) or
     * failed. Completing the wait is the last touch of a blocking send's object, which its sender
     * may reuse from then on.
     */
    private void finish(long id, Throwable cause) {
        Outgoing message = outgoing.remove(id);
        if (message == null) {
            return;
        }
        CompletableFuture<Void> future = message.future;
        message.release();
        message.done.complete(cause);
        if (future == null) {
            return;
        }
        if (cause == null) {
            future.complete(null);
        } else {
            future.completeExceptionally(cause);
        }
    }

    /** {@return the messages offered and not yet answered} */
    int size() {
        return outgoing.size();
    }

    /** Fails every outstanding message, and every later one, with {@code cause} (the channel failed). */
    void failAll(MessagingException cause) {
        outgoing.failAll(cause, (id, failure) -> finish(id, new MessagingException("send: the rendezvous message "
                + id + " to " + peer + " did not complete: " + failure.getMessage(), failure)));
    }

    /** After {@link #failAll}: deregisters what the cache holds. */
    void close() {
        RegistrationCache open;
        synchronized (this) {
            closed = true;
            open = cache;
            kept.clear();
        }
        if (open != null) {
            open.close();
        }
    }

    private void requireNoFailure() {
        MessagingException failed = outgoing.failure();
        if (failed != null) {
            throw new MessagingException("send: the channel to " + peer + " failed: " + failed.getMessage(), failed);
        }
    }

    /** A message offered: its rendezvous id and length, and the future its DONE completes. */
    record Offered(long id, long length, CompletableFuture<Void> done) {}

    /**
     * One offered message: its lease (native memory; kept, closed, for the next acquisition) or
     * staging region (heap), its wait, and the future of an asynchronous send. As the
     * {@link Supplier} of its wait it expires the message (a blocking send's deadline).
     */
    private static final class Outgoing implements Supplier<RuntimeException> {
        final DoneWait done = new DoneWait();
        long id;
        long length;
        RegistrationLease lease;
        MemoryRegion staging;
        CompletableFuture<Void> future;
        Expiry expiry;
        String which;
        Duration timeout;

        long address() {
            return staging != null ? staging.memoryAddress() : lease.address();
        }

        int rkey() {
            return staging != null ? staging.rkey() : lease.rkey();
        }

        void release() {
            if (staging != null) {
                staging.close();
                staging = null;
            } else {
                lease.close();
            }
        }

        @Override
        public RuntimeException get() {
            return expiry.expired(id, length, which, timeout);
        }
    }
}
