package dev.panamaverbs.messaging;

import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The receiver's side of rendezvous: for each {@link MessageType#RENDEZVOUS_OFFER} it allocates
 * the destination ({@link RendezvousAllocator}, refusing an offer above
 * {@link ChannelOptions#maxRendezvousSize()}), pulls the sender's region with RDMA READs of at most
 * {@link RendezvousLimits#chunkSize} bytes, never more outstanding at once than the connection
 * negotiated (all messages together: the limit is the queue pair's), then delivers the message in
 * the offer's receive slot and has the channel answer DONE. The offer's receive buffer stays
 * unreleased until the application releases the large message, so its credit is the message's:
 * the window bounds the large messages held too. Offers are read one after the other, in order.
 */
final class RendezvousReads {
    /** What a rendezvous does to its channel. */
    interface Owner {
        /** Delivers the message {@code offer} announced, read into {@code destination}, in receive slot {@code slot}. */
        void deliverLarge(int slot, RendezvousOffer offer, MemoryRegion destination);

        /**
         * Delivers {@code failure} in receive slot {@code slot}, in the place of the message
         * {@code offer} announced (a RESPONSE's failure goes to its request instead).
         */
        void deliverFailure(int slot, RendezvousOffer offer, RendezvousException failure);

        /** Sends the DONE of {@code id} with {@code status} (not on the poller thread: it waits for a credit). */
        void answer(long id, RendezvousStatus status);
    }

    private final Owner owner;
    private final ProtectionDomain pd;
    private final QueuePair queuePair;
    private final InFlight inFlight;
    private final RendezvousAllocator allocator;
    private final long maxSize;
    private final int chunkSize;
    private final SendWorkRequest[] reads;
    private final Incoming[] readOwner;
    private final int[] readChunk;
    private final ArrayDeque<Incoming> queued = new ArrayDeque<>();
    private final String peer;
    private int outstanding;
    private boolean failed;

    /**
     * @param depth the READs that may be outstanding ({@link RendezvousLimits#negotiatedDepth})
     * @param chunkSize the bytes of one READ
     */
    RendezvousReads(Owner owner, ProtectionDomain pd, QueuePair queuePair, InFlight inFlight, ChannelOptions options,
            int depth, int chunkSize, String peer) {
        this.owner = owner;
        this.inFlight = inFlight;
        this.pd = pd;
        this.queuePair = queuePair;
        this.allocator = options.rendezvousAllocator();
        this.maxSize = options.maxRendezvousSize();
        this.chunkSize = chunkSize;
        this.peer = peer;
        this.reads = new SendWorkRequest[depth];
        this.readOwner = new Incoming[depth];
        this.readChunk = new int[depth];
        for (int k = 0; k < depth; k++) {
            reads[k] = SendWorkRequest.allocate(1).wrId(ChannelResources.READ_TAG | k).signaled(true)
                    .opcode(WorkRequestOpcode.RDMA_READ);
        }
    }

    /** {@return the READs that may be outstanding at once} */
    int depth() {
        return reads.length;
    }

    /** {@return the bytes of one READ} */
    int chunkSize() {
        return chunkSize;
    }

    /** An offer arrived in receive slot {@code slot} (the poller thread). */
    void offered(int slot, long id, RendezvousOffer offer) {
        if (offer.length() > maxSize) {
            refuse(slot, id, offer, RendezvousStatus.TOO_LARGE, "the offer of message " + id + " from " + peer + " has "
                    + offer.length() + " bytes, above this side's maxRendezvousSize " + maxSize, null);
            return;
        }
        MemoryRegion destination;
        try {
            destination = allocator.allocate(pd, offer.length());
            if (destination.length() < offer.length()) {
                allocator.release(destination);
                throw new IllegalStateException("the allocator returned " + destination.length() + " bytes for "
                        + offer.length());
            }
        } catch (RuntimeException e) {
            refuse(slot, id, offer, RendezvousStatus.NO_BUFFER, "no destination buffer for message " + id + " of "
                    + offer.length() + " bytes from " + peer + ": " + e.getMessage(), e);
            return;
        }
        synchronized (this) {
            if (failed) {
                allocator.release(destination);
                return;
            }
            queued.add(new Incoming(slot, id, offer, destination, RendezvousLimits.chunks(offer.length(), chunkSize)));
            pump();
        }
    }

    private void refuse(int slot, long id, RendezvousOffer offer, RendezvousStatus status, String why, Throwable cause) {
        owner.deliverFailure(slot, offer, new RendezvousException("receive: " + why, status, id, cause));
        owner.answer(id, status);
    }

    /** Posts READs of the queued messages, in order, while fewer than the depth are outstanding. */
    private void pump() {
        while (!failed && outstanding < reads.length && !queued.isEmpty()) {
            Incoming message = queued.peek();
            int k = freeRead();
            int chunk = message.nextChunk++;
            long offset = (long) chunk * chunkSize;
            int length = RendezvousLimits.chunkLength(message.offer.length(), chunkSize, chunk);
            reads[k].sge(message.destination, offset, length).rdma(message.offer.address() + offset, message.offer.rkey());
            readOwner[k] = message;
            readChunk[k] = chunk;
            outstanding++;
            message.outstanding++;
            if (message.nextChunk == message.chunks) {
                queued.poll(); // every chunk posted: the next message's READs may start
            }
            inFlight.posted();
            try {
                queuePair.postSend(reads[k]);
            } catch (RuntimeException e) {
                inFlight.completed();
                readOwner[k] = null;
                outstanding--;
                message.outstanding--;
                throw new MessagingException("rendezvous: ibv_post_send of an RDMA READ of message " + message.id
                        + " from " + peer + " failed", e);
            }
        }
    }

    private int freeRead() {
        for (int k = 0; k < readOwner.length; k++) {
            if (readOwner[k] == null) {
                return k;
            }
        }
        throw new IllegalStateException("rendezvous: no free READ slot with " + outstanding + " of " + reads.length
                + " outstanding");
    }

    /**
     * READ {@code k} completed successfully (the poller thread): the message is delivered once its
     * last chunk is in, and more READs are posted.
     */
    void readCompleted(int k) {
        readEnded(k, null);
    }

    /**
     * READ {@code k} completed with {@code status} (the poller thread): the queue pair is in the
     * error state now (RC), so the channel fails as well. The first failed READ of a message
     * delivers a {@link RendezvousException} naming the READ and its status in the message's
     * place, and the channel tries to answer READ_FAILED (which the error state stops: the sender
     * then hears of the connection's loss). The destination goes back to the allocator once none
     * of the message's READs is outstanding any more.
     */
    void readFailed(int k, String status) {
        readEnded(k, status);
    }

    private void readEnded(int k, String failedStatus) {
        Incoming delivered = null;
        Incoming failedNow = null;
        MemoryRegion free = null;
        int chunk;
        synchronized (this) {
            Incoming message = readOwner[k];
            if (message == null) {
                return;
            }
            chunk = readChunk[k];
            readOwner[k] = null;
            outstanding--;
            message.outstanding--;
            if (failedStatus != null && !message.failed) {
                message.failed = true;
                queued.remove(message);
                failedNow = message;
            }
            if (message.failed) {
                if (message.outstanding == 0) {
                    free = message.destination; // no READ writes into it any more
                }
            } else {
                message.completed++;
                if (message.completed == message.chunks) {
                    delivered = message;
                }
                pump();
            }
        }
        if (free != null) {
            allocator.release(free);
        }
        if (delivered != null) {
            owner.deliverLarge(delivered.slot, delivered.offer, delivered.destination);
            owner.answer(delivered.id, RendezvousStatus.OK);
        }
        if (failedNow != null) {
            owner.deliverFailure(failedNow.slot, failedNow.offer, new RendezvousException("receive: the RDMA READ"
                    + " (ibv_post_send, IBV_WR_RDMA_READ) of chunk " + chunk + " of message " + failedNow.id + " ("
                    + failedNow.offer.length() + " bytes) from " + peer + " completed with status " + failedStatus,
                    RendezvousStatus.READ_FAILED, failedNow.id, null));
            owner.answer(failedNow.id, RendezvousStatus.READ_FAILED);
        }
    }

    /**
     * The channel failed or closed: nothing more is posted. The destinations of queued messages
     * with no READ outstanding go back to the allocator now; those with READs outstanding when
     * their last READ completes (flushed), or, when the channel closes before, with the
     * channel's protection domain.
     */
    void failAll() {
        List<MemoryRegion> free = new ArrayList<>();
        synchronized (this) {
            if (failed) {
                return;
            }
            failed = true;
            for (Incoming message : queued) {
                message.failed = true;
                if (message.outstanding == 0) {
                    free.add(message.destination);
                }
            }
            queued.clear();
        }
        for (MemoryRegion region : free) {
            allocator.release(region);
        }
    }

    /**
     * The channel closed with READs outstanding, its queue pair destroyed (so nothing writes into
     * their destinations any more, and no completion will come): their destinations go back to
     * the allocator now. Needed where the protection domain outlives the channel (a
     * {@link SharedReceivePool}'s); called after {@link #failAll}.
     */
    void releaseStranded() {
        List<MemoryRegion> free = new ArrayList<>();
        synchronized (this) {
            for (int k = 0; k < readOwner.length; k++) {
                Incoming message = readOwner[k];
                if (message != null) {
                    readOwner[k] = null;
                    outstanding--;
                    if (--message.outstanding == 0) {
                        free.add(message.destination);
                    }
                }
            }
        }
        for (MemoryRegion region : free) {
            allocator.release(region);
        }
    }

    /** {@return the READs posted and not completed} */
    synchronized int outstanding() {
        return outstanding;
    }

    /** A message being read. */
    private static final class Incoming {
        final int slot;
        final long id;
        final RendezvousOffer offer;
        final MemoryRegion destination;
        final int chunks;
        int nextChunk;
        int outstanding;
        int completed;
        boolean failed;

        Incoming(int slot, long id, RendezvousOffer offer, MemoryRegion destination, int chunks) {
            this.slot = slot;
            this.id = id;
            this.offer = offer;
            this.destination = destination;
            this.chunks = chunks;
        }
    }
}
