package dev.panamaverbs.perftest.cm;

import dev.panamaverbs.AddressHandle;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.cm.DatagramParameters;
import dev.panamaverbs.perftest.wire.PeerGoneException;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

/**
 * How perftest's UD server learns where to send with {@code -R} (the resolution told only the
 * client): the client sends one SEND with immediate to the server's queue pair, 4 bytes (its QPN,
 * host order) with its QPN as the immediate in network order ({@code rdma_cm_send_ud_connection_parameters});
 * the server receives it into {@value #RECEIVE} bytes ({@code UD_ADDITION} + 4, posted before it
 * answered the resolution) and makes its address handle from that completion and its GRH
 * ({@code rdma_cm_initialize_ud_connection_parameters}).
 */
final class CmDatagramAddress {
    /** The bytes of scratch memory a connection's datagram needs: the GRH and the 4 bytes. */
    static final int SCRATCH = 64;
    /** {@code UD_ADDITION + sizeof(uint32_t)}. */
    private static final int RECEIVE = 40 + 4;
    private static final int GRH = 40;

    private CmDatagramAddress() {}

    /** The server's receive for the client's QPN datagram, posted before it answers the resolution. */
    static void postReceive(QueuePair qp, MemoryRegion scratch) {
        qp.postReceive(ReceiveWorkRequest.allocate(1).wrId(0).sge(0, scratch, 0, RECEIVE));
    }

    /** The server: waits for the client's QPN datagram and makes an address handle back to its sender. */
    static AddressHandle await(CompletionQueue cq, ProtectionDomain pd, MemoryRegion scratch, int port, Duration timeout)
            throws IOException {
        Completions completion = one(cq, timeout, "the client's QPN datagram (UD over rdma_cm)");
        if (completion.opcode(0) != CompletionOpcode.RECV) {
            throw new IllegalStateException("expected the client's QPN datagram, got a " + completion.opcode(0) + " completion");
        }
        return pd.createAddressHandle(completion, 0, scratch.memory().asSlice(0, GRH), port);
    }

    /** The client: sends its QPN to the server it resolved and waits for the send's completion. */
    static void sendQpn(QueuePair qp, CompletionQueue cq, MemoryRegion scratch, AddressHandle handle, DatagramParameters peer,
            Duration timeout) throws IOException {
        scratch.memory().set(ValueLayout.JAVA_INT_UNALIGNED, GRH, qp.number());
        qp.postSend(SendWorkRequest.allocate(1).wrId(0).opcode(WorkRequestOpcode.SEND_WITH_IMM).signaled(true)
                .immediateDataHostOrder(qp.number()).sge(0, scratch, GRH, Integer.BYTES)
                .ud(handle, peer.queuePairNumber(), peer.qkey()));
        one(cq, timeout, "sending our QPN datagram (UD over rdma_cm)");
    }

    /** Polls {@code cq} for one successful completion within {@code timeout}. */
    private static Completions one(CompletionQueue cq, Duration timeout, String step) throws IOException {
        Completions completion = Completions.allocate(1);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (cq.poll(completion) == 0) {
            if (System.nanoTime() - deadline > 0) {
                throw new PeerGoneException("no completion for " + step + " within " + timeout.toSeconds() + " s", null);
            }
            Thread.onSpinWait();
        }
        if (!completion.isSuccess(0)) {
            throw new PeerGoneException(step + " failed: " + completion.status(0), null);
        }
        return completion;
    }
}
