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
 * made on the identifier's context, so closing the identifier's event channel frees it all.
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
    final MemoryRegion receivePool;
    final MemoryRegion sendPool;
    final ReceiveWorkRequest[] receives;
    final SendWorkRequest[] sends;
    final SendWorkRequest[] controls;
    final int bufferSize;
    private final int sendBuffers;

    private ChannelResources(ConnectionEventChannel cmChannel, ConnectionId id, ChannelOptions options, int readDepth) {
        this.cmChannel = cmChannel;
        this.id = id;
        this.bufferSize = options.bufferSize();
        this.sendBuffers = options.sendBuffers();
        Context context = id.context();
        this.readDepth = readDepth;
        pd = context.allocateProtectionDomain();
        events = context.createCompletionChannel();
        int sendDepth = options.sendBuffers() + ChannelOptions.CONTROL_RESERVE + readDepth;
        int receiveDepth = options.receiveBuffers();
        completionQueue = context.createCompletionQueue(sendDepth + receiveDepth, events, 0);
        queuePair = id.createQueuePair(pd, QueuePairOptions.builder(QueuePairType.RC, completionQueue)
                .maxSendWorkRequests(sendDepth).maxReceiveWorkRequests(receiveDepth)
                .maxSendSge(1).maxReceiveSge(1).build());
        EnumSet<AccessFlag> local = EnumSet.of(AccessFlag.LOCAL_WRITE);
        receivePool = registerPool(pd, options.receivePoolBytes(), local);
        sendPool = registerPool(pd, options.sendPoolBytes(), local);
        receives = new ReceiveWorkRequest[receiveDepth];
        for (int slot = 0; slot < receiveDepth; slot++) {
            receives[slot] = ReceiveWorkRequest.allocate(1).wrId(slot).sge(0, receivePool, receiveOffset(slot), bufferSize);
            queuePair.postReceive(receives[slot]);
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
    private static MemoryRegion registerPool(ProtectionDomain pd, long bytes, EnumSet<AccessFlag> access) {
        try {
            return pd.allocateMemoryRegion(bytes, access);
        } catch (VerbsException e) {
            throw RegistrationLimitException.ofRegistration(e, bytes);
        }
    }

    /**
     * Makes everything on {@code id} (resolved, or a request's); closes {@code cmChannel} (and so
     * the identifier and all made on it) when a step fails. {@code readDepth}: the RDMA READs
     * this side asks to have outstanding (room in the send queue).
     */
    static ChannelResources create(ConnectionEventChannel cmChannel, ConnectionId id, ChannelOptions options,
            int readDepth) {
        try {
            return new ChannelResources(cmChannel, id, options, readDepth);
        } catch (RuntimeException | Error e) {
            cmChannel.close();
            throw e;
        }
    }

    long receiveOffset(int slot) {
        return (long) slot * bufferSize;
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

    /** Closes the identifier's event channel: the queue pair, CQ, completion channel, regions, PD and identifier with it. */
    void close() {
        cmChannel.close();
    }
}
