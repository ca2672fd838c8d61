package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.CompletionFlag;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.Completions;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.MemoryWindow;
import dev.panamaverbs.values.MemoryWindowType;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendBatch;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.VerbsUnsupportedException;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.testkit.CompletionWaiter;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.testkit.UdPair;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.Set;

/**
 * The extended post API ({@code ibv_wr_*}, {@link SendBatch}) on the device: every opcode rxe
 * offers, posted in batches between two RC queue pairs and over UD, every byte checked; what rxe
 * refuses shows as {@link VerbsUnsupportedException} with its errno.
 */
class SendBatchDeviceTest {
    private static final Set<WorkRequestOpcode> MIXED = EnumSet.of(WorkRequestOpcode.RDMA_WRITE,
            WorkRequestOpcode.RDMA_WRITE_WITH_IMM, WorkRequestOpcode.RDMA_READ, WorkRequestOpcode.SEND,
            WorkRequestOpcode.SEND_WITH_IMM, WorkRequestOpcode.ATOMIC_FETCH_AND_ADD,
            WorkRequestOpcode.ATOMIC_CMP_AND_SWP);

    // Offsets in the two 64 KiB buffers.
    private static final int WRITE_SOURCE = 0;        // A: 4 x 256 bytes written to B
    private static final int WRITE_TARGET = 4096;     // B
    private static final int READ_SOURCE = 8192;      // B: 4 x 256 bytes read into A
    private static final int READ_TARGET = 8192;      // A
    private static final int SEND_SOURCE = 12288;     // A
    private static final int RECEIVE_AREA = 16384;    // B: one 1 KiB receive each
    private static final int ATOMICS = 20480;         // B: the words; A: the old values
    private static final int IMM_WRITE = 24576;       // A -> B

