package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.CompletionChannel;
import dev.panamaverbs.CompletionFailedException;
import dev.panamaverbs.CompletionFutures;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Context;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.WorkCompletion;
import dev.panamaverbs.it.support.DeviceScope;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A future per work request ({@link CompletionFutures}, issue 23): the shared poller takes the
 * channel's completion events and completes each request's future with its own completion, for
 * several CQs on one channel; a completion that came before its {@code expect} is kept for it; a
 * failed request and the requests flushed after it fail their futures with the status; closing a
 * CQ, the futures object or the channel fails what is still pending, so no future waits for ever.
 * Loopback RC queue pairs (as {@link PollerDeviceTest}); the deadlines only turn a hang into a
 * failure.
 */
class CompletionFuturesDeviceTest {
    private static final int QUEUES = 3;
    private static final int ROUNDS = 16;
    private static final Duration DEADLINE = Duration.ofMinutes(2);

    @DeviceTest
    void everySignaledRequestCompletesItsOwnFutureOnSeveralQueuesOfOneChannel(TestDevice device) throws Exception {
        try (Loop loop = Loop.open(device)) {
            List<CompletionQueue> queues = new ArrayList<>(List.of(loop.cq()));
            List<QueuePair> pairs = new ArrayList<>(List.of(loop.qp()));
            while (queues.size() < QUEUES) {
                queues.add(loop.context().createCompletionQueue(2 * ROUNDS, loop.channel(), 0));
                pairs.add(PollerDeviceTest.loopback(loop.context(), device, loop.pd(), queues.getLast()));
            }
            try (CompletionFutures futures = CompletionFutures.attach(loop.channel())) {
                List<CompletableFuture<WorkCompletion>> expected = new ArrayList<>();
                for (int round = 0; round < ROUNDS; round++) {
                    for (int q = 0; q < QUEUES; q++) {
                        long wrId = 1000L * q + round;
                        expected.add(futures.expect(queues.get(q), wrId));
                        loop.write(pairs.get(q), wrId, q, loop.mr().rkey());
                    }
                }
                for (int i = 0; i < expected.size(); i++) {
                    WorkCompletion done = expected.get(i).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
                    int q = i % QUEUES;
                    assertEquals(1000L * q + i / QUEUES, done.wrId(), "future " + i + " got its own request's completion");
                    assertEquals(CompletionStatus.SUCCESS, done.status());
                    assertEquals(CompletionOpcode.RDMA_WRITE, done.opcode());
                    assertEquals(pairs.get(q).number(), done.qpNumber());
                }
                assertEquals(0, futures.pending());
                assertEquals(0, futures.unmatched());
            }
        }
    }

    @DeviceTest
    void aCompletionThatCameBeforeItsExpectIsKeptForIt(TestDevice device) throws Exception {
        try (Loop loop = Loop.open(device); CompletionFutures futures = CompletionFutures.attach(loop.channel())) {
            loop.write(loop.qp(), 7, 0, loop.mr().rkey());
            loop.write(loop.qp(), 8, 1, loop.mr().rkey());
            // Posted before any expect: the CQ is not armed yet, so completions that are there by the first
            // expect are found by its drain (8 kept for its own expect), later ones by the poller.
            Thread.sleep(200); // not for correctness: makes "completed before its expect" the likely case
            assertEquals(7, futures.expect(loop.cq(), 7).get(DEADLINE.toSeconds(), TimeUnit.SECONDS).wrId());
            assertEquals(8, futures.expect(loop.cq(), 8).get(DEADLINE.toSeconds(), TimeUnit.SECONDS).wrId());
            assertEquals(0, futures.pending());
        }
    }

    @DeviceTest
    void aFailedRequestAndTheRequestsFlushedAfterItFailTheirFuturesWithTheStatus(TestDevice device) throws Exception {
        try (Loop loop = Loop.open(device); CompletionFutures futures = CompletionFutures.attach(loop.channel())) {
            // The peer is a second queue pair: on one looped back to itself, 6.12's rxe puts it in ERROR as
            // the bad WRITE's responder and flushes the WRITE before the NAK completes it (docs/kernel-6.12.md).
            QueuePair requester = PollerDeviceTest.connectedPair(loop.context(), device, loop.pd(), loop.cq(),
                    loop.context().createCompletionQueue(8)).get(0);
            CompletableFuture<WorkCompletion> badKey = futures.expect(loop.cq(), 1);
            loop.write(requester, 1, 0, loop.mr().rkey() ^ 0x5a5a00);
            CompletionFailedException failed = failure(badKey);
            assertEquals(1, failed.wrId());
            assertEquals(CompletionStatus.REM_ACCESS_ERR, failed.status(), "an rkey the peer never issued: " + failed.getMessage());
            CompletableFuture<WorkCompletion> flushed = futures.expect(loop.cq(), 2);
            loop.write(requester, 2, 1, loop.mr().rkey());
            assertEquals(CompletionStatus.WR_FLUSH_ERR, failure(flushed).status(), "a request posted to the queue pair in error");
        }
    }

