package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairState;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.CompletionWaiter;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.testkit.TestDevice;
import java.util.EnumSet;

/**
 * What the library knows of a queue pair's state, on a real device: posts a state cannot take
 * are refused before the provider, and {@link QueuePair#queryState()} sees the ERROR a remote
 * access error leaves behind, which {@link QueuePair#state()} (the last state the library set)
 * cannot.
 */
class QueuePairStateDeviceTest {

    @DeviceTest
    void postsTheStateCannotTakeAreRefusedNamingVerbAndState(TestDevice device) {
        try (Context context = Verbs.device(device.name()).orElseThrow().open()) {
            ProtectionDomain pd = context.allocateProtectionDomain();
            CompletionQueue cq = context.createCompletionQueue(16);
            RegisteredBuffer buffer = RegisteredBuffer.allocate(pd, 4096);
            QueuePair qp = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq).build());
            ReceiveWorkRequest receive = ReceiveWorkRequest.allocate(1).wrId(1).sge(0, buffer.region(), 0, 64);
            SendWorkRequest send = SendWorkRequest.allocate(1).wrId(2).sge(buffer.region(), 0, 64);

            IllegalStateException inReset = assertThrows(IllegalStateException.class, () -> qp.postReceive(receive));
            assertTrue(inReset.getMessage().startsWith("ibv_post_recv: " + qp + " is in RESET"), inReset.getMessage());
            IllegalStateException sendInReset = assertThrows(IllegalStateException.class, () -> qp.postSend(send));
            assertTrue(sendInReset.getMessage().startsWith("ibv_post_send: " + qp + " is in RESET"), sendInReset.getMessage());

            qp.toInit(device.port(), EnumSet.of(AccessFlag.REMOTE_WRITE));
            IllegalStateException sendInInit = assertThrows(IllegalStateException.class, () -> qp.postSend(send));
            assertTrue(sendInInit.getMessage().startsWith("ibv_post_send: " + qp + " is in INIT"), sendInInit.getMessage());
            qp.postReceive(receive); // INIT takes receives
            assertEquals(QueuePairState.INIT, qp.queryState());
            Completions wc = Completions.allocate(4);
            assertEquals(0, cq.poll(wc), "nothing reached the device from the refused posts");
        }
    }

    @DeviceTest
    void aRemoteAccessErrorMovesTheQueuePairToErrorWhichOnlyQueryStateSees(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            MemoryRegion local = pair.firstBuffer().region();
            // An rkey the peer never issued: the responder NAKs, the requester's queue pair goes to ERROR.
            pair.first().postSend(SendWorkRequest.allocate(1).wrId(31).opcode(WorkRequestOpcode.RDMA_WRITE)
                    .signaled(true).sge(local, 0, 64)
                    .rdma(pair.secondBuffer().deviceAddress(0), pair.secondBuffer().region().rkey() ^ 0x00FF_FF00));
            Completions wc = pair.completions();
            CompletionWaiter.await(pair.firstQueue(), wc, 1, CompletionWaiter.DEFAULT_TIMEOUT);
            assertEquals(31, wc.wrId(0));
            assertEquals(CompletionStatus.REM_ACCESS_ERR, wc.status(0));

            assertEquals(QueuePairState.RTS, pair.first().state(), "state() is the last state the library set");
            assertEquals(QueuePairState.ERROR, pair.first().queryState(), "the device moved the queue pair to ERROR");
            assertEquals(QueuePairState.ERROR, pair.first().state(), "queryState() refreshed state()");

            // ERROR takes both posts (the library's state checks must not refuse them) and flushes
            // them. The send's flush is what this waits for: rxe on Linux 6.1 flushes a receive
            // posted in ERROR only later, if at all, so its completion may or may not come first.
            pair.first().postReceive(ReceiveWorkRequest.allocate(1).wrId(32).sge(0, local, 0, 64));
            pair.first().postSend(SendWorkRequest.allocate(1).wrId(33).signaled(true).sge(local, 0, 64));
            long deadline = System.nanoTime() + CompletionWaiter.DEFAULT_TIMEOUT.toNanos();
            boolean sendFlushed = false;
            while (!sendFlushed && System.nanoTime() < deadline) {
                int polled = pair.firstQueue().poll(wc);
                for (int i = 0; i < polled; i++) {
                    assertEquals(CompletionStatus.WR_FLUSH_ERR, wc.status(i), "wr_id=" + wc.wrId(i));
                    sendFlushed |= wc.wrId(i) == 33;
                }
            }
            assertTrue(sendFlushed, "the send posted in ERROR was flushed");
        }
    }
}