    /**
     * One batch of 16: four RDMA WRITEs (one entry, an entry list, inline, inline list), four
     * RDMA READs, two SEND_WITH_IMM (one inline), two fetch-and-adds, two compare-and-swaps, an
     * RDMA WRITE_WITH_IMM and a SEND; one ibv_wr_complete, 16 completions, every byte checked.
     */
    @DeviceTest
    void aMixedBatchOfSixteenRequestsLandsEveryByte(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.openExtended(device, 64, MIXED);
                Arena arena = Arena.ofConfined()) {
            QueuePair a = pair.first();
            assertEquals(MIXED, a.extendedSendOperations());
            RegisteredBuffer bufferA = pair.firstBuffer();
            RegisteredBuffer bufferB = pair.secondBuffer();
            MemoryRegion regionA = bufferA.region();
            bufferA.fillPattern(11, 0, 32768);
            bufferB.fillPattern(22, READ_SOURCE, 1024);
            MemorySegment inline = arena.allocate(64);
            for (int i = 0; i < 64; i++) {
                inline.set(ValueLayout.JAVA_BYTE, i, (byte) (0xA0 + i));
            }
            for (int i = 0; i < 4; i++) {
                bufferB.putLong(ATOMICS + 8L * i, 1000L * (i + 1));
                pair.second().postReceive(ReceiveWorkRequest.allocate(arena, 1).wrId(500 + i)
                        .sge(0, bufferB.region(), RECEIVE_AREA + 1024L * i, 1024));
            }
            long remote = bufferB.region().iova();
            int rkey = bufferB.region().rkey();
            SendWorkRequest[] requests = new SendWorkRequest[16];
            for (int i = 0; i < 16; i++) {
                requests[i] = SendWorkRequest.allocate(arena, 2).wrId(100 + i).signaled(true);
            }
            requests[0].opcode(WorkRequestOpcode.RDMA_WRITE).sge(regionA, WRITE_SOURCE, 256)
                    .rdma(remote + WRITE_TARGET, rkey);
            requests[1].opcode(WorkRequestOpcode.RDMA_WRITE).sge(0, regionA, WRITE_SOURCE + 256, 128)
                    .sge(1, regionA, WRITE_SOURCE + 384, 128).rdma(remote + WRITE_TARGET + 256, rkey);
            requests[2].opcode(WorkRequestOpcode.RDMA_WRITE).inlineData(inline.asSlice(0, 64))
                    .rdma(remote + WRITE_TARGET + 512, rkey);
            requests[3].opcode(WorkRequestOpcode.RDMA_WRITE).inlineData(0, inline.asSlice(0, 32))
                    .inlineData(1, inline.asSlice(32, 32)).rdma(remote + WRITE_TARGET + 768, rkey);
            for (int i = 0; i < 4; i++) {
                requests[4 + i].opcode(WorkRequestOpcode.RDMA_READ).sge(regionA, READ_TARGET + 256L * i, 256)
                        .rdma(remote + READ_SOURCE + 256L * i, rkey);
            }
            requests[8].opcode(WorkRequestOpcode.SEND_WITH_IMM).immediateData(0x1000_0008)
                    .sge(regionA, SEND_SOURCE, 512);
            requests[9].opcode(WorkRequestOpcode.SEND_WITH_IMM).immediateData(0x1000_0009)
                    .inlineData(inline.asSlice(0, 48));
            requests[10].atomicFetchAndAdd(remote + ATOMICS, rkey, 5).sge(regionA, ATOMICS, 8);
            requests[11].atomicFetchAndAdd(remote + ATOMICS + 8, rkey, 7).sge(regionA, ATOMICS + 8, 8);
            requests[12].atomicCompareAndSwap(remote + ATOMICS + 16, rkey, 3000, 0x3333).sge(regionA, ATOMICS + 16, 8);
            requests[13].atomicCompareAndSwap(remote + ATOMICS + 24, rkey, 1, 0x4444).sge(regionA, ATOMICS + 24, 8);
            requests[14].opcode(WorkRequestOpcode.RDMA_WRITE_WITH_IMM).immediateData(0x2000_0014)
                    .sge(regionA, IMM_WRITE, 64).rdma(remote + IMM_WRITE, rkey);
            requests[15].opcode(WorkRequestOpcode.SEND).sge(regionA, SEND_SOURCE + 512, 32);

            SendBatch batch = SendBatch.allocate(arena, a, 16);
            batch.start();
            for (SendWorkRequest request : requests) {
                batch.add(request);
            }
            assertEquals(16, batch.size());
            batch.complete();
            assertFalse(batch.isStarted());

            Completions wc = Completions.allocate(arena, 16);
            CompletionWaiter.await(pair.firstQueue(), wc, 16, CompletionWaiter.DEFAULT_TIMEOUT);
            for (int i = 0; i < 16; i++) {
                assertEquals(CompletionStatus.SUCCESS, wc.status(i), "request " + i);
                assertEquals(100 + i, wc.wrId(i), "RC completes in order");
            }
            assertEquals(CompletionOpcode.RDMA_READ, wc.opcode(4));
            assertEquals(CompletionOpcode.FETCH_ADD, wc.opcode(10));
            assertEquals(CompletionOpcode.COMP_SWAP, wc.opcode(12));

            // The writes.
            bufferB.assertSameBytes(WRITE_TARGET, bufferA, WRITE_SOURCE, 512);
            assertEquals(-1L, bufferB.memory().asSlice(WRITE_TARGET + 512, 64).mismatch(inline), "inline write");
            assertEquals(-1L, bufferB.memory().asSlice(WRITE_TARGET + 768, 64).mismatch(inline), "inline list write");
            bufferB.assertSameBytes(IMM_WRITE, bufferA, IMM_WRITE, 64);
            // The reads.
            bufferA.assertPattern(22, READ_TARGET, 1024);
            // The atomics: old values in A, new ones in B (the second CAS compared and did not swap).
            assertEquals(1000, bufferA.getLong(ATOMICS));
            assertEquals(2000, bufferA.getLong(ATOMICS + 8));
            assertEquals(3000, bufferA.getLong(ATOMICS + 16));
            assertEquals(4000, bufferA.getLong(ATOMICS + 24));
            assertEquals(1005, bufferB.getLong(ATOMICS));
            assertEquals(2007, bufferB.getLong(ATOMICS + 8));
            assertEquals(0x3333, bufferB.getLong(ATOMICS + 16));
            assertEquals(4000, bufferB.getLong(ATOMICS + 24));
            // The receives: two sends with immediate, the write with immediate, the send.
            CompletionWaiter.await(pair.secondQueue(), wc, 4, CompletionWaiter.DEFAULT_TIMEOUT);
            for (int i = 0; i < 4; i++) {
                assertEquals(CompletionStatus.SUCCESS, wc.status(i), "receive " + i);
                assertEquals(500 + i, wc.wrId(i));
            }
            assertEquals(CompletionOpcode.RECV, wc.opcode(0));
            assertEquals(0x1000_0008, wc.immediateData(0));
            assertEquals(512, wc.byteLength(0));
            bufferB.assertSameBytes(RECEIVE_AREA, bufferA, SEND_SOURCE, 512);
            assertEquals(0x1000_0009, wc.immediateData(1));
            assertEquals(48, wc.byteLength(1));
            assertEquals(-1L, bufferB.memory().asSlice(RECEIVE_AREA + 1024, 48).mismatch(inline.asSlice(0, 48)));
            assertEquals(CompletionOpcode.RECV_RDMA_WITH_IMM, wc.opcode(2));
            assertEquals(0x2000_0014, wc.immediateData(2));
            assertTrue(wc.hasFlag(2, CompletionFlag.WITH_IMM));
            assertEquals(32, wc.byteLength(3));
            assertFalse(wc.hasFlag(3, CompletionFlag.WITH_IMM));
            bufferB.assertSameBytes(RECEIVE_AREA + 3072, bufferA, SEND_SOURCE + 512, 32);

            // The same batch object again: reusable, and a batch of one.
            batch.start().add(requests[0].wrId(200)).complete();
            CompletionWaiter.awaitSuccess(pair.firstQueue(), wc);
            assertEquals(200, wc.wrId(0));
        }
    }

    /** A bad batch throws before any native call and leaves the queue pair usable; abort drops a batch. */
    @DeviceTest
    void aBadBatchPostsNothingAndTheQueuePairStaysUsable(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.openExtended(device, 0, EnumSet.of(WorkRequestOpcode.RDMA_WRITE));
                Arena arena = Arena.ofConfined()) {
            MemoryRegion regionA = pair.firstBuffer().region();
            MemoryRegion regionB = pair.secondBuffer().region();
            pair.firstBuffer().fillPattern(3, 0, 1024);
            SendWorkRequest good = SendWorkRequest.allocate(arena, 1).wrId(1).signaled(true)
                    .opcode(WorkRequestOpcode.RDMA_WRITE).sge(regionA, 0, 256).rdma(regionB.iova(), regionB.rkey());
            SendWorkRequest read = SendWorkRequest.allocate(arena, 1).wrId(2).signaled(true)
                    .opcode(WorkRequestOpcode.RDMA_READ).sge(regionA, 0, 256).rdma(regionB.iova(), regionB.rkey());
            SendBatch batch = SendBatch.allocate(pair.first(), 4);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> batch.start().add(good).add(read).complete());
            assertTrue(e.getMessage().startsWith("ibv_wr_complete: wr_id=2: RDMA_READ is not one of the queue pair's"
                    + " extended send operations [RDMA_WRITE]"), e.getMessage());
            assertFalse(batch.isStarted(), "complete() ends the batch even when it refuses it");

            batch.start().add(good);
            batch.abort();
            assertThrows(IllegalStateException.class, batch::complete, "an aborted batch is over");

            // Nothing was posted (no completion for wr_id 1 yet); the queue pair works.
            batch.start().add(good.wrId(3)).complete();
            Completions wc = Completions.allocate(arena, 4);
            CompletionWaiter.awaitSuccess(pair.firstQueue(), wc);
            assertEquals(3, wc.wrId(0), "the refused and the aborted batch posted nothing");
            assertEquals(0, pair.firstQueue().poll(wc));
            pair.secondBuffer().assertPattern(3, 0, 256);

            // A queue pair created without extended operations has no batch.
            try (RcLoopbackPair plain = RcLoopbackPair.open(device)) {
                IllegalStateException notExtended = assertThrows(IllegalStateException.class,
                        () -> SendBatch.allocate(plain.first(), 4));
                assertTrue(notExtended.getMessage().startsWith("ibv_qp_to_qp_ex: "), notExtended.getMessage());
            }
        }
    }

    /**
     * BIND_MW binds type 2 windows through batches (a read through one works), LOCAL_INV
     * completes on one, SEND_WITH_INV invalidates the peer's: a read through it then fails.
     */
    @DeviceTest
    void bindMwSendWithInvalidateAndLocalInvalidate(TestDevice device) {
        Set<WorkRequestOpcode> operations = EnumSet.of(WorkRequestOpcode.BIND_MW, WorkRequestOpcode.LOCAL_INV,
                WorkRequestOpcode.SEND_WITH_INV, WorkRequestOpcode.RDMA_READ);
        try (RcLoopbackPair pair = RcLoopbackPair.openExtended(device, 0, operations);
                Arena arena = Arena.ofConfined()) {
            ProtectionDomain pd = pair.protectionDomain();
            MemoryRegion exposed = PostSendOpcodesDeviceTest.windowTarget(pd, arena, 3, 7);
            MemorySegment exposedMemory = exposed.memory();
            MemoryRegion sink = pair.firstBuffer().region();
            Completions wc = Completions.allocate(arena, 4);
            SendBatch batchA = SendBatch.allocate(pair.first(), 4);
            SendBatch batchB = SendBatch.allocate(pair.second(), 4);

            // B binds window 1 over its exposed region; A reads through it, then invalidates it with a send.
            MemoryWindow remoteWindow = pd.allocateMemoryWindow(MemoryWindowType.TYPE_2);
            int remoteRkey = MemoryWindow.incrementRkey(remoteWindow.rkey());
            batchB.start().add(SendWorkRequest.allocate(arena, 1).wrId(10).signaled(true)
                    .bindMemoryWindow(remoteWindow, remoteRkey, exposed, 0, 4096,
                            EnumSet.of(AccessFlag.REMOTE_READ))).complete();
            CompletionWaiter.awaitSuccess(pair.secondQueue(), wc);
            assertEquals(CompletionOpcode.BIND_MW, wc.opcode(0));
            assertEquals(remoteRkey, remoteWindow.rkey(), "the window reports the rkey its batch bound");
            SendWorkRequest read = SendWorkRequest.allocate(arena, 1).wrId(11).signaled(true)
                    .opcode(WorkRequestOpcode.RDMA_READ).sge(sink, 0, 1024).rdma(exposed.iova() + 1024, remoteRkey);
            batchA.start().add(read).complete();
            CompletionWaiter.awaitSuccess(pair.firstQueue(), wc);
            assertEquals(-1L, sink.memory().asSlice(0, 1024).mismatch(exposedMemory.asSlice(1024, 1024)));

            // A binds window 2 and invalidates it locally, in one batch.
            MemoryWindow localWindow = pd.allocateMemoryWindow(MemoryWindowType.TYPE_2);
            int localRkey = MemoryWindow.incrementRkey(localWindow.rkey());
            batchA.start().add(SendWorkRequest.allocate(arena, 1).wrId(14).signaled(true)
                            .bindMemoryWindow(localWindow, localRkey, exposed, 0, 4096, EnumSet.of(AccessFlag.REMOTE_READ)))
                    .add(SendWorkRequest.allocate(arena, 1).wrId(15).signaled(true)
                            .opcode(WorkRequestOpcode.LOCAL_INV).invalidateRkey(localRkey))
                    .complete();
            CompletionWaiter.await(pair.firstQueue(), wc, 2, CompletionWaiter.DEFAULT_TIMEOUT);
            assertEquals(CompletionStatus.SUCCESS, wc.status(0), "BIND_MW");
            assertEquals(CompletionOpcode.BIND_MW, wc.opcode(0));
            assertEquals(CompletionStatus.SUCCESS, wc.status(1), "LOCAL_INV");
            assertEquals(CompletionOpcode.LOCAL_INV, wc.opcode(1));
            assertFalse(localWindow.isBound(), "bound and invalidated in one batch: free");

            // One window bound twice in a batch, by one request named twice or by two requests:
            // refused before the device, nothing posted, the window still free.
            SendWorkRequest bindTwice = SendWorkRequest.allocate(arena, 1).wrId(17).signaled(true)
                    .bindMemoryWindow(localWindow, MemoryWindow.incrementRkey(localRkey), exposed, 0, 4096,
                            EnumSet.of(AccessFlag.REMOTE_READ));
            IllegalStateException twice = assertThrows(IllegalStateException.class,
                    () -> batchA.start().add(bindTwice).add(bindTwice).complete());
            assertTrue(twice.getMessage().startsWith("ibv_wr_complete: wr_id=17: the batch names this BIND_MW request twice"),
                    twice.getMessage());
            SendWorkRequest bindAgain = SendWorkRequest.allocate(arena, 1).wrId(18).signaled(true)
                    .bindMemoryWindow(localWindow, MemoryWindow.incrementRkey(localRkey), exposed, 0, 2048,
                            EnumSet.of(AccessFlag.REMOTE_READ));
            IllegalStateException two = assertThrows(IllegalStateException.class,
                    () -> batchA.start().add(bindTwice).add(bindAgain).complete());
            assertTrue(two.getMessage().startsWith("ibv_post_send: wr_id=18: BIND_MW names " + localWindow), two.getMessage());
            assertFalse(localWindow.isBound(), "the refused batches bound nothing");
            assertEquals(0, pair.firstQueue().poll(wc), "the refused batches posted nothing");

            // A's SEND_WITH_INV invalidates B's window 1: A's next read through it fails remotely.
            PostSendOpcodesDeviceTest.sendWithInvalidate(pair, arena, wc, 12, 13, remoteRkey, sink,
                    wr -> batchA.start().add(wr).complete(), "SendBatchDeviceTest");
            batchA.start().add(read.wrId(16)).complete();
            CompletionWaiter.await(pair.firstQueue(), wc, 1, CompletionWaiter.DEFAULT_TIMEOUT);
            assertEquals(16, wc.wrId(0));
            assertEquals(CompletionStatus.REM_ACCESS_ERR, wc.status(0), "a read through the window SEND_WITH_INV invalidated");
        }
    }

    /**
     * A peer's SEND_WITH_INV frees a type 2 window only when its receive completion is handed to
     * {@code invalidatedByPeer}: until then a rebind is refused; afterwards it binds and reads.
     */
    @DeviceTest
    void aWindowThePeerInvalidatedIsBoundAgainOnceItsCompletionSaysSo(TestDevice device) {
        Set<WorkRequestOpcode> operations = EnumSet.of(WorkRequestOpcode.BIND_MW, WorkRequestOpcode.SEND_WITH_INV,
                WorkRequestOpcode.RDMA_READ);
        try (RcLoopbackPair pair = RcLoopbackPair.openExtended(device, 0, operations);
                Arena arena = Arena.ofConfined()) {
            ProtectionDomain pd = pair.protectionDomain();
            MemoryRegion exposed = PostSendOpcodesDeviceTest.windowTarget(pd, arena, 3, 9);
            MemoryRegion sink = pair.firstBuffer().region();
            Completions wc = Completions.allocate(arena, 4);
            SendBatch batchA = SendBatch.allocate(pair.first(), 4);
            SendBatch batchB = SendBatch.allocate(pair.second(), 4);
            MemoryWindow window = pd.allocateMemoryWindow(MemoryWindowType.TYPE_2);
            assertFalse(window.isBound());
            int rkey = MemoryWindow.incrementRkey(window.rkey());
            SendWorkRequest bind = SendWorkRequest.allocate(arena, 1).wrId(20).signaled(true)
                    .bindMemoryWindow(window, rkey, exposed, 0, 4096, EnumSet.of(AccessFlag.REMOTE_READ));
            batchB.start().add(bind).complete();
            CompletionWaiter.awaitSuccess(pair.secondQueue(), wc);
            assertTrue(window.isBound());
            IllegalArgumentException notAnInvalidation = assertThrows(IllegalArgumentException.class,
                    () -> window.invalidatedByPeer(wc, 0));
            assertTrue(notAnInvalidation.getMessage().contains("did not invalidate " + window + ": it is not a receive"),
                    notAnInvalidation.getMessage());

            PostSendOpcodesDeviceTest.sendWithInvalidate(pair, arena, wc, 21, 22, rkey, sink,
                    wr -> batchA.start().add(wr).complete(), "SendBatchDeviceTest");
            assertTrue(window.isBound(), "a received invalidation is not seen until its completion is handed over");
            int secondRkey = MemoryWindow.incrementRkey(rkey);
            bind.bindMemoryWindow(window, secondRkey, exposed, 0, 4096, EnumSet.of(AccessFlag.REMOTE_READ));
            assertThrows(IllegalStateException.class, () -> batchB.start().add(bind).complete());
            window.invalidatedByPeer(wc, 0);
            assertFalse(window.isBound());
            assertThrows(IllegalStateException.class, () -> window.invalidatedByPeer(wc, 0), "only a bound window");

            batchB.start().add(bind.wrId(23)).complete();
            CompletionWaiter.awaitSuccess(pair.secondQueue(), wc);
            assertEquals(23, wc.wrId(0));
            assertEquals(secondRkey, window.rkey());
            batchA.start().add(SendWorkRequest.allocate(arena, 1).wrId(24).signaled(true)
                    .opcode(WorkRequestOpcode.RDMA_READ).sge(sink, 0, 1024).rdma(exposed.iova(), secondRkey)).complete();
            CompletionWaiter.awaitSuccess(pair.firstQueue(), wc);
            assertEquals(-1L, sink.memory().asSlice(0, 1024).mismatch(exposed.memory().asSlice(0, 1024)),
                    "a read through the window bound again");
        }
    }

    /**
     * One request object added four times is posted four times (ibv_wr_* copies it); two threads
     * completing batches of one queue pair that share their request objects both succeed (the
     * batches take turns); a capacity above max_send_wr is refused at allocate.
     */
    @DeviceTest
    void aRequestAddedTwiceAndBatchesOfOneQueuePairFromTwoThreads(TestDevice device) throws Exception {
        try (RcLoopbackPair pair = RcLoopbackPair.openExtended(device, 0, EnumSet.of(WorkRequestOpcode.RDMA_WRITE));
                Arena arena = Arena.ofShared()) {
            QueuePair a = pair.first();
            int maxSendWr = a.capabilities().maxSendWorkRequests();
            IllegalArgumentException tooDeep = assertThrows(IllegalArgumentException.class,
                    () -> SendBatch.allocate(a, maxSendWr + 1));
            assertTrue(tooDeep.getMessage().startsWith("ibv_wr_start: a batch capacity of " + (maxSendWr + 1)
                    + " exceeds the queue pair's max_send_wr " + maxSendWr), tooDeep.getMessage());
            SendBatch.allocate(a, maxSendWr); // the whole queue is fine

            MemoryRegion regionA = pair.firstBuffer().region();
            MemoryRegion regionB = pair.secondBuffer().region();
            pair.firstBuffer().fillPattern(5, 0, 256);
            SendWorkRequest write = SendWorkRequest.allocate(arena, 1).wrId(70).signaled(true)
                    .opcode(WorkRequestOpcode.RDMA_WRITE).sge(regionA, 0, 256).rdma(regionB.iova(), regionB.rkey());
            SendBatch batch = SendBatch.allocate(arena, a, 4);
            batch.start().add(write).add(write).add(write).add(write).complete();
            Completions wc = Completions.allocate(arena, 32);
            CompletionWaiter.await(pair.firstQueue(), wc, 4, CompletionWaiter.DEFAULT_TIMEOUT);
            for (int i = 0; i < 4; i++) {
                assertEquals(CompletionStatus.SUCCESS, wc.status(i), "place " + i);
                assertEquals(70, wc.wrId(i), "place " + i);
            }
            pair.secondBuffer().assertPattern(5, 0, 256);

            // Two threads, one batch each, the same two request objects: 2 x 6 batches of 2 = 24 writes.
            SendWorkRequest other = SendWorkRequest.allocate(arena, 1).wrId(71).signaled(true)
                    .opcode(WorkRequestOpcode.RDMA_WRITE).sge(regionA, 0, 64).rdma(regionB.iova() + 512, regionB.rkey());
            java.util.concurrent.CyclicBarrier go = new java.util.concurrent.CyclicBarrier(2);
            java.util.concurrent.ConcurrentLinkedQueue<Throwable> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
            Thread[] threads = new Thread[2];
            for (int t = 0; t < 2; t++) {
                boolean reversed = t == 1;
                threads[t] = Thread.ofPlatform().start(() -> {
                    SendBatch mine = SendBatch.allocate(arena, a, 2);
                    try {
                        go.await();
                        for (int round = 0; round < 6; round++) {
                            mine.start().add(reversed ? other : write).add(reversed ? write : other).complete();
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
            }
            for (Thread thread : threads) {
                thread.join(120_000);
                assertFalse(thread.isAlive(), "a batch thread hangs");
            }
            assertTrue(failures.isEmpty(), "batches of one queue pair from two threads: " + failures);
            CompletionWaiter.await(pair.firstQueue(), wc, 24, CompletionWaiter.DEFAULT_TIMEOUT);
            for (int i = 0; i < 24; i++) {
                assertEquals(CompletionStatus.SUCCESS, wc.status(i), "write " + i);
            }

            // A queue pair that cannot send refuses the batch before ibv_wr_start, as postSend does.
            a.toReset();
            IllegalStateException reset = assertThrows(IllegalStateException.class,
                    () -> batch.start().add(write).complete());
            assertTrue(reset.getMessage().startsWith("ibv_wr_complete: ") && reset.getMessage().contains("is in RESET"),
                    reset.getMessage());
        }
    }

    /** UD: SEND and SEND_WITH_IMM batches with ibv_wr_set_ud_addr, one entry and an entry list. */
    @DeviceTest
    void udBatchesAddressEachDatagram(TestDevice device) {
        try (UdPair pair = UdPair.openExtended(device,
                EnumSet.of(WorkRequestOpcode.SEND, WorkRequestOpcode.SEND_WITH_IMM));
                Arena arena = Arena.ofConfined()) {
            RegisteredBuffer bufferA = pair.firstBuffer();
            RegisteredBuffer bufferB = pair.secondBuffer();
            bufferA.fillPattern(44, 0, 4096);
            for (int i = 0; i < 3; i++) {
                pair.second().postReceive(ReceiveWorkRequest.allocate(arena, 1).wrId(60 + i)
                        .sge(0, bufferB.region(), 4096L * i, UdPair.GRH_BYTES + 1024));
            }
            SendBatch batch = SendBatch.allocate(arena, pair.first(), 3);
            batch.start();
            for (int i = 0; i < 3; i++) {
                SendWorkRequest r = SendWorkRequest.allocate(arena, 2).wrId(30 + i).signaled(true)
                        .ud(pair.addressHandle(), pair.second().number(), UdPair.QKEY);
                if (i == 1) {
                    r.opcode(WorkRequestOpcode.SEND_WITH_IMM).immediateData(0x0D0D_0001)
                            .sge(0, bufferA.region(), 1024, 256).sge(1, bufferA.region(), 1280, 256);
                } else {
                    r.sge(bufferA.region(), 1024L * i, 512);
                }
                batch.add(r);
            }
            batch.complete();
            Completions wc = Completions.allocate(arena, 4);
            CompletionWaiter.await(pair.firstQueue(), wc, 3, CompletionWaiter.DEFAULT_TIMEOUT);
            for (int i = 0; i < 3; i++) {
                assertEquals(CompletionStatus.SUCCESS, wc.status(i));
                assertEquals(30 + i, wc.wrId(i));
            }
            CompletionWaiter.await(pair.secondQueue(), wc, 3, CompletionWaiter.DEFAULT_TIMEOUT);
            for (int i = 0; i < 3; i++) {
                assertEquals(CompletionStatus.SUCCESS, wc.status(i));
                assertEquals(60 + i, wc.wrId(i));
                assertEquals(UdPair.GRH_BYTES + 512, wc.byteLength(i));
                assertEquals(pair.first().number(), wc.sourceQp(i));
                bufferB.assertSameBytes(4096L * i + UdPair.GRH_BYTES, bufferA, 1024L * i, 512);
            }
            assertEquals(0x0D0D_0001, wc.immediateData(1));
            assertTrue(wc.hasFlag(1, CompletionFlag.WITH_IMM));
        }
    }

    /**
     * ATOMIC_WRITE: where the provider refuses the send_ops_flag, {@code ibv_create_qp_ex} throws
     * VerbsUnsupportedException (EOPNOTSUPP); where it accepts it, the write lands, or (rxe in the
     * project's VM: rdma-core accepts the flag, the kernel's rxe does not execute it) completes
     * with LOC_QP_OP_ERR and leaves the target untouched. Prints which one this device did.
     */
    @DeviceTest
    void atomicWriteLandsOrIsRefused(TestDevice device) {
        RcLoopbackPair pair;
        try {
            pair = RcLoopbackPair.openExtended(device, 0, EnumSet.of(WorkRequestOpcode.ATOMIC_WRITE));
        } catch (VerbsUnsupportedException refused) {
            System.out.println("# SendBatchDeviceTest: " + device.name() + " refuses ATOMIC_WRITE: " + refused.getMessage());
            assertEquals("ibv_create_qp_ex", refused.verb());
            assertEquals(Errno.EOPNOTSUPP, refused.errno());
            return;
        }
        try (pair; Arena arena = Arena.ofConfined()) {
            System.out.println("# SendBatchDeviceTest: " + device.name() + " offers ATOMIC_WRITE");
            RegisteredBuffer bufferA = pair.firstBuffer();
            bufferA.putLong(0, 0x0102_0304_0506_0708L);
            MemoryRegion regionB = pair.secondBuffer().region();
            SendBatch.allocate(pair.first(), 1).start().add(SendWorkRequest.allocate(arena, 1).wrId(1).signaled(true)
                    .opcode(WorkRequestOpcode.ATOMIC_WRITE).sge(bufferA.region(), 0, 8)
                    .rdma(regionB.iova() + 64, regionB.rkey())).complete();
            Completions wc = Completions.allocate(arena, 1);
            CompletionWaiter.await(pair.firstQueue(), wc, 1, CompletionWaiter.DEFAULT_TIMEOUT);
            System.out.println("# SendBatchDeviceTest: ATOMIC_WRITE completed with " + wc.status(0));
            if (wc.isSuccess(0)) {
                assertEquals(0x0102_0304_0506_0708L, pair.secondBuffer().getLong(64));
            } else {
                assertEquals(CompletionStatus.LOC_QP_OP_ERR, wc.status(0));
                assertEquals(0, pair.secondBuffer().getLong(64), "a refused atomic write writes nothing");
            }
        }
    }
}
