package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.DeviceScope;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.CompletionChannel;
import dev.panamaverbs.values.CompletionField;
import dev.panamaverbs.values.CompletionFlag;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.CompletionQueueOptions;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.SharedReceiveQueue;
import dev.panamaverbs.values.SharedReceiveQueueOptions;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * The completion side end to end: an RC queue pair connected to another on the same device sends
 * with immediate data; the receiver takes the buffer from a shared receive queue and a virtual
 * thread wakes up through the completion channel (issue 4).
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CompletionLoopbackDeviceTest {
    private static final int IMMEDIATE = 0x0A0B0C0D;
    private static final int MESSAGE = 64;

    /** Two connected RC queue pairs, the receiver on an SRQ, and their buffers. */
    private record Pair(QueuePair sender, QueuePair receiver, MemoryRegion sendMr, MemoryRegion recvMr) {}

    private static Pair connect(DeviceScope scope, TestDevice device,
                                CompletionQueue sendCq, CompletionQueue recvCq, SharedReceiveQueue srq) {
        Context context = scope.context();
        ProtectionDomain pd = scope.pd();
        QueuePair sender = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, sendCq, sendCq).build());
        QueuePair receiver = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, sendCq, recvCq)
                .sharedReceiveQueue(srq).build());
        DeviceScope.connectLoopback(context, device, sender, receiver);
        MemoryRegion sendMr = pd.register(scope.arena().allocate(4096, 4096), EnumSet.of(AccessFlag.LOCAL_WRITE));
        MemoryRegion recvMr = pd.register(scope.arena().allocate(4096, 4096), EnumSet.of(AccessFlag.LOCAL_WRITE));
        return new Pair(sender, receiver, sendMr, recvMr);
    }

    private static int pollUntil(CompletionQueue cq, Completions batch, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            int polled = cq.poll(batch);
            if (polled > 0) {
                return polled;
            }
            Thread.sleep(1);
        }
        return 0;
    }

    private static void send(Pair pair, long wrId) {
        byte[] payload = new byte[MESSAGE];
        for (int i = 0; i < MESSAGE; i++) {
            payload[i] = (byte) (i * 7 + wrId);
        }
        MemorySegment.copy(payload, 0, pair.sendMr().memory(), ValueLayout.JAVA_BYTE, 0, MESSAGE);
        pair.sender().postSend(SendWorkRequest.allocate(1).wrId(wrId).opcode(WorkRequestOpcode.SEND_WITH_IMM)
                .immediateData(IMMEDIATE).signaled(true).sge(pair.sendMr(), 0, MESSAGE));
    }

    /** The first of {@code received} is what {@link #send} sent: RECV of the message and its immediate data. */
    private static void assertReceivedMessage(Pair pair, Completions received) {
        assertEquals(CompletionOpcode.RECV, received.opcode(0));
        assertEquals(MESSAGE, received.byteLength(0));
        assertTrue(received.hasFlag(0, CompletionFlag.WITH_IMM));
        assertEquals(IMMEDIATE, received.immediateData(0), "imm_data arrives as the sender wrote it");
        assertEquals(pair.receiver().number(), received.qpNumber(0));
    }

    @DeviceTest
    void virtualThreadWakesUpOnTheChannelForAReceiveFromTheSrq(TestDevice device) throws Exception {
        try (DeviceScope scope = DeviceScope.openShared(device);
                CompletionChannel channel = scope.context().createCompletionChannel()) {
            CompletionQueue sendCq = scope.context().createCompletionQueue(16);
            CompletionQueue recvCq = scope.context().createCompletionQueue(16, channel, 0);
            SharedReceiveQueue srq = scope.pd().createSharedReceiveQueue(SharedReceiveQueueOptions.of(16, 1));
            Pair pair = connect(scope, device, sendCq, recvCq, srq);

            srq.postReceive(ReceiveWorkRequest.allocate(1).wrId(77).sge(0, pair.recvMr(), 128, 1024));
            recvCq.requestNotification(false);
            Completions received = Completions.allocate(4);
            CompletableFuture<Integer> waiter = new CompletableFuture<>();
            Thread.ofVirtual().name("cq-waiter").start(() -> {
                try {
                    Optional<CompletionQueue> signalled = channel.awaitEvent(Duration.ofSeconds(60));
                    if (signalled.isEmpty()) {
                        waiter.complete(-1);
                        return;
                    }
                    assertSame(recvCq, signalled.get());
                    waiter.complete(recvCq.poll(received));
                } catch (Throwable t) {
                    waiter.completeExceptionally(t);
                }
            });

            send(pair, 5);
            Completions sent = Completions.allocate(4);
            assertEquals(1, pollUntil(sendCq, sent, Duration.ofSeconds(30)), "send completion");
            sent.throwIfFailed(0);
            assertEquals(5, sent.wrId(0));
            assertEquals(CompletionOpcode.SEND, sent.opcode(0));

            assertEquals(1, waiter.get(60, TimeUnit.SECONDS), "the woken virtual thread polled one receive");
            assertEquals(CompletionStatus.SUCCESS, received.status(0));
            assertEquals(77, received.wrId(0), "wr_id of the SRQ receive");
            assertReceivedMessage(pair, received);
            byte[] expected = new byte[MESSAGE];
            MemorySegment.copy(pair.sendMr().memory(), ValueLayout.JAVA_BYTE, 0, expected, 0, MESSAGE);
            byte[] actual = new byte[MESSAGE];
            MemorySegment.copy(pair.recvMr().memory(), ValueLayout.JAVA_BYTE, 128, actual, 0, MESSAGE);
            assertArrayEquals(expected, actual);

            assertEquals(1, recvCq.unacknowledgedEvents(), "batched: not yet acknowledged");
            // Left unacknowledged on purpose: closing must acknowledge it, or ibv_destroy_cq hangs.
        }
    }

    @DeviceTest
    void extendedQueueReportsTheSameCompletionAndAwaitCompletionsRearms(TestDevice device) throws Exception {
        try (DeviceScope scope = DeviceScope.openShared(device);
                CompletionChannel channel = scope.context().createCompletionChannel()) {
            CompletionQueue sendCq = scope.context().createCompletionQueue(16);
            CompletionQueue recvCq = scope.context().createCompletionQueue(CompletionQueueOptions.of(16)
                    .withChannel(channel)
                    .withFields(CompletionField.STANDARD).withEventAckBatch(1));
            SharedReceiveQueue srq = scope.pd().createSharedReceiveQueue(SharedReceiveQueueOptions.of(16, 1));
            Pair pair = connect(scope, device, sendCq, recvCq, srq);
            ReceiveWorkRequest receive = ReceiveWorkRequest.allocate(1).sge(0, pair.recvMr(), 0, 1024);
            srq.postReceive(receive.wrId(1));
            srq.postReceive(receive.wrId(2));

            Completions sent = Completions.allocate(2);
            Completions received = Completions.allocate(2);
            for (long message = 1; message <= 2; message++) {
                long id = message;
                CompletableFuture<Integer> waiter = CompletableFuture.supplyAsync(() -> {
                    try {
                        return recvCq.awaitCompletions(received, Duration.ofSeconds(60));
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }, command -> Thread.ofVirtual().start(command));
                Thread.sleep(200); // let the waiter arm the CQ and block first
                send(pair, 10 + id);
                assertEquals(1, pollUntil(sendCq, sent, Duration.ofSeconds(30)));
                sent.throwIfFailed(0);
                assertEquals(1, waiter.get(60, TimeUnit.SECONDS), "message " + id);
                received.throwIfFailed(0);
                assertEquals(id, received.wrId(0));
                assertReceivedMessage(pair, received);
                assertEquals(0, recvCq.unacknowledgedEvents(), "batch of 1 acknowledges at once");
            }
            assertEquals(0, recvCq.poll(received), "every completion was reported exactly once");
            assertEquals(0, sendCq.poll(sent));
        }
    }
}
