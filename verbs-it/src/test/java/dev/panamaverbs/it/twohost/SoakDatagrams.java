package dev.panamaverbs.it.twohost;

import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.cm.EndpointInfo;
import dev.panamaverbs.testkit.CompletionWaiter;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak's UD traffic, one object per host: a UD queue pair with {@link #SLOTS} receives posted
 * ({@link #receiveForever} checks each datagram and posts its slot again), and datagrams of
 * {@link #PAYLOAD} bytes whose first 8 bytes are a sequence number and whose rest is the pattern
 * of that number ({@link #send}). Datagrams may be lost on a lossy wire; a wrong one never arrives.
 */
final class SoakDatagrams implements AutoCloseable {
    static final int QKEY = 0x50A50A;
    static final int PAYLOAD = 512, GRH = UdDatagrams.GRH_BYTES, SLOT = 1024, SLOTS = 32;

    private final TestDevice device;
    private final ProtectionDomain pd;
    private final CompletionQueue sendQueue, receiveQueue;
    private final QueuePair qp;
    private final RegisteredBuffer buffer;
    private final Gid gid;
    final AtomicLong received = new AtomicLong(), wrong = new AtomicLong();

    SoakDatagrams(Context context, ProtectionDomain pd, TestDevice device) {
        this.device = device;
        this.pd = pd;
        sendQueue = context.createCompletionQueue(SLOTS);
        receiveQueue = context.createCompletionQueue(SLOTS);
        qp = UdDatagrams.readyQueuePair(pd, sendQueue, receiveQueue, device, QKEY, SLOTS);
        buffer = RegisteredBuffer.allocate(pd, 2 * SLOTS * SLOT);
        for (int i = 0; i < SLOTS; i++) {
            postReceive(i);
        }
        gid = context.queryGid(device.port(), device.gidIndex()).orElseThrow().gid();
    }

    /** What the other host needs to send here: "QPN GID". */
    String address() {
        return qp.number() + " " + gid;
    }

    private void postReceive(int slot) {
        qp.postReceive(ReceiveWorkRequest.allocate(1).wrId(slot).sge(0, buffer.region(), (long) slot * SLOT, GRH + PAYLOAD));
    }

    /** Sends datagrams {@code first} .. {@code first + count - 1} to {@code address} ({@link #address()} of the peer). */
    void send(String address, long first, int count) {
        String[] words = address.split(" ");
        EndpointInfo peer = new EndpointInfo(Integer.parseInt(words[0]), 0, 0, Gid.parse(words[1]), dev.panamaverbs.values.Mtu.MTU_1024,
                QKEY, java.util.Optional.empty());
        Completions wc = Completions.allocate(1);
        try (AddressHandle ah = pd.createAddressHandle(peer.toAddressHandleAttributes(device.port(), device.gidIndex()))) {
            SendWorkRequest request = SendWorkRequest.allocate(1).signaled(true);
            for (long seq = first; seq < first + count; seq++) {
                long offset = (long) (SLOTS + (int) (seq % SLOTS)) * SLOT;
                buffer.putLong(offset, seq);
                buffer.fillPattern(seq, offset + 8, PAYLOAD - 8);
                qp.postSend(request.wrId(seq).sge(buffer.region(), offset, PAYLOAD).ud(ah, peer.qpn(), QKEY));
                CompletionWaiter.awaitSuccess(sendQueue, wc);
            }
        }
    }

    /** Checks every datagram that arrives and posts its slot again, until the thread is interrupted or the queue closes. */
    void receiveForever() {
        Completions wc = Completions.allocate(SLOTS);
        while (!Thread.currentThread().isInterrupted()) {
            int n;
            try {
                n = receiveQueue.poll(wc);
            } catch (IllegalStateException closed) {
                return;
            }
            for (int i = 0; i < n; i++) {
                int slot = (int) wc.wrId(i);
                long offset = (long) slot * SLOT + GRH;
                boolean right = wc.status(i) == CompletionStatus.SUCCESS && wc.byteLength(i) == GRH + PAYLOAD;
                if (right) {
                    long seq = buffer.memory().get(ValueLayout.JAVA_LONG, offset);
                    try {
                        buffer.assertPattern(seq, offset + 8, PAYLOAD - 8);
                    } catch (AssertionError e) {
                        right = false;
                    }
                }
                (right ? received : wrong).incrementAndGet();
                postReceive(slot);
            }
            if (n == 0) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    @Override
    public void close() {
        try {
            buffer.close();
        } finally {
            qp.close();
            sendQueue.close();
            receiveQueue.close();
        }
    }
}
