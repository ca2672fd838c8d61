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
 *
 * <p>A released destination is kept for a later offer it fits, up to {@value #SPARES} of them
 * and {@value #SPARE_BYTES} bytes together per channel (the ones released longest ago make room),
 * with its message object: a steady stream of large messages then allocates and registers
 * nothing once warm. The kept ones go back to the allocator when the channel fails or closes.
 */
final class RendezvousReads {
    /**
     * Released destinations a channel keeps at most: as many as a receiver that lags holds at
     * once (a window's worth), so that it does not register again when it catches up; the bytes
     * bound them first.
     */
    static final int SPARES = 16;
    /** Their bytes together at most (what they keep registered, pinned, per channel). */
    static final long SPARE_BYTES = 8L << 20;

    /** What a rendezvous does to its channel. */
    interface Owner {
        /**
         * Delivers the message an offer announced (its {@code type}, {@code correlation} and
         * {@code length}), read into {@code payload} (read-only, from offset 0), in receive slot
         * {@code slot}; {@code onRelease} gives the destination back when the message is released.
         */
        void deliverLarge(int slot, MessageType type, long correlation, int length, MemorySegment payload,
                Runnable onRelease);

        /**
         * Delivers {@code failure} in receive slot {@code slot}, in the place of the message of
         * {@code type} and {@code correlation} an offer announced (a RESPONSE's failure goes to its
         * request instead).
         */
        void deliverFailure(int slot, MessageType type, long correlation, RendezvousException failure);

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
    /** Released destinations kept for later offers, with their message objects; the first {@link #spareCount}. */
    private final Incoming[] spares = new Incoming[SPARES];
    private int spareCount;
    private long spareBytes;
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

    /**
     * An offer arrived in receive slot {@code slot} (the poller thread): message {@code id} of
     * {@code length} bytes at {@code address} under {@code rkey}, to be delivered as {@code type}
     * with {@code correlation}.
     */
    void offered(int slot, long id, long address, long length, int rkey, MessageType type, long correlation) {
        if (length > maxSize) {
            refuse(slot, id, type, correlation, RendezvousStatus.TOO_LARGE, "the offer of message " + id + " from "
                    + peer + " has " + length + " bytes, above this side's maxRendezvousSize " + maxSize, null);
            return;
        }
        Incoming message = spareFor(length);
        if (message == null) {
            MemoryRegion destination;
            try {
                destination = allocator.allocate(pd, length);
                if (destination.length() < length) {
                    allocator.release(destination);
                    throw new IllegalStateException("the allocator returned " + destination.length() + " bytes for "
                            + length);
                }
            } catch (RuntimeException e) {
                refuse(slot, id, type, correlation, RendezvousStatus.NO_BUFFER, "no destination buffer for message " + id
                        + " of " + length + " bytes from " + peer + ": " + e.getMessage(), e);
                return;
            }
            message = new Incoming(this, destination);
        }
        synchronized (this) {
            if (failed) {
                allocator.release(message.destination);
                return;
            }
            message.start(slot, id, address, length, rkey, type, correlation, RendezvousLimits.chunks(length, chunkSize));
            queued.add(message);
            pump();
        }
    }

    /** {@return a kept destination of at least {@code length} bytes (the smallest), taken, or null} */
    private synchronized Incoming spareFor(long length) {
        int best = -1;
        for (int i = 0; i < spareCount; i++) {
            long size = spares[i].destination.length();
            if (size >= length && (best < 0 || size < spares[best].destination.length())) {
                best = i;
            }
        }
        if (best < 0) {
            return null;
        }
        Incoming spare = spares[best];
        removeSpare(best);
        return spare;
    }

    /** Takes spare {@code i} out, keeping the others in the order they were released. */
    private void removeSpare(int i) {
        spareBytes -= spares[i].destination.length();
        System.arraycopy(spares, i + 1, spares, i, spareCount - i - 1);
        spares[--spareCount] = null;
    }

    /**
     * The application released a delivered message (any thread): its destination is kept for a
     * later offer, the spares released longest ago going back to the allocator to make room
     * (so the spares follow the sizes in use), else it goes back itself.
     */
    void released(Incoming message) {
        long size = message.destination.length();
        MemoryRegion[] evicted = null;
        int count = 0;
        synchronized (this) {
            if (!failed && size <= SPARE_BYTES) {
                while (spareCount == SPARES || spareBytes + size > SPARE_BYTES) {
                    if (evicted == null) {
                        evicted = new MemoryRegion[SPARES]; // only while the sizes in use change
                    }
                    evicted[count++] = spares[0].destination;
                    removeSpare(0);
                }
                spares[spareCount++] = message;
                spareBytes += size;
            } else {
                evicted = new MemoryRegion[] {message.destination};
                count = 1;
            }
        }
        for (int i = 0; i < count; i++) {
            allocator.release(evicted[i]);
        }
    }

    private void refuse(int slot, long id, MessageType type, long correlation, RendezvousStatus status, String why,
            Throwable cause) {
        owner.deliverFailure(slot, type, correlation, new RendezvousException("receive: " + why, status, id, cause));
        owner.answer(id, status);
    }

    /** Posts READs of the queued messages, in order, while fewer than the depth are outstanding. */
    private void pump() {
        while (!failed && outstanding < reads.length && !queued.isEmpty()) {
            Incoming message = queued.peek();
            int k = freeRead();
            int chunk = message.nextChunk++;
            long offset = (long) chunk * chunkSize;
            int length = RendezvousLimits.chunkLength(message.length, chunkSize, chunk);
            reads[k].sge(message.destination, offset, length).rdma(message.address + offset, message.rkey);
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
            long id = delivered.id; // read first: once delivered, a release may keep the object for the next offer
            owner.deliverLarge(delivered.slot, delivered.type, delivered.correlation, (int) delivered.length,
                    delivered.payload, delivered);
            owner.answer(id, RendezvousStatus.OK);
        }
        if (failedNow != null) {
            owner.deliverFailure(failedNow.slot, failedNow.type, failedNow.correlation, new RendezvousException(
                    "receive: the RDMA READ (ibv_post_send, IBV_WR_RDMA_READ) of chunk " + chunk + " of message "
                    + failedNow.id + " (" + failedNow.length + " bytes) from " + peer + " completed with status "
                    + failedStatus,
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
            for (int i = 0; i < spareCount; i++) {
                free.add(spares[i].destination);
                spares[i] = null;
            }
            spareCount = 0;
            spareBytes = 0;
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

    /**
     * A message being read, with its destination; reused with that destination for a later offer
     * once released ({@link #run}, the delivered message's release hook).
     */
    static final class Incoming implements Runnable {
        private final RendezvousReads reads;
        final MemoryRegion destination;
        /** The destination's memory, read-only: the delivered message's payload from offset 0. */
        final MemorySegment payload;
        int slot;
        long id;
        long address;
        long length;
        int rkey;
        MessageType type;
        long correlation;
        int chunks;
        int nextChunk;
        int outstanding;
        int completed;
        boolean failed;

        Incoming(RendezvousReads reads, MemoryRegion destination) {
            this.reads = reads;
            this.destination = destination;
            this.payload = destination.memory().asReadOnly();
        }

        /** Sets the offer this object reads next (under the reads' lock). */
        void start(int offerSlot, long offerId, long offerAddress, long offerLength, int offerRkey, MessageType offerType,
                long offerCorrelation, int offerChunks) {
            slot = offerSlot;
            id = offerId;
            address = offerAddress;
            length = offerLength;
            rkey = offerRkey;
            type = offerType;
            correlation = offerCorrelation;
            chunks = offerChunks;
            nextChunk = 0;
            outstanding = 0;
            completed = 0;
            failed = false;
        }

        /** The delivered message was released: the destination is kept or given back. */
        @Override
        public void run() {
            reads.released(this);
        }
    }
}
