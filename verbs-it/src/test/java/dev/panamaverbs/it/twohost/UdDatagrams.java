package dev.panamaverbs.it.twohost;

import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.cm.EndpointInfo;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.CompletionWaiter;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.testkit.TestDevice;
import java.time.Duration;

/**
 * One side of {@link UdTwoHostTest}, the same on both hosts: a UD queue pair on rxe1 in RTS with
 * {@link #QKEY}, {@link #COUNT} receives posted before the endpoints are exchanged, datagrams of
 * {@link #PAYLOAD} bytes (pattern seed base + i) sent to the peer through an address handle built
 * from the peer's GID, and every received one checked byte for byte and by source QP.
 */
final class UdDatagrams implements AutoCloseable {
    static final int QKEY = 0x22222222;
    static final int COUNT = 4;
    static final int PAYLOAD = 512;
    static final int GRH_BYTES = 40;
    static final int SLOT = 4096;
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final TestDevice device;
    private final Context context;
    private final ProtectionDomain pd;
    private final CompletionQueue sendQueue, receiveQueue;
    private final QueuePair qp;
    private final RegisteredBuffer buffer;
    private final EndpointInfo mine;

    UdDatagrams(TestDevice device) {
        this.device = device;
        context = Verbs.device(device.name()).orElseThrow().open();
        try {
            DeviceCapability.UD.require(context); // iWARP has no UD: a skip naming the capability
            pd = context.allocateProtectionDomain();
            sendQueue = context.createCompletionQueue(16);
            receiveQueue = context.createCompletionQueue(16);
            qp = readyQueuePair(pd, sendQueue, receiveQueue, device, QKEY, 16);
            buffer = RegisteredBuffer.allocate(pd, 2 * COUNT * SLOT);
            for (int i = 0; i < COUNT; i++) { // receive slots first, send slots after them
                qp.postReceive(ReceiveWorkRequest.allocate(1).wrId(i).sge(0, buffer.region(), (long) i * SLOT, GRH_BYTES + PAYLOAD));
            }
            GidEntry gid = context.queryGid(device.port(), device.gidIndex()).orElseThrow();
            mine = EndpointInfo.of(qp, 0, gid.gid(), context.queryPort(device.port()).activeMtu()).withQkey(QKEY);
        } catch (RuntimeException e) {
            context.close();
            throw e;
        }
    }

    /** A UD queue pair of {@code depth} one-entry requests each way, in RTS with {@code qkey}. */
    static QueuePair readyQueuePair(ProtectionDomain pd, CompletionQueue sendQueue, CompletionQueue receiveQueue,
            TestDevice device, int qkey, int depth) {
        QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.UD, sendQueue, receiveQueue)
                .maxSendWorkRequests(depth).maxReceiveWorkRequests(depth).maxSendSge(1).maxReceiveSge(1).build());
        qp.toInit(device.port(), 0, qkey);
        qp.toRtr();
        qp.toRts();
        return qp;
    }

    /** What to tell the peer. */
    EndpointInfo endpoint() {
        return mine;
    }

    /** Sends {@link #COUNT} datagrams to {@code peer}, pattern seeds {@code seedBase + i}, and waits for their completions. */
    void sendTo(EndpointInfo peer, long seedBase) {
        AddressHandle ah = pd.createAddressHandle(peer.toAddressHandleAttributes(device.port(), device.gidIndex()));
        Completions wc = Completions.allocate(1);
        for (int i = 0; i < COUNT; i++) {
            long offset = (long) (COUNT + i) * SLOT;
            buffer.fillPattern(seedBase + i, offset, PAYLOAD);
            qp.postSend(SendWorkRequest.allocate(1).wrId(100 + i).opcode(WorkRequestOpcode.SEND).signaled(true)
                    .sge(buffer.region(), offset, PAYLOAD).ud(ah, peer.qpn(), peer.qkey()));
            CompletionWaiter.awaitSuccess(sendQueue, wc);
        }
    }

    /** Waits for the {@link #COUNT} datagrams from {@code peer} and checks each (payload after the GRH, source QP). */
    void receiveFrom(EndpointInfo peer, long seedBase) {
        Completions wc = Completions.allocate(COUNT);
        CompletionWaiter.await(receiveQueue, wc, COUNT, TIMEOUT);
        for (int i = 0; i < COUNT; i++) {
            wc.throwIfFailed(i);
            int slot = (int) wc.wrId(i);
            check(wc.opcode(i) == CompletionOpcode.RECV, "opcode " + wc.opcode(i));
            check(wc.byteLength(i) == GRH_BYTES + PAYLOAD, "length " + wc.byteLength(i));
            check(wc.sourceQp(i) == peer.qpn(), "source QP " + wc.sourceQp(i) + ", peer's is " + peer.qpn());
            buffer.assertPattern(seedBase + slot, (long) slot * SLOT + GRH_BYTES, PAYLOAD);
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("unexpected " + what);
        }
    }

    @Override
    public void close() {
        try {
            buffer.close();
        } finally {
            context.close();
        }
    }
}
