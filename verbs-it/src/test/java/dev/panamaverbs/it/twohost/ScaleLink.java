package dev.panamaverbs.it.twohost;

import dev.panamaverbs.CompletionChannel;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.cm.ConnectionId;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.QueuePairType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.EnumSet;

/**
 * One connection of {@link ScaleTwoHostTest} on either host: an rdma_cm identifier with a
 * protection domain, a region and a completion channel of its own (each identifier wraps the
 * device context anew, and a protection domain or channel serves only its own wrapper's
 * objects), a completion queue on that channel, so its thread waits for completions through
 * the poller ({@link CompletionQueue#awaitCompletions}), and the queue pair. Its two 64-byte
 * slots: send, then receive. The messages:
 * {@code index, seq, role} (ints) then bytes that depend on all three, checked on arrival.
 */
final class ScaleLink implements AutoCloseable {
    static final int MESSAGE = 64;
    static final int REQUEST = 0, REPLY = 1;
    /** The longest single park on the channel; between parks a side may look at other things. */
    static final Duration SLICE = Duration.ofSeconds(2);

    final int index;
    final ConnectionId id;
    private final ProtectionDomain pd;
    private final MemoryRegion region;
    private final CompletionChannel channel;
    final CompletionQueue cq;
    final QueuePair qp;
    private final MemorySegment send, receive;
    private final SendWorkRequest sendRequest;
    private final ReceiveWorkRequest receiveRequest;
    private final Completions wc = Completions.allocate(2);
    /** Completions polled beyond what the last {@link #await} asked for (a reply's SEND and the next request can come in one poll). */
    private int banked;

    private ScaleLink(int index, ConnectionId id, ProtectionDomain pd, MemoryRegion region, CompletionChannel channel,
                      CompletionQueue cq, QueuePair qp) {
        this.index = index;
        this.id = id;
        this.pd = pd;
        this.region = region;
        this.channel = channel;
        this.cq = cq;
        this.qp = qp;
        long at = 0;
        this.send = region.memory().asSlice(at, MESSAGE);
        this.receive = region.memory().asSlice(at + MESSAGE, MESSAGE);
        this.sendRequest = SendWorkRequest.allocate(1).signaled(true).sge(region, at, MESSAGE);
        this.receiveRequest = ReceiveWorkRequest.allocate(1).sge(0, region, at + MESSAGE, MESSAGE);
    }

    /** Protection domain, region, channel, completion queue and RC queue pair on {@code id} (before connect or accept). */
    static ScaleLink create(int index, ConnectionId id) {
        Context context = id.context();
        ProtectionDomain pd = context.allocateProtectionDomain();
        MemoryRegion region = null;
        CompletionChannel channel = null;
        CompletionQueue cq = null;
        try {
            region = pd.allocateMemoryRegion(2 * MESSAGE, EnumSet.of(AccessFlag.LOCAL_WRITE));
            channel = context.createCompletionChannel();
            cq = context.createCompletionQueue(4, channel, 0);
            QueuePair qp = id.createQueuePair(pd, QueuePairOptions.builder(QueuePairType.RC, cq)
                    .maxSendWorkRequests(2).maxReceiveWorkRequests(2).maxSendSge(1).maxReceiveSge(1).build());
            return new ScaleLink(index, id, pd, region, channel, cq, qp);
        } catch (RuntimeException e) {
            for (AutoCloseable made : new AutoCloseable[] {cq, channel, region, pd}) {
                if (made != null) {
                    try {
                        made.close();
                    } catch (Exception suppressed) {
                        e.addSuppressed(suppressed);
                    }
                }
            }
            throw e;
        }
    }

    /** Closes the queue pair, completion queue, channel, region and protection domain (not the identifier). */
    @Override
    public void close() {
        qp.close();
        cq.close();
        channel.close();
        region.close();
        pd.close();
    }

    void postReceive() {
        receive.fill((byte) 0);
        qp.postReceive(receiveRequest);
    }

    /** Writes message {@code (index, seq, role)} to the send slot and posts it. */
    void send(int messageIndex, int seq, int role) {
        write(send, messageIndex, seq, role);
        qp.postSend(sendRequest);
    }

    /** The index carried by the message just received. */
    int receivedIndex() {
        return receive.get(ValueLayout.JAVA_INT, 0);
    }

    /** Checks the message just received is {@code (index, seq, role)}, byte for byte; null when it is, else what differs. */
    String checkReceived(int messageIndex, int seq, int role) {
        MemorySegment expected = MemorySegment.ofArray(new long[MESSAGE / 8]); // 8-byte aligned, as the ints need
        write(expected, messageIndex, seq, role);
        long at = expected.mismatch(receive);
        return at < 0 ? null : "connection " + index + ": message " + seq + " (role " + role + ") differs at byte " + at;
    }

    private static void write(MemorySegment to, int messageIndex, int seq, int role) {
        to.set(ValueLayout.JAVA_INT, 0, messageIndex);
        to.set(ValueLayout.JAVA_INT, 4, seq);
        to.set(ValueLayout.JAVA_INT, 8, role);
        for (int j = 12; j < MESSAGE; j++) {
            to.set(ValueLayout.JAVA_BYTE, j, (byte) (messageIndex * 31 + seq * 7 + role * 13 + j));
        }
    }

    /**
     * Waits for {@code count} completions through the poller, in slices of {@link #SLICE}; a
     * failed one throws its {@link dev.panamaverbs.CompletionFailedException} (with the status).
     * After each empty slice runs {@code onSilence}; past {@code timeout} throws. Completions
     * are counted, not told apart: the protocol has at most two outstanding, each checked by
     * what it brought.
     */
    void await(int count, Duration timeout, Runnable onSilence) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        int got = Math.min(banked, count);
        banked -= got;
        while (got < count) {
            int n = cq.awaitCompletions(wc, SLICE);
            for (int i = 0; i < n; i++) {
                wc.throwIfFailed(i);
            }
            got += n;
            if (n == 0) {
                if (System.nanoTime() - end > 0) {
                    throw new AssertionError("connection " + index + ": " + got + " of " + count
                            + " completions in " + timeout);
                }
                onSilence.run();
            }
        }
        banked += got - count;
    }
}
