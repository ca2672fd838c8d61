package dev.panamaverbs.it.twohost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.cm.EndpointInfo;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.values.ReadyToSendOptions;
import dev.panamaverbs.values.RemoteEndpoint;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.testkit.CompletionWaiter;
import dev.panamaverbs.testkit.TestDevice;
import java.util.EnumSet;

/**
 * Connecting an RC queue pair to the peer's, both sides the same way, from the exchanged endpoints,
 * and posting one signaled request on it and checking its completion.
 */
final class RcConnection {
    /**
     * ACK timeout 14 (about 67 ms) and 6 retries: a lost peer fails the QP within about half a
     * second instead of never (7 retries means for ever on rxe). RNR retries 6 likewise.
     */
    static final int RETRY_COUNT = 6;

    private RcConnection() {}

    /** The local ACK timeout's exponent: 4.096 us * 2^14, about 67 ms. */
    static final int ACK_TIMEOUT = 14;

    /**
     * How long a request to a dead peer takes to fail with RETRY_EXC_ERR by the verbs' own
     * arithmetic: one ACK timeout for the first try and one per retry.
     */
    static java.time.Duration predictedRetryExhaustion() {
        return predictedRetryExhaustion(ACK_TIMEOUT);
    }

    /** As {@link #predictedRetryExhaustion()} for an ACK timeout of 4.096 us * 2^{@code ackTimeout}. */
    static java.time.Duration predictedRetryExhaustion(int ackTimeout) {
        return java.time.Duration.ofNanos((RETRY_COUNT + 1) * (4096L << ackTimeout));
    }

    /**
     * The bound a fault test allows a failure to be detected in: 10 times the {@code predicted}
     * time plus 5 s (rxe's retransmit timer runs on jiffies, and the VMs are emulated).
     */
    static java.time.Duration detectionBound(java.time.Duration predicted) {
        return predicted.multipliedBy(10).plusSeconds(5);
    }

    /** RESET -> INIT -> RTR (to {@code theirs}, at the smaller MTU) -> RTS (from {@code mine}'s PSN). */
    static void connect(QueuePair qp, TestDevice device, EndpointInfo mine, EndpointInfo theirs) {
        connect(qp, device, mine, theirs, ACK_TIMEOUT);
    }

    /** As {@link #connect(QueuePair, TestDevice, EndpointInfo, EndpointInfo)} with ACK timeout {@code ackTimeout} (4.096 us * 2^t). */
    static void connect(QueuePair qp, TestDevice device, EndpointInfo mine, EndpointInfo theirs, int ackTimeout) {
        qp.toInit(device.port(), 0, EnumSet.of(AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ, AccessFlag.REMOTE_ATOMIC));
        qp.toRtr(RemoteEndpoint.global(theirs.qpn(), theirs.psn(), theirs.gid(), device.gidIndex(), mine.commonMtu(theirs)));
        qp.toRts(ReadyToSendOptions.withPsn(mine.psn()).withTimeout(ackTimeout).withRetryCount(RETRY_COUNT).withRnrRetry(RETRY_COUNT));
    }

    /** Posts {@code request} signaled on {@code qp}, waits for its successful completion on {@code cq} and checks its opcode. */
    static void post(QueuePair qp, CompletionQueue cq, Completions wc, SendWorkRequest request, CompletionOpcode expected) {
        qp.postSend(request.signaled(true));
        CompletionWaiter.awaitSuccess(cq, wc);
        assertEquals(expected, wc.opcode(0));
    }
}
