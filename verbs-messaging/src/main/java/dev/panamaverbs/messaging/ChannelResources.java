package dev.panamaverbs.messaging;

import dev.panamaverbs.CompletionChannel;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.cm.ConnectionEventChannel;
import dev.panamaverbs.cm.ConnectionId;
import dev.panamaverbs.messaging.registration.RegistrationLimitException;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.QueuePairType;
import java.util.EnumSet;

/**
 * The verbs objects of one channel, made on its rdma_cm identifier before connect or accept: a
 * protection domain, a completion channel and one completion queue on it, the RC queue pair, the
 * registered receive and send pools, and one preallocated work request per buffer, so posting
 * allocates nothing. Every receive buffer is posted here, before the peer can send. Everything is
 * made on the identifier's context, so closing the identifier's event channel frees it all. With a
 * {@link SharedReceivePool}, the receive buffers are the pool's (posted to its SRQ), and the queue
 * pair and send buffers are in the pool's protection domain.
 *
 * <p>Work request ids: a receive buffer's number; a send buffer's number with {@link #SEND_TAG};
 * a credit message's slot with {@link #CONTROL_TAG}; a rendezvous RDMA READ's slot with
 * {@link #READ_TAG}. The send queue holds the send buffers, the credit messages and the READs.
 */
final class ChannelResources {
    static final long SEND_TAG = 1L << 40;
    static final long CONTROL_TAG = 1L << 41;
    static final long READ_TAG = 1L << 42;

    final ConnectionEventChannel cmChannel;
    final ConnectionId id;
    final ProtectionDomain pd;
    final int readDepth;
    final CompletionChannel events;
    final CompletionQueue completionQueue;
    final QueuePair queuePair;
    /** The receive buffers: the channel's own, or {@link #sharedPool}'s. */
    final ReceiveBuffers receiveBuffers;
    final MemoryRegion sendPool;
    /** The pool whose SRQ the queue pair receives from, or null. */
    final SharedReceivePool sharedPool;
    /** This channel's share of {@link #sharedPool}, or null. */
    private final PoolLedger.Reservation reservation;
    final SendWorkRequest[] sends;
    final SendWorkRequest[] controls;
    final int bufferSize;
    private final int sendBuffers;

    private ChannelResources(ConnectionEventChannel cmChannel, ConnectionId id, ChannelOptions options, int readDepth,
            SharedReceivePool pool, PoolLedger.Reservation reservation) {
        this.cmChannel = cmChannel;
        this.id = id;
        this.bufferSize = options.bufferSize();
        this.sendBuffers = options.sendBuffers();
        this.sharedPool = pool;
        Context context = id.context();
        this.readDepth = readDepth;
        this.reservation = reservation;
        MemoryRegion send = null;
        try {
            // With a pool, the queue pair, its send buffers and rendezvous regions must be in the
            // SRQ's domain: a receive's lkey is checked against the queue pair's.
            pd = pool == null ? context.allocateProtectionDomain() : pool.pd;
            events = context.createCompletionChannel();
            int sendDepth = options.sendBuffers() + ChannelOptions.CONTROL_RESERVE + readDepth;
            int receiveDepth = options.receiveBuffers();
            completionQueue = context.createCompletionQueue(sendDepth + receiveDepth, events, 0);
            QueuePairOptions.Builder qp = QueuePairOptions.builder(QueuePairType.RC, completionQueue)
                    .maxSendWorkRequests(sendDepth).maxReceiveWorkRequests(receiveDepth)
                    .maxSendSge(1).maxReceiveSge(1);
            if (pool != null) {
                qp.sharedReceiveQueue(pool.queue);
            }
            queuePair = id.createQueuePair(pd, qp.build());
            EnumSet<AccessFlag> local = EnumSet.of(AccessFlag.LOCAL_WRITE);
            send = registerPool(pd, options.sendPoolBytes(), local);
            sendPool = send;
            if (pool == null) {
                receiveBuffers = ReceiveBuffers.register(pd, receiveDepth, bufferSize);
                for (ReceiveWorkRequest receive : receiveBuffers.receives) {
                    queuePair.postReceive(receive);
                }
            } else {
                receiveBuffers = pool.buffers;
            }
        } catch (RuntimeException | Error e) {
            if (pool != null && send != null) {
                send.close(); // in the pool's domain: the identifier's close would not free it
            }
            releasePool();
            throw e;
        }
        sends = new SendWorkRequest[options.sendBuffers()];
        for (int slot = 0; slot < sends.length; slot++) {
            sends[slot] = SendWorkRequest.allocate(1).wrId(SEND_TAG | slot).signaled(true);
        }
        controls = new SendWorkRequest[ChannelOptions.CONTROL_RESERVE];
        for (int slot = 0; slot < controls.length; slot++) {
            controls[slot] = SendWorkRequest.allocate(1).wrId(CONTROL_TAG | slot).signaled(true)
                    .sge(sendPool, controlOffset(slot), MessageHeader.SIZE);
        }
    }

