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
import dev.panamaverbs.cm.ConnectionEventChannel;
import dev.panamaverbs.cm.ConnectionId;
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
 * a credit message's slot with {@link #CONTROL_TAG}.
 */
final class ChannelResources {
    static final long SEND_TAG = 1L << 40;
    static final long CONTROL_TAG = 1L << 41;

    final ConnectionEventChannel cmChannel;
    final ConnectionId id;
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

    private ChannelResources(ConnectionEventChannel cmChannel, ConnectionId id, ChannelOptions options) {
        this.cmChannel = cmChannel;
        this.id = id;
        this.bufferSize = options.bufferSize();
        this.sendBuffers = options.sendBuffers();
        Context context = id.context();
        ProtectionDomain pd = context.allocateProtectionDomain();
        events = context.createCompletionChannel();
        int sendDepth = options.sendBuffers() + ChannelOptions.CONTROL_RESERVE;
        int receiveDepth = options.receiveBuffers();
        completionQueue = context.createCompletionQueue(sendDepth + receiveDepth, events, 0);
        queuePair = id.createQueuePair(pd, QueuePairOptions.builder(QueuePairType.RC, completionQueue)
                .maxSendWorkRequests(sendDepth).maxReceiveWorkRequests(receiveDepth)
                .maxSendSge(1).maxReceiveSge(1).build());
        EnumSet<AccessFlag> local = EnumSet.of(AccessFlag.LOCAL_WRITE);
        receivePool = pd.allocateMemoryRegion(options.receivePoolBytes(), local);
        sendPool = pd.allocateMemoryRegion(options.sendPoolBytes(), local);
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

    /**
     * Makes everything on {@code id} (resolved, or a request's); closes {@code cmChannel} (and so
     * the identifier and all made on it) when a step fails.
     */
    static ChannelResources create(ConnectionEventChannel cmChannel, ConnectionId id, ChannelOptions options) {
        try {
            return new ChannelResources(cmChannel, id, options);
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

    /** Closes the identifier's event channel: the queue pair, CQ, completion channel, regions, PD and identifier with it. */
    void close() {
        cmChannel.close();
    }
}
