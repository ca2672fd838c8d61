package dev.panamaverbs.examples.windows;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.Completions;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.cm.RdmaConnection;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.onesided.WindowDescriptor;
import java.time.Duration;
import java.util.EnumSet;

/**
 * Swaps window descriptors over a fresh rdma_cm connection: each side posts one receive, SENDs
 * its own descriptor's {@value WindowDescriptor#BYTES} bytes and waits for both completions. Both
 * sides do the same, so neither goes first (a SEND that arrives before the peer's receive is
 * retried: rdma_cm's default RNR retry count waits for it). Uses the connection's completion
 * queue before any one-sided channel polls it.
 */
final class DescriptorSwap {
    private static final long RECEIVED = 1;
    private static final long SENT = 2;
    private static final long THEIRS = 64;

    private DescriptorSwap() {}

    /**
     * Sends {@code mine} and returns the peer's descriptor.
     *
     * @throws IllegalStateException if both completions did not arrive within {@code timeout}
     * @throws dev.panamaverbs.CompletionFailedException if the SEND or the receive failed
     */
    static WindowDescriptor swap(RdmaConnection connection, WindowDescriptor mine, Duration timeout) {
        try (MemoryRegion buffer = connection.protectionDomain().allocateMemoryRegion(128,
                EnumSet.of(AccessFlag.LOCAL_WRITE))) {
            mine.writeTo(buffer.memory(), 0);
            connection.queuePair().postReceive(ReceiveWorkRequest.allocate(1).wrId(RECEIVED)
                    .sge(0, buffer, THEIRS, WindowDescriptor.BYTES));
            connection.queuePair().postSend(SendWorkRequest.allocate(1).wrId(SENT).opcode(WorkRequestOpcode.SEND)
                    .sge(0, buffer, 0, WindowDescriptor.BYTES).signaled(true));
            Completions completions = Completions.allocate(2);
            long deadline = System.nanoTime() + timeout.toNanos();
            boolean received = false, sent = false;
            while (!(received && sent)) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("the window descriptors were not swapped within " + timeout.toSeconds()
                            + " s (received " + received + ", sent " + sent + ")");
                }
                int n = connection.completionQueue().poll(completions);
                for (int i = 0; i < n; i++) {
                    completions.throwIfFailed(i);
                    received |= completions.wrId(i) == RECEIVED;
                    sent |= completions.wrId(i) == SENT;
                }
                Thread.onSpinWait();
            }
            return WindowDescriptor.readFrom(buffer.memory(), THEIRS);
        }
    }
}