    /** {@code ibv_reg_mr} of a pool; the memory lock limit's refusal named as such ({@link RegistrationLimitException}). */
    static MemoryRegion registerPool(ProtectionDomain pd, long bytes, EnumSet<AccessFlag> access) {
        try {
            return pd.allocateMemoryRegion(bytes, access);
        } catch (VerbsException e) {
            throw RegistrationLimitException.ofRegistration(e, bytes);
        }
    }

    /**
     * Makes everything on {@code id} (resolved, or a request's); closes {@code cmChannel} (and so
     * the identifier and all made on it) when a step fails. {@code readDepth}: the RDMA READs
     * this side asks to have outstanding (room in the send queue). With a {@code pool}, the
     * queue pair receives from its SRQ, and {@code reservation} (the channel's share of it,
     * {@link SharedReceivePool#reserve}) is returned when a step fails.
     */
    static ChannelResources create(ConnectionEventChannel cmChannel, ConnectionId id, ChannelOptions options,
            int readDepth, SharedReceivePool pool, PoolLedger.Reservation reservation) {
        try {
            return new ChannelResources(cmChannel, id, options, readDepth, pool, reservation);
        } catch (RuntimeException | Error e) {
            cmChannel.close();
            throw e;
        }
    }

    /** A receive completed into buffer {@code slot} (the poller thread): a pool's buffer is now this channel's. */
    void received(int slot) {
        if (sharedPool != null) {
            sharedPool.taken(slot, reservation);
        }
    }

    /**
     * Posts receive buffer {@code slot} again: to the queue pair, or to the pool's SRQ.
     *
     * @throws dev.panamaverbs.VerbsException when {@code ibv_post_recv} / {@code ibv_post_srq_recv} fails
     */
    void postReceive(int slot) {
        if (sharedPool == null) {
            queuePair.postReceive(receiveBuffers.receives[slot]);
        } else {
            sharedPool.giveBack(slot, reservation);
        }
    }

    /**
     * Buffer {@code slot}, released after the channel stopped: a pool's goes back to the SRQ
     * (no credit is returned); the channel's own go with it.
     */
    void returnToPool(int slot) {
        if (sharedPool != null) {
            try {
                sharedPool.giveBack(slot, reservation);
            } catch (RuntimeException poolClosing) {
                // the pool is closing: its SRQ and buffers go with it
            }
        }
    }

    long sendOffset(int slot) {
        return (long) slot * bufferSize;
    }

    long controlOffset(int slot) {
        return (long) sendBuffers * bufferSize + (long) slot * MessageHeader.SIZE;
    }

    /**
     * The largest RDMA READ the device takes: the smallest {@code max_msg_sz} of its ports
     * ({@code ibv_query_port}).
     */
    long portMaxMessageSize() {
        Context context = id.context();
        long smallest = Long.MAX_VALUE;
        for (int port = 1; port <= context.portCount(); port++) {
            smallest = Math.min(smallest, context.queryPort(port).maxMessageSize());
        }
        return smallest;
    }

    /**
     * Closes the identifier's event channel: the queue pair, CQ, completion channel, regions, PD
     * and identifier with it. With a pool: the queue pair first, then the send buffers (in the
     * pool's domain), and the reservation goes back.
     */
    void close() {
        try {
            cmChannel.close();
        } finally {
            if (sharedPool != null) {
                sendPool.close();
                releasePool();
            }
        }
    }

    private void releasePool() {
        if (reservation != null) {
            sharedPool.detach(reservation);
        }
    }
}
