package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.AsyncEvent;
import dev.panamaverbs.values.AsyncEventType;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairAttributeMask;
import dev.panamaverbs.values.QueuePairState;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.values.RemoteEndpoint;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.SharedReceiveQueue;
import dev.panamaverbs.values.SharedReceiveQueueOptions;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.ffm.ibv_qp_attr;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** Asynchronous events: waiting without blocking native code, delivery, identity of the element (issue 4). */
class AsyncEventDeviceTest {
    /** Receive buffers posted to the SRQ up front. */
    private static final int SRQ_POSTED = 6;

    @DeviceTest
    void quietDeviceTimesOutWithoutEvents(TestDevice device) throws Exception {
        try (Context context = ContextDeviceTest.open(device)) {
            long start = System.nanoTime();
            assertEquals(Optional.empty(), context.pollAsyncEvent(Duration.ofMillis(200)));
            long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(waitedMillis >= 190, "waited the timeout: " + waitedMillis + " ms");
            assertEquals(Optional.empty(), context.pollAsyncEvent(Duration.ZERO));
            assertThrows(IllegalArgumentException.class, () -> context.pollAsyncEvent(Duration.ofMillis(-1)));
            // The deadline rule (docs/safety.md): a null timeout is a NullPointerException naming the verb.
            NullPointerException noTimeout = assertThrows(NullPointerException.class, () -> context.pollAsyncEvent(null));
            assertTrue(noTimeout.getMessage().startsWith("ibv_get_async_event"), noTimeout.getMessage());
        }
    }

    @DeviceTest
    void virtualThreadWaitsAndInterruptStopsTheWait(TestDevice device) throws Exception {
        try (Context context = ContextDeviceTest.open(device)) {
            AtomicReference<Object> outcome = new AtomicReference<>();
            Thread waiter = OutcomeThreads.start(true, "async-event-waiter", outcome,
                    () -> context.pollAsyncEvent(Duration.ofSeconds(30)));
            Thread.sleep(300);
            assertTrue(waiter.isAlive(), "still waiting");
            waiter.interrupt();
            assertTrue(waiter.join(Duration.ofSeconds(5)), "an interrupt ends the wait");
            assertTrue(outcome.get() instanceof InterruptedException, String.valueOf(outcome.get()));
        }
    }