    @DeviceTest
    void closingAQueueTheFuturesOrTheChannelFailsWhatIsPending(TestDevice device) throws Exception {
        try (Context context = DeviceScope.openContext(device)) {
            ProtectionDomain pd = context.allocateProtectionDomain();
            CompletionChannel channel = context.createCompletionChannel();
            CompletionQueue closedFirst = context.createCompletionQueue(8, channel, 0);
            CompletionQueue kept = context.createCompletionQueue(8, channel, 0);
            PollerDeviceTest.loopback(context, device, pd, closedFirst);
            CompletionFutures futures = CompletionFutures.attach(channel);
            CompletableFuture<WorkCompletion> onClosedQueue = futures.expect(closedFirst, 1);
            CompletableFuture<WorkCompletion> onKeptQueue = futures.expect(kept, 1);
            closedFirst.close(); // closes its queue pair first
            assertTrue(closedStateMessage(onClosedQueue).contains("was closed"));
            assertTrue(!onKeptQueue.isDone(), "the other CQ's future waits on");
            assertThrows(IllegalStateException.class, () -> futures.expect(closedFirst, 2));
            futures.close();
            assertTrue(closedStateMessage(onKeptQueue).contains("CompletionFutures.close()"));
            assertThrows(IllegalStateException.class, () -> futures.expect(kept, 2));
            futures.close(); // idempotent

            channel.setEventHandler(cq -> { }); // the channel's events are free again
            assertThrows(IllegalStateException.class, () -> CompletionFutures.attach(channel), "a handler is set");
            channel.setEventHandler(null);
            CompletionFutures again = CompletionFutures.attach(channel);
            assertThrows(IllegalStateException.class, () -> CompletionFutures.attach(channel), "one per channel");
            assertThrows(IllegalStateException.class, () -> channel.setEventHandler(cq -> { }));
            CompletableFuture<WorkCompletion> pendingAtChannelClose = again.expect(kept, 3);
            CompletionChannel other = context.createCompletionChannel();
            CompletionQueue elsewhere = context.createCompletionQueue(8, other, 0);
            assertThrows(IllegalArgumentException.class, () -> again.expect(elsewhere, 1));
            assertThrows(IllegalStateException.class, () -> again.expect(kept, 3), "wr_id 3 already expected");
            channel.close(); // closes its CQs first
            assertTrue(closedStateMessage(pendingAtChannelClose).contains("was closed"));
            again.close();
        }
    }

    /**
     * A context with a completion channel, a CQ on it and a loopback RC queue pair on that CQ
     * ({@link PollerDeviceTest#loopback}), a registered region and a work request.
     */
    private record Loop(Context context, Arena arena, ProtectionDomain pd, MemoryRegion mr, CompletionChannel channel,
                        CompletionQueue cq, QueuePair qp, SendWorkRequest wr) implements AutoCloseable {
        static Loop open(TestDevice device) {
            Context context = DeviceScope.openContext(device);
            Arena arena = Arena.ofShared();
            try {
                ProtectionDomain pd = context.allocateProtectionDomain();
                MemoryRegion mr = pd.register(arena.allocate(64 * 1024, 4096), EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
                CompletionChannel channel = context.createCompletionChannel();
                CompletionQueue cq = context.createCompletionQueue(2 * ROUNDS, channel, 0);
                QueuePair qp = PollerDeviceTest.loopback(context, device, pd, cq);
                return new Loop(context, arena, pd, mr, channel, cq, qp, SendWorkRequest.allocate(arena, 1));
            } catch (RuntimeException | Error e) {
                context.close();
                arena.close();
                throw e;
            }
        }

        /** A signaled 64-byte RDMA WRITE {@code wrId} on {@code qp} from slot {@code slot} of the region to its upper half. */
        void write(QueuePair qp, long wrId, int slot, int rkey) {
            qp.postSend(wr.wrId(wrId).opcode(WorkRequestOpcode.RDMA_WRITE).sge(mr, 64L * slot, 64)
                    .rdma(mr.memoryAddress() + 32 * 1024 + 64L * slot, rkey).signaled(true));
        }

        @Override
        public void close() {
            try (arena) {
                context.close(); // its resources first, then their memory
            }
        }
    }

    private static CompletionFailedException failure(CompletableFuture<WorkCompletion> future) throws Exception {
        ExecutionException thrown = assertThrows(ExecutionException.class, () -> future.get(DEADLINE.toSeconds(), TimeUnit.SECONDS));
        return assertInstanceOf(CompletionFailedException.class, thrown.getCause());
    }

    private static String closedStateMessage(CompletableFuture<WorkCompletion> future) {
        ExecutionException thrown = assertThrows(ExecutionException.class, () -> future.get(DEADLINE.toSeconds(), TimeUnit.SECONDS));
        return assertInstanceOf(IllegalStateException.class, thrown.getCause()).getMessage();
    }
}
