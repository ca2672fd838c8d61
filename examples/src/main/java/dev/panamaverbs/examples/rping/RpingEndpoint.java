package dev.panamaverbs.examples.rping;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.Completions;
import dev.panamaverbs.cm.ConnectionId;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

/**
 * One rping connection's buffers and work requests, as rping sets them up: a 16-byte receive
 * buffer and a 16-byte send buffer for {@link RpingInfo} messages, the {@code rdma_buf} of
 * {@code size} bytes (the server's READ sink and WRITE source, the client's WRITE sink) and, on
 * the client, the {@code start_buf} the server READs. One receive is always posted (reposted as
 * each completes). Every wait polls the completion queue up to the timeout, and notices a peer
 * that disconnected ({@link Disconnected}).
 */
final class RpingEndpoint {
    /** The peer disconnected: how an rping server learns that the client is done. */
    static final class Disconnected extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Disconnected(String message) {
            super(message);
        }
    }

    private static final Set<AccessFlag> RDMA_ACCESS = EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_READ,
            AccessFlag.REMOTE_WRITE);
    /** Empty polls between two checks of the event channel for DISCONNECTED. */
    private static final int POLLS_PER_EVENT_CHECK = 256;

    private final ConnectionId id;
    private final QueuePair qp;
    private final CompletionQueue cq;
    private final int size;
    private final long timeoutNanos;
    private final MemoryRegion receiveBuffer;
    private final MemoryRegion sendBuffer;
    private final MemoryRegion rdmaBuffer;
    private final MemoryRegion startBuffer;
    private final ReceiveWorkRequest receive;
    private final SendWorkRequest send;
    private final SendWorkRequest rdma;
    private final Completions wc;

    /** Registers the buffers in {@code pd} (allocated in {@code arena}, which must outlive the queue pair). */
    RpingEndpoint(ConnectionId id, ProtectionDomain pd, QueuePair qp, CompletionQueue cq, int size, boolean client,
                  Duration timeout, Arena arena) {
        this.id = id;
        this.qp = qp;
        this.cq = cq;
        this.size = size;
        this.timeoutNanos = timeout.toNanos();
        receiveBuffer = pd.allocateMemoryRegion(RpingInfo.SIZE, EnumSet.of(AccessFlag.LOCAL_WRITE));
        sendBuffer = pd.allocateMemoryRegion(RpingInfo.SIZE, EnumSet.noneOf(AccessFlag.class));
        rdmaBuffer = pd.allocateMemoryRegion(size, RDMA_ACCESS);
        startBuffer = client ? pd.allocateMemoryRegion(size, RDMA_ACCESS) : null;
        receive = ReceiveWorkRequest.allocate(arena, 1).sge(0, receiveBuffer, 0, RpingInfo.SIZE);
        send = SendWorkRequest.allocate(arena, 1).opcode(WorkRequestOpcode.SEND).signaled(true)
                .sge(0, sendBuffer, 0, RpingInfo.SIZE);
        rdma = SendWorkRequest.allocate(arena, 1).signaled(true);
        wc = Completions.allocate(arena, 1);
    }

    MemoryRegion rdmaBuffer() {
        return rdmaBuffer;
    }

    MemoryRegion startBuffer() {
        return startBuffer;
    }

    /** Posts the one receive. */
    void postReceive() {
        qp.postReceive(receive);
    }

    /** Sends {@code info} (16 bytes, network order) with a signaled SEND; its completion is consumed by later waits. */
    void send(RpingInfo info) {
        info.encode(sendBuffer.memory());
        qp.postSend(send);
    }

    /** The advertisement of {@code buffer}: its iova, rkey and rping's size. */
    RpingInfo advertise(MemoryRegion buffer) {
        return new RpingInfo(buffer.iova(), buffer.rkey(), size);
    }

    /** Waits for the next message, checks it is 16 bytes, reposts the receive and returns the message. */
    RpingInfo receive(String step) {
        int length = await(CompletionOpcode.RECV, step);
        if (length != RpingInfo.SIZE) {
            throw new IllegalStateException("Received bogus data, size " + length + " (" + step + ")");
        }
        RpingInfo info = RpingInfo.decode(receiveBuffer.memory());
        postReceive();
        return info;
    }

    /** RDMA READs {@code length} bytes of the advertised buffer into {@code rdma_buf} and waits. */
    void read(RpingInfo from, int length) {
        rdma.opcode(WorkRequestOpcode.RDMA_READ).sge(0, rdmaBuffer, 0, length).rdma(from.address(), from.rkey());
        qp.postSend(rdma);
        await(CompletionOpcode.RDMA_READ, "RDMA READ");
    }

    /** RDMA WRITEs the first {@code length} bytes of {@code rdma_buf} to the advertised buffer and waits. */
    void write(RpingInfo to, int length) {
        rdma.opcode(WorkRequestOpcode.RDMA_WRITE).sge(0, rdmaBuffer, 0, length).rdma(to.address(), to.rkey());
        qp.postSend(rdma);
        await(CompletionOpcode.RDMA_WRITE, "RDMA WRITE");
    }

    /**
     * Polls until a completion of {@code expected} (SEND completions pass by, as in rping's
     * handler); returns its byte length. A flushed request or DISCONNECTED throws
     * {@link Disconnected}; another failure or the timeout throws {@link IllegalStateException}.
     */
    private int await(CompletionOpcode expected, String step) {
        long deadline = System.nanoTime() + timeoutNanos;
        int idle = 0;
        while (true) {
            if (cq.poll(wc, 1) == 1) {
                idle = 0;
                if (wc.status(0) == CompletionStatus.WR_FLUSH_ERR) {
                    throw new Disconnected("flushed while waiting for " + step + ": the connection is down");
                }
                if (!wc.isSuccess(0)) {
                    throw new IllegalStateException("cq completion failed status " + wc.statusValue(0) + " ("
                            + wc.status(0) + ") while waiting for " + step);
                }
                CompletionOpcode opcode = wc.opcode(0);
                if (opcode == expected) {
                    return wc.byteLength(0);
                }
                if (opcode != CompletionOpcode.SEND) {
                    throw new IllegalStateException("unexpected " + opcode + " completion while waiting for " + step);
                }
                continue;
            }
            if (++idle % POLLS_PER_EVENT_CHECK == 0) {
                if (id.awaitDisconnect(Duration.ofMillis(1))) {
                    throw new Disconnected("DISCONNECTED while waiting for " + step);
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no " + step + " within " + timeoutNanos / 1_000_000_000L + " s");
                }
            }
        }
    }
}