    @DeviceTest
    void listenerTakesTheEventsAndStopsOnClose(TestDevice device) throws Exception {
        Context context = ContextDeviceTest.open(device);
        try {
            context.setAsyncEventListener(event -> { });
            IllegalStateException taken = assertThrows(IllegalStateException.class,
                    () -> context.pollAsyncEvent(Duration.ZERO));
            assertTrue(taken.getMessage().contains("listener"), taken.getMessage());
            context.setAsyncEventListener(null);
            assertEquals(Optional.empty(), context.pollAsyncEvent(Duration.ZERO), "polling works again");
            context.setAsyncEventListener(event -> { });
        } finally {
            long start = System.nanoTime();
            context.close();
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(3), "close stops the listener promptly");
        }
        assertThrows(IllegalStateException.class, () -> context.setAsyncEventListener(event -> { }));
    }

    /**
     * An SRQ armed with a limit raises SRQ_LIMIT_REACHED once a receive consumes it below the
     * limit (rxe does this in its responder). The event names the SRQ object, found through the
     * context's resource tree, and arrives through both the poll and the listener path.
     */
    @DeviceTest
    void srqLimitEventNamesTheSharedReceiveQueue(TestDevice device) throws Exception {
        try (Context context = ContextDeviceTest.open(device); Arena arena = Arena.ofConfined()) {
            Loopback loopback = Loopback.connect(context, device, arena);
            loopback.srq.setLimit(SRQ_POSTED);
            loopback.sendOne(arena, 1);

            AsyncEvent event = context.pollAsyncEvent(Duration.ofSeconds(20))
                    .orElseThrow(() -> new AssertionError("no async event within 20 s"));
            assertEquals(AsyncEventType.SRQ_LIMIT_REACHED, event.type());
            assertEquals(AsyncEvent.Element.SHARED_RECEIVE_QUEUE, event.element());
            assertSame(loopback.srq, event.resource(SharedReceiveQueue.class).orElseThrow(), event.toString());
            assertSame(context, event.context());
            assertTrue(event.queuePairNumber().isEmpty());

            // The limit disarms itself; arm again and take the next one through a listener.
            BlockingQueue<AsyncEvent> delivered = new ArrayBlockingQueue<>(8);
            context.setAsyncEventListener(delivered::add);
            loopback.srq.setLimit(SRQ_POSTED - 1);
            loopback.sendOne(arena, 2);
            AsyncEvent second = delivered.poll(20, TimeUnit.SECONDS);
            assertTrue(second != null, "listener got no event within 20 s");
            assertEquals(AsyncEventType.SRQ_LIMIT_REACHED, second.type());
            assertSame(loopback.srq, second.resource().orElseThrow());
            context.setAsyncEventListener(null);
            // Every event was acknowledged: destroying the SRQ and QPs (closing the context) cannot hang.
        }
    }

    /** A QP event of {@code type}: it must carry the QP's number and the QueuePair object. */
    private static void assertQueuePairEvent(AsyncEventType type, QueuePair qp, AsyncEvent event) {
        assertEquals(type, event.type(), event.toString());
        assertEquals(AsyncEvent.Element.QUEUE_PAIR, event.element());
        assertEquals(qp.number(), event.queuePairNumber().orElseThrow());
        assertSame(qp, event.resource(QueuePair.class).orElseThrow());
    }

    /**
     * A QP on an SRQ moved to ERROR gets QP_LAST_WQE_REACHED where the provider raises it (rxe in
     * newer kernels does, from its responder's flush). The event must carry the QP number and the
     * QueuePair object. Skipped, not passed, when the kernel raises nothing.
     */
    @DeviceTest
    void qpEventNamesTheQueuePair(TestDevice device) throws Exception {
        try (Context context = ContextDeviceTest.open(device); Arena arena = Arena.ofConfined()) {
            Loopback loopback = Loopback.connect(context, device, arena);
            loopback.receiver.toError();
            Optional<AsyncEvent> event = context.pollAsyncEvent(Duration.ofSeconds(5));
            assumeTrue(event.isPresent(), "this kernel's rxe raised no QP_LAST_WQE_REACHED for an SRQ-attached QP in ERROR");
            assertQueuePairEvent(AsyncEventType.QP_LAST_WQE_REACHED, loopback.receiver, event.orElseThrow());
            // Acknowledged already: destroying the QP (ibv_destroy_qp waits for acks) returns.
            loopback.receiver.close();
        }
    }

    /**
     * RTS -> SQD with {@code en_sqd_async_notify} while RDMA writes are in flight: once the send
     * queue drains the provider raises SQ_DRAINED for that QP. The event must carry the sender's
     * QP number (read from the native {@code ibv_qp} before the acknowledgement) and the object.
     */
    @DeviceTest
    void sqDrainedEventNamesTheQueuePair(TestDevice device) throws Exception {
        try (Context context = ContextDeviceTest.open(device); Arena arena = Arena.ofConfined()) {
            Loopback loopback = Loopback.connect(context, device, arena);
            int writes = 64;
            int size = 64 * 1024;
            MemorySegment target = arena.allocate(size, 4096);
            MemoryRegion targetRegion = loopback.pd.register(target,
                    EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
            MemorySegment source = arena.allocate(size, 4096);
            MemoryRegion sourceRegion = loopback.pd.register(source, EnumSet.of(AccessFlag.LOCAL_WRITE));
            for (int i = 0; i < writes; i++) {
                loopback.sender.postSend(SendWorkRequest.allocate(arena, 1).wrId(1000 + i)
                        .opcode(WorkRequestOpcode.RDMA_WRITE).sge(sourceRegion, 0, size)
                        .rdma(targetRegion.memoryAddress(), targetRegion.rkey()).signaled(i == writes - 1));
            }
            MemorySegment attr = arena.allocate(ibv_qp_attr.LAYOUT);
            ibv_qp_attr.qp_state(attr, QueuePairState.SQD.value());
            ibv_qp_attr.en_sqd_async_notify(attr, (byte) 1);
            try {
                loopback.sender.modify(attr, EnumSet.of(QueuePairAttributeMask.STATE, QueuePairAttributeMask.SQD_ASYNC_NOTIFY));
            } catch (VerbsException e) {
                // rxe before Linux 6.x answers EINVAL for RTS -> SQD: nothing to observe then.
                assumeTrue(e.errno() != Errno.EINVAL, "the provider rejects RTS -> SQD: " + e.getMessage());
                throw e;
            }

            Optional<AsyncEvent> event = context.pollAsyncEvent(Duration.ofSeconds(30));
            assumeTrue(event.isPresent(), "no SQ_DRAINED within 30 s (the writes may have finished before SQD)");
            AsyncEvent drained = event.orElseThrow();
            assertQueuePairEvent(AsyncEventType.SQ_DRAINED, loopback.sender, drained);
            assertTrue(drained.toString().contains("qpn=" + loopback.sender.number()), drained.toString());
        }
    }

    /**
     * More signaled completions than the send CQ holds: the provider reports the overflow as
     * CQ_ERR on that CQ (rxe does in rxe_cq_post). The event must name the CompletionQueue object.
     */
    @DeviceTest
    void cqOverflowEventNamesTheCompletionQueue(TestDevice device) throws Exception {
        try (Context context = ContextDeviceTest.open(device); Arena arena = Arena.ofConfined()) {
            Loopback loopback = Loopback.connect(context, device, arena);
            CompletionQueue tiny = context.createCompletionQueue(1);
            QueuePair sender = loopback.pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, tiny, loopback.cq).build());
            QueuePair target = loopback.pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, loopback.cq).build());
            connect(context, device, sender, target, EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
            MemorySegment buffer = arena.allocate(4096, 4096);
            MemoryRegion region = loopback.pd.register(buffer, EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
            int writes = tiny.capacity() + 4;
            for (int i = 0; i < writes; i++) {
                sender.postSend(SendWorkRequest.allocate(arena, 1).wrId(i).opcode(WorkRequestOpcode.RDMA_WRITE)
                        .sge(region, 0, 8).rdma(region.memoryAddress() + 2048, region.rkey()).signaled(true));
            }
            AsyncEvent event = context.pollAsyncEvent(Duration.ofSeconds(20))
                    .orElseThrow(() -> new AssertionError("no CQ_ERR after " + writes + " completions into a CQ of "
                            + tiny.capacity()));
            assertEquals(AsyncEventType.CQ_ERR, event.type(), event.toString());
            assertEquals(AsyncEvent.Element.COMPLETION_QUEUE, event.element());
            assertSame(tiny, event.resource(CompletionQueue.class).orElseThrow(), event.toString());
        }
    }

    /**
     * QP-level events from a remote access error. An RC RDMA WRITE to a wrong rkey, then one past
     * the end of the target region, each on a fresh connected pair: the requester must complete
     * with REM_ACCESS_ERR (asserted: rxe's responder answers a NAK for both), and any QP event
     * the provider raises for it (QP_ACCESS_ERR / QP_REQ_ERR / QP_FATAL, or LAST_WQE_REACHED)
     * must name the QueuePair object of that QP number. Debian's 6.1 rxe raises none: its
     * responder only NAKs (do_class_ac_error) and both sides go to ERROR through rxe_qp_error,
     * which dispatches no ib_event; then the test is aborted with the events it did see.
     */
    @DeviceTest
    void remoteAccessErrorQpEventsNameTheQueuePair(TestDevice device) throws Exception {
        try (Context context = ContextDeviceTest.open(device); Arena arena = Arena.ofConfined()) {
            BlockingQueue<AsyncEvent> delivered = new ArrayBlockingQueue<>(64);
            context.setAsyncEventListener(delivered::add);
            ProtectionDomain pd = context.allocateProtectionDomain();
            MemorySegment buffer = arena.allocate(8192, 4096);
            MemoryRegion target = pd.register(buffer.asSlice(4096, 4096),
                    EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
            MemoryRegion source = pd.register(buffer.asSlice(0, 4096), EnumSet.of(AccessFlag.LOCAL_WRITE));
            List<String> seen = new ArrayList<>();
            int qpEvents = 0;
            long[][] cases = {
                {target.memoryAddress(), target.rkey() ^ 0x5a}, // wrong key byte: no such MR
                {target.memoryAddress() + 4096 - 8, target.rkey()}, // 64 bytes from 8 before the end
            };
            for (long[] bad : cases) {
                CompletionQueue cq = context.createCompletionQueue(8);
                QueuePair requester = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq).build());
                QueuePair responder = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq).build());
                connect(context, device, requester, responder, EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE));
                requester.postSend(SendWorkRequest.allocate(arena, 1).wrId(77).opcode(WorkRequestOpcode.RDMA_WRITE)
                        .sge(source, 0, 64).rdma(bad[0], (int) bad[1]).signaled(true));
                Completions wc = Completions.allocate(arena, 4);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                int n;
                while ((n = cq.poll(wc)) == 0 && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                assertEquals(1, n, "one completion for the bad write");
                assertEquals(77, wc.wrId(0));
                assertEquals(CompletionStatus.REM_ACCESS_ERR, wc.status(0), wc.toString());
                AsyncEvent event;
                while ((event = delivered.poll(3, TimeUnit.SECONDS)) != null) {
                    seen.add(event.toString());
                    if (event.element() == AsyncEvent.Element.QUEUE_PAIR) {
                        qpEvents++;
                        int qpn = event.queuePairNumber().orElseThrow();
                        QueuePair expected = qpn == requester.number() ? requester : responder;
                        assertEquals(expected.number(), qpn, event.toString());
                        assertSame(expected, event.resource(QueuePair.class).orElseThrow(), event.toString());
                        assertTrue(EnumSet.of(AsyncEventType.QP_ACCESS_ERR, AsyncEventType.QP_REQ_ERR,
                                AsyncEventType.QP_FATAL, AsyncEventType.QP_LAST_WQE_REACHED).contains(event.type()),
                                event.toString());
                    }
                }
                requester.close(); // every event was acknowledged on delivery: destroy cannot hang
                responder.close();
                cq.close();
            }
            context.setAsyncEventListener(null);
            assumeTrue(qpEvents > 0, "this kernel's rxe raised no QP async event for an RC RDMA WRITE to a bad rkey "
                    + "or past the end of the region (both completed REM_ACCESS_ERR); events seen: " + seen);
        }
    }

    /**
     * More receive completions than the receiver's receive CQ holds: rxe's responder cannot post
     * the completion and raises CQ_ERR on that CQ (rxe_cq_post). The event names the receive
     * CompletionQueue object, not the send CQ; a QP event, if any, names the receiving QueuePair.
     */
    @DeviceTest
    void receiveCqOverrunEventNamesTheReceiveQueue(TestDevice device) throws Exception {
        try (Context context = ContextDeviceTest.open(device); Arena arena = Arena.ofConfined()) {
            ProtectionDomain pd = context.allocateProtectionDomain();
            CompletionQueue sendCq = context.createCompletionQueue(64);
            CompletionQueue tinyReceiveCq = context.createCompletionQueue(1);
            QueuePair sender = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, sendCq).build());
            QueuePair receiver = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, sendCq, tinyReceiveCq).build());
            connect(context, device, sender, receiver, EnumSet.of(AccessFlag.LOCAL_WRITE));
            MemoryRegion region = pd.register(arena.allocate(8192, 4096), EnumSet.of(AccessFlag.LOCAL_WRITE));
            int sends = tinyReceiveCq.capacity() + 4;
            for (int i = 0; i < sends; i++) {
                receiver.postReceive(ReceiveWorkRequest.allocate(arena, 1).wrId(500 + i).sge(0, region, 4096 + i * 64L, 64));
            }
            for (int i = 0; i < sends; i++) {
                sender.postSend(SendWorkRequest.allocate(arena, 1).wrId(i).opcode(WorkRequestOpcode.SEND)
                        .sge(region, 0, 16).signaled(false));
            }
            List<AsyncEvent> events = new ArrayList<>();
            AsyncEvent cqError = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (cqError == null && System.nanoTime() < deadline) {
                Optional<AsyncEvent> next = context.pollAsyncEvent(Duration.ofSeconds(1));
                if (next.isPresent()) {
                    events.add(next.get());
                    if (next.get().type() == AsyncEventType.CQ_ERR) {
                        cqError = next.get();
                    }
                }
            }
            assertTrue(cqError != null, "no CQ_ERR after " + sends + " receives into a CQ of " + tinyReceiveCq.capacity()
                    + "; events: " + events);
            assertEquals(AsyncEvent.Element.COMPLETION_QUEUE, cqError.element());
            assertSame(tinyReceiveCq, cqError.resource(CompletionQueue.class).orElseThrow(), cqError.toString());
            context.pollAsyncEvent(Duration.ofSeconds(2)).ifPresent(events::add);
            for (AsyncEvent event : events) {
                if (event.element() == AsyncEvent.Element.QUEUE_PAIR) {
                    assertEquals(receiver.number(), event.queuePairNumber().orElseThrow(), event.toString());
                    assertSame(receiver, event.resource(QueuePair.class).orElseThrow(), event.toString());
                }
            }
            System.out.println("receive CQ overrun: async events " + events);
        }
    }

    /**
     * Connects {@code a} and {@code b} to each other by hand: a device without
     * {@link DeviceCapability#CONNECT_WITHOUT_CM} skips the test.
     */
    private static void connect(Context context, TestDevice device, QueuePair a, QueuePair b, EnumSet<AccessFlag> access) {
        DeviceCapability.CONNECT_WITHOUT_CM.require(context);
        GidEntry gid = context.roceV2Ipv4Gid(device.port()).orElseThrow();
        var mtu = context.queryPort(device.port()).activeMtu();
        for (QueuePair[] pair : new QueuePair[][] {{a, b}, {b, a}}) {
            pair[0].toInit(device.port(), access);
            pair[0].toRtr(RemoteEndpoint.global(pair[1].number(), 0, gid.gid(), gid.index(), mtu));
            pair[0].toRts(0);
        }
    }

    /** Two RC queue pairs on one port connected to each other; the receiver takes its buffers from an SRQ. */
    private record Loopback(ProtectionDomain pd, CompletionQueue cq, SharedReceiveQueue srq, QueuePair sender,
                            QueuePair receiver, MemoryRegion region) {
        static Loopback connect(Context context, TestDevice device, Arena arena) {
            ProtectionDomain pd = context.allocateProtectionDomain();
            CompletionQueue cq = context.createCompletionQueue(32);
            SharedReceiveQueue srq = pd.createSharedReceiveQueue(SharedReceiveQueueOptions.of(16, 1));
            MemorySegment buffer = arena.allocate(4096, 4096);
            MemoryRegion region = pd.register(buffer, EnumSet.of(AccessFlag.LOCAL_WRITE));
            for (int i = 0; i < SRQ_POSTED; i++) {
                srq.postReceive(ReceiveWorkRequest.allocate(arena, 1).wrId(100 + i).sge(0, region, 1024 + i * 64L, 64));
            }
            QueuePair sender = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq).build());
            QueuePair receiver = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cq).sharedReceiveQueue(srq).build());
            AsyncEventDeviceTest.connect(context, device, sender, receiver, EnumSet.of(AccessFlag.LOCAL_WRITE));
            return new Loopback(pd, cq, srq, sender, receiver, region);
        }

        /** Each send consumes one SRQ buffer: the first leaves SRQ_POSTED-1 (below a limit of SRQ_POSTED), the second SRQ_POSTED-2. */
        void sendOne(Arena arena, long wrId) {
            sender.postSend(SendWorkRequest.allocate(arena, 1).wrId(wrId).opcode(WorkRequestOpcode.SEND)
                    .sge(region, 0, 64).signaled(true));
        }
    }
}
