package dev.panamaverbs.messaging;

import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.messaging.registration.RegistrationCache;
import dev.panamaverbs.messaging.registration.RegistrationLease;
import dev.panamaverbs.values.AccessFlag;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;

/**
 * The sender's side of rendezvous: a message larger than the threshold is registered for
 * {@code REMOTE_READ} (native memory through the channel's {@link RegistrationCache}, whose lease
 * keeps it from eviction until the message ends; heap memory copied into a staging region
 * registered for that one message), offered to the peer in a {@link MessageType#RENDEZVOUS_OFFER},
 * and held until the peer's {@link MessageType#RENDEZVOUS_DONE} of the same id, or until the
 * channel fails, completes the message's future.
 */
final class RendezvousSends {
    /** Posts an offer's payload as a RENDEZVOUS_OFFER with rendezvous id {@code id} (the channel's credited send path). */
    interface OfferPost {
        void post(MemorySegment offer, long id, long deadline);
    }

    private final ProtectionDomain pd;
    private final ChannelOptions options;
    private final String peer;
    private final Outstanding<Outgoing> outgoing = new Outstanding<>();
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
    Offered send(MemorySegment data, MessageType type, long correlation, long deadline,
            OfferPost poster) {
        requireNoFailure();
        long id = outgoing.nextId();
        Outgoing message = register(data);
        MessagingException failed = outgoing.add(id, message);
        if (failed != null) {
            finish(id, failed);
            throw failed;
        }
        try {
            MemorySegment offer = MemorySegment.ofArray(new byte[RendezvousOffer.SIZE]);
            new RendezvousOffer(message.address(), data.byteSize(), message.rkey(), type, correlation).write(offer, 0);
            poster.post(offer, id, deadline);
        } catch (RuntimeException | Error e) {
            finish(id, e);
            throw e;
        }
        return new Offered(id, data.byteSize(), message.done());
    }

    private Outgoing register(MemorySegment data) {
        if (data.isNative()) {
            RegistrationLease lease = cache().acquire(data);
            return new Outgoing(data.byteSize(), lease, null);
        }
        // Heap memory cannot be registered: a staging copy, registered for this message only.
        MemoryRegion staging = pd.allocateMemoryRegion(data.byteSize(), EnumSet.of(AccessFlag.REMOTE_READ));
        try {
            MemorySegment.copy(data, 0, staging.memory(), 0, data.byteSize());
        } catch (RuntimeException | Error e) {
            staging.close();
            throw e;
        }
        return new Outgoing(data.byteSize(), null, staging);
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
        long length = message == null ? -1 : message.length();
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

    /** Ends message {@code id}: its registration released, its future completed (null) or failed. */
    private void finish(long id, Throwable cause) {
        Outgoing message = outgoing.remove(id);
        if (message == null) {
            return;
        }
        message.release();
        if (cause == null) {
            message.done().complete(null);
        } else {
            message.done().completeExceptionally(cause);
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

    /** One offered message: its lease (native memory) or staging region (heap), and its future. */
    private record Outgoing(long length, RegistrationLease lease, MemoryRegion staging, CompletableFuture<Void> done) {
        Outgoing(long length, RegistrationLease lease, MemoryRegion staging) {
            this(length, lease, staging, new CompletableFuture<>());
        }

        long address() {
            return lease != null ? lease.address() : staging.memoryAddress();
        }

        int rkey() {
            return lease != null ? lease.rkey() : staging.rkey();
        }

        void release() {
            if (lease != null) {
                lease.close();
            } else {
                staging.close();
            }
        }
    }
}
