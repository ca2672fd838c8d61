package dev.panamaverbs.onesided;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.CompletionFailedException;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.values.Mtu;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.values.QueuePairAttributes;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.values.RemoteEndpoint;
import dev.panamaverbs.values.SendFlag;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.VerbsSetupException;
import dev.panamaverbs.internal.CloseGate;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;

/**
 * The channel's companion: an RC queue pair on the main queue pair's protection domain and port,
 * connected to itself, with a completion queue of its own. It changes the caller's local counter
 * slots the way a peer changes signals, through the NIC: a loop-back fetch-and-add (result into
 * the sink) or an inline 8-byte write. Not thread-safe.
 */
final class Companion implements AutoCloseable {
    private static final int PSN = 0x0C0C0;

    private final CompletionQueue cq;
    private final QueuePair qp;
    private final SendTracker tracker;
    private final SendWorkRequest add;
    private final SendWorkRequest write;
    private final MemorySegment value;

    Companion(QueuePair main, MemoryRegion sink, Arena arena, CloseGate gate) {
        ProtectionDomain pd = main.protectionDomain();
        Context context = pd.context();
        int depth = Math.max(16, main.capabilities().maxSendWorkRequests());
        QueuePairAttributes attributes = main.query();
        cq = context.createCompletionQueue(depth);
        QueuePair created = null;
        try {
            created = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq).maxSendWorkRequests(depth)
                    .maxReceiveWorkRequests(1).maxSendSge(1).maxReceiveSge(1).maxInlineData(Slots.SLOT_BYTES).build());
            connectToItself(created, context, attributes);
        } catch (RuntimeException e) {
            if (created != null) {
                created.close();
            }
            cq.close();
            throw e;
        }
        qp = created;
        tracker = new SendTracker(qp, arena, gate, (from, to) -> { });
        value = arena.allocate(Slots.SLOT_BYTES, Slots.SLOT_BYTES);
        add = SendWorkRequest.allocate(arena, 1).flags(EnumSet.of(SendFlag.SIGNALED)).sge(sink, 0, Slots.SLOT_BYTES);
        write = SendWorkRequest.allocate(arena, 1).opcode(WorkRequestOpcode.RDMA_WRITE)
                .flags(EnumSet.of(SendFlag.SIGNALED)).inlineData(value);
    }

    /** INIT on the main queue pair's port, RTR to its own number over the main queue pair's path, RTS. */
    private static void connectToItself(QueuePair qp, Context context, QueuePairAttributes main) {
        int port = main.port();
        qp.toInit(port, main.pkeyIndex(), EnumSet.of(AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_ATOMIC));
        Mtu mtu = context.queryPort(port).activeMtu();
        QueuePairAttributes.Path path = main.path();
        if (path.isGlobal()) {
            GidEntry gid = context.queryGid(port, path.sgidIndex()).orElseThrow(() -> new VerbsSetupException(
                    "the companion queue pair needs GID " + path.sgidIndex() + " of port " + port
                            + ", which the main queue pair uses, and it is gone"));
            qp.toRtr(RemoteEndpoint.global(qp.number(), PSN, gid.gid(), path.sgidIndex(), mtu));
        } else {
            qp.toRtr(RemoteEndpoint.local(qp.number(), PSN, context.queryPort(port).lid(), mtu));
        }
        qp.toRts(PSN);
    }

    SendTracker tracker() {
        return tracker;
    }

    /** Whether one more request fits; when false, {@link #poll()} and try again. */
    boolean hasRoom() {
        return tracker.hasRoom(1);
    }

    /** Posts a fetch-and-add of {@code delta} to {@code slot}; call only when {@link #hasRoom()}. */
    long add(SignalSlot slot, long delta) {
        add.wrId(tracker.nextTicket()).atomicFetchAndAdd(slot.address(), slot.window().region().rkey(), delta);
        return tracker.post(add, 1);
    }

    /** Posts an inline write of {@code newValue} to {@code slot}; call only when {@link #hasRoom()}. */
    long write(SignalSlot slot, long newValue) {
        value.set(ValueLayout.JAVA_LONG, 0, newValue);
        write.wrId(tracker.nextTicket()).rdma(slot.address(), slot.window().region().rkey());
        return tracker.post(write, 1);
    }

    /** Whether nothing is in flight on the companion: no counter add or reset to reap. */
    boolean isIdle() {
        return tracker.isIdle();
    }

    int poll() {
        return tracker.poll();
    }

    CompletionFailedException failure() {
        return tracker.failure();
    }

    /** The queue pair's protection domain must hold {@code slot}'s region: the loop-back names its rkey. */
    void checkDomain(SignalSlot slot) {
        if (slot.window().region().protectionDomain() != qp.protectionDomain()) {
            throw new IllegalArgumentException(slot + " is registered in another protection domain than the channel's"
                    + " queue pair: the companion cannot reach it");
        }
    }

    @Override
    public void close() {
        try {
            qp.close();
        } finally {
            cq.close();
        }
    }
}
