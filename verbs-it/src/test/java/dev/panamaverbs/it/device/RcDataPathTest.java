package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.values.CompletionFlag;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.testkit.CompletionWaiter;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.RegisteredBuffer;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** RC (and UC) loopback on one device: every operation verified byte for byte. */
class RcDataPathTest {

    @DeviceTest
    void sendLandsInThePostedReceive(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            Completions wc = pair.completions();
            pair.firstBuffer().fillPattern(1, 0, 4096);
            pair.second().postReceive(ReceiveWorkRequest.allocate(1).wrId(70).sge(0, pair.secondBuffer().region(), 0, 4096));
            pair.first().postSend(SendWorkRequest.allocate(1).wrId(7).opcode(WorkRequestOpcode.SEND).signaled(true)
                    .sge(pair.firstBuffer().region(), 0, 4096));

            CompletionWaiter.awaitSuccess(pair.firstQueue(), wc);
            assertEquals(7, wc.wrId(0));
            assertEquals(CompletionOpcode.SEND, wc.opcode(0));
            assertEquals(pair.first().number(), wc.qpNumber(0));
            CompletionWaiter.awaitSuccess(pair.secondQueue(), wc);
            assertEquals(70, wc.wrId(0));
            assertEquals(CompletionOpcode.RECV, wc.opcode(0));
            assertEquals(4096, wc.byteLength(0));
            pair.secondBuffer().assertPattern(1, 0, 4096);
        }
    }

    @DeviceTest
    void sendWithImmediateCarriesTheValue(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            Completions wc = pair.completions();
            pair.firstBuffer().fillPattern(2, 0, 100);
            sendWithImmediate(pair, ReceiveWorkRequest.allocate(2).sge(0, pair.secondBuffer().region(), 0, 50)
                    .sge(1, pair.secondBuffer().region(), 1000, 50), request -> request.immediateData(0x12345678));
            assertEquals(0x12345678, wc.immediateData(0));
            assertEquals(100, wc.byteLength(0));
            // Scattered over two entries: 50 bytes at 0, the next 50 at 1000.
            pair.secondBuffer().assertSameBytes(0, pair.firstBuffer(), 0, 50);
            pair.secondBuffer().assertSameBytes(1000, pair.firstBuffer(), 50, 50);

            // Host order on both sides, as a C peer's htonl/ntohl: the value survives, and the raw
            // field holds the big-endian bytes a C receiver's ntohl turns back into the value.
            sendWithImmediate(pair, ReceiveWorkRequest.allocate(1).sge(0, pair.secondBuffer().region(), 0, 100),
                    request -> request.immediateDataHostOrder(0x12345678));
            assertEquals(0x12345678, wc.immediateDataHostOrder(0));
            assertEquals(java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN
                    ? Integer.reverseBytes(0x12345678) : 0x12345678, wc.immediateData(0));
        }
    }

    /**
     * Posts {@code receive} on the second queue pair and a signaled SEND_WITH_IMM of the first
     * buffer's first 100 bytes on the first, its immediate set by {@code immediate}; waits for
     * both completions (the receive's is entry 0 of the pair's batch, with WITH_IMM).
     */
    private static void sendWithImmediate(RcLoopbackPair pair, ReceiveWorkRequest receive,
                                          java.util.function.UnaryOperator<SendWorkRequest> immediate) {
        Completions wc = pair.completions();
        pair.second().postReceive(receive);
        pair.first().postSend(immediate.apply(SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.SEND_WITH_IMM)
                .signaled(true).sge(pair.firstBuffer().region(), 0, 100)));
        CompletionWaiter.awaitSuccess(pair.firstQueue(), wc);
        CompletionWaiter.awaitSuccess(pair.secondQueue(), wc);
        assertTrue(wc.hasFlag(0, CompletionFlag.WITH_IMM));
    }

    @DeviceTest
    void aPairOnTheInjectedContextMovesDataAndLeavesTheContextOpen(Context context, TestDevice device) {
        RcLoopbackPair pair = RcLoopbackPair.open(context, device);
        try (pair) {
            assertSame(context, pair.context());
            pair.firstBuffer().fillPattern(5, 0, 256);
            pair.second().postReceive(ReceiveWorkRequest.allocate(1).wrId(50).sge(0, pair.secondBuffer().region(), 0, 256));
            pair.first().postSend(SendWorkRequest.allocate(1).wrId(5).signaled(true)
                    .sge(pair.firstBuffer().region(), 0, 256));
            CompletionWaiter.awaitSuccess(pair.firstQueue(), pair.completions());
            CompletionWaiter.awaitSuccess(pair.secondQueue(), pair.completions());
            assertEquals(50, pair.completions().wrId(0));
            pair.secondBuffer().assertPattern(5, 0, 256);
        }
        assertTrue(pair.first().isClosed() && pair.second().isClosed(), "the pair's queue pairs are closed");
        assertTrue(pair.firstQueue().isClosed() && pair.secondQueue().isClosed(), "the pair's queues are closed");
        assertTrue(pair.protectionDomain().isClosed(), "the pair's protection domain is closed");
        assertFalse(context.isClosed(), "the injected context stays open for its owner");
        context.allocateProtectionDomain().close();
    }

    @DeviceTest
    void rdmaWriteGathersTwoEntriesIntoTheRemoteRange(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            RegisteredBuffer local = pair.firstBuffer().fillPattern(3);
            RegisteredBuffer remote = pair.secondBuffer().fill((byte) 0);
            postOnFirstAndAwait(pair, CompletionOpcode.RDMA_WRITE, SendWorkRequest.allocate(2).wrId(11)
                    .opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                    .sge(0, local.region(), 0, 4096).sge(1, local.region(), 4096, 4096)
                    .rdma(remote.deviceAddress(1000), remote.region().rkey()));
            remote.assertSameBytes(1000, local, 0, 8192);
            remote.assertFilled((byte) 0, 0, 1000);
            remote.assertFilled((byte) 0, 9192, 100);
        }
    }

    @DeviceTest
    void rdmaReadFetchesTheRemoteRange(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            RegisteredBuffer local = pair.firstBuffer().fill((byte) 0);
            RegisteredBuffer remote = pair.secondBuffer().fillPattern(4);
            postOnFirstAndAwait(pair, CompletionOpcode.RDMA_READ, SendWorkRequest.allocate(1).wrId(12)
                    .opcode(WorkRequestOpcode.RDMA_READ).signaled(true).sge(local.region(), 64, 20000)
                    .rdma(remote.deviceAddress(0), remote.region().rkey()));
            local.assertPattern(4, 64, 20000);
            local.assertFilled((byte) 0, 0, 64);
        }
    }

    @DeviceTest
    void atomicsFetchAddAndCompareSwapThe64BitWord(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            DeviceCapability.ATOMICS.require(pair.context());
            RegisteredBuffer remote = pair.secondBuffer();
            RegisteredBuffer local = pair.firstBuffer();
            Completions wc = pair.completions();
            remote.putLong(64, 100);
            SendWorkRequest atomic = SendWorkRequest.allocate(1).signaled(true).sge(local.region(), 0, 8);
            long remoteWord = remote.deviceAddress(64);
            int rkey = remote.region().rkey();

            pair.first().postSend(atomic.wrId(1).atomicFetchAndAdd(remoteWord, rkey, 5));
            CompletionWaiter.awaitSuccess(pair.firstQueue(), wc);
            assertEquals(CompletionOpcode.FETCH_ADD, wc.opcode(0));
            assertEquals(100, local.getLong(0), "fetch-and-add returns the old value");
            assertEquals(105, remote.getLong(64));

            pair.first().postSend(atomic.wrId(2).atomicCompareAndSwap(remoteWord, rkey, 105, 7));
            CompletionWaiter.awaitSuccess(pair.firstQueue(), wc);
            assertEquals(CompletionOpcode.COMP_SWAP, wc.opcode(0));
            assertEquals(105, local.getLong(0));
            assertEquals(7, remote.getLong(64));

            pair.first().postSend(atomic.wrId(3).atomicCompareAndSwap(remoteWord, rkey, 999, 1));
            CompletionWaiter.awaitSuccess(pair.firstQueue(), wc);
            assertEquals(7, local.getLong(0), "a failed compare still returns the current value");
            assertEquals(7, remote.getLong(64), "a failed compare leaves the word alone");

            assertThrows(IllegalArgumentException.class, () -> atomic.atomicFetchAndAdd(remoteWord + 4, rkey, 1));
            atomic.sge(local.region(), 0, 16);
            IllegalArgumentException size = assertThrows(IllegalArgumentException.class,
                    () -> pair.first().postSend(atomic.atomicFetchAndAdd(remoteWord, rkey, 1)));
            assertTrue(size.getMessage().startsWith("ibv_post_send"), size.getMessage());
        }
    }

    @DeviceTest
    void inlineSendNeedsNoRegisteredMemory(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device, QueuePairType.RC, RcLoopbackPair.DEFAULT_BUFFER_SIZE, 64);
             Arena arena = Arena.ofConfined()) {
            int maxInline = pair.first().capabilities().maxInlineData();
            assertTrue(maxInline >= 64, "granted max_inline_data " + maxInline);
            MemorySegment data = arena.allocate(48);
            for (int i = 0; i < 48; i++) {
                data.set(ValueLayout.JAVA_BYTE, i, RegisteredBuffer.patternByte(5, i));
            }
            pair.second().postReceive(ReceiveWorkRequest.allocate(1).sge(0, pair.secondBuffer().region(), 0, 256));
            SendWorkRequest send = SendWorkRequest.allocate(arena, 1).signaled(true).inlineData(data);
            pair.first().postSend(send);
            data.fill((byte) 0); // inline data was copied at post time
            CompletionWaiter.awaitSuccess(pair.firstQueue(), pair.completions());
            CompletionWaiter.awaitSuccess(pair.secondQueue(), pair.completions());
            assertEquals(48, pair.completions().byteLength(0));
            pair.secondBuffer().assertPattern(5, 0, 48);

            SendWorkRequest tooLong = SendWorkRequest.allocate(arena, 1).inlineData(arena.allocate(maxInline + 1));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pair.first().postSend(tooLong));
            assertTrue(e.getMessage().contains("max_inline_data"), e.getMessage());
        }
    }

    @DeviceTest
    void chainedWritesArePostedInOneCall(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            RegisteredBuffer local = pair.firstBuffer().fillPattern(6);
            RegisteredBuffer remote = pair.secondBuffer().fill((byte) 0);
            SendWorkRequest[] chain = new SendWorkRequest[3];
            for (int i = 0; i < 3; i++) {
                chain[i] = SendWorkRequest.allocate(1).wrId(100 + i).opcode(WorkRequestOpcode.RDMA_WRITE)
                        .sge(local.region(), i * 1024L, 1024).rdma(remote.deviceAddress(i * 2048L), remote.region().rkey());
            }
            chain[0].next(chain[1]);
            chain[1].next(chain[2]);
            chain[2].signaled(true); // RC completes in order: the last completion covers all three
            pair.first().postSend(chain[0]);
            CompletionWaiter.awaitSuccess(pair.firstQueue(), pair.completions());
            assertEquals(102, pair.completions().wrId(0));
            for (int i = 0; i < 3; i++) {
                remote.assertSameBytes(i * 2048L, local, i * 1024L, 1024);
                remote.assertFilled((byte) 0, i * 2048L + 1024, 1024);
            }
        }
    }

    @DeviceTest
    void operationsTheTransportLacksAreRefusedAtPost(TestDevice device) {
        try (RcLoopbackPair uc = RcLoopbackPair.open(device, QueuePairType.UC, 4096, 0)) {
            RegisteredBuffer remote = uc.secondBuffer();
            SendWorkRequest read = SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.RDMA_READ)
                    .sge(uc.firstBuffer().region(), 0, 8).rdma(remote.deviceAddress(0), remote.region().rkey());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> uc.first().postSend(read));
            assertTrue(e.getMessage().contains("RDMA_READ is not a UC operation"), e.getMessage());
            SendWorkRequest atomic = SendWorkRequest.allocate(1).sge(uc.firstBuffer().region(), 0, 8)
                    .atomicFetchAndAdd(remote.deviceAddress(0), remote.region().rkey(), 1);
            assertThrows(IllegalArgumentException.class, () -> uc.first().postSend(atomic));
        }
    }

    @DeviceTest
    void ucSendAndWriteWork(TestDevice device) {
        try (RcLoopbackPair uc = RcLoopbackPair.open(device, QueuePairType.UC, 8192, 0)) {
            uc.firstBuffer().fillPattern(8);
            uc.second().postReceive(ReceiveWorkRequest.allocate(1).sge(0, uc.secondBuffer().region(), 0, 512));
            uc.first().postSend(SendWorkRequest.allocate(1).signaled(true).sge(uc.firstBuffer().region(), 0, 512));
            CompletionWaiter.awaitSuccess(uc.firstQueue(), uc.completions());
            CompletionWaiter.awaitSuccess(uc.secondQueue(), uc.completions());
            uc.secondBuffer().assertPattern(8, 0, 512);

            uc.first().postSend(SendWorkRequest.allocate(1).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                    .sge(uc.firstBuffer().region(), 512, 2048)
                    .rdma(uc.secondBuffer().deviceAddress(4096), uc.secondBuffer().region().rkey()));
            CompletionWaiter.awaitSuccess(uc.firstQueue(), uc.completions());
            uc.secondBuffer().assertSameBytes(4096, uc.firstBuffer(), 512, 2048);
        }
    }

    @DeviceTest
    void aRefusedPostNamesTheRequest(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            // One chain longer than the send queue: every request passes the Java checks, the
            // provider itself refuses the first one that does not fit (ENOMEM, queue full).
            int capacity = pair.first().capabilities().maxSendWorkRequests();
            SendWorkRequest head = null;
            for (int i = 4 * capacity + 4; i >= 0; i--) { // room for a provider rounding the queue up
                head = SendWorkRequest.allocate(1).wrId(1000 + i).opcode(WorkRequestOpcode.RDMA_WRITE)
                        .sge(pair.firstBuffer().region(), 0, 8)
                        .rdma(pair.secondBuffer().deviceAddress(0), pair.secondBuffer().region().rkey())
                        .next(head);
            }
            SendWorkRequest chain = head;
            VerbsException e = assertThrows(VerbsException.class, () -> pair.first().postSend(chain));
            assertEquals("ibv_post_send", e.verb());
            assertEquals(Errno.ENOMEM, e.errno());
            java.util.regex.Matcher named = java.util.regex.Pattern
                    .compile("bad_wr wr_id=(\\d+) \\(request (\\d+) of the chain\\)").matcher(e.getMessage());
            assertTrue(named.find(), e.getMessage());
            int position = Integer.parseInt(named.group(2));
            assertEquals(1000 + position, Long.parseLong(named.group(1)), e.getMessage());
            assertTrue(position >= capacity, "refused inside the queue's capacity " + capacity + ": " + e.getMessage());
        }
    }

    @DeviceTest
    void postingOnAClosedQueuePairIsAnIllegalState(TestDevice device) {
        try (RcLoopbackPair pair = RcLoopbackPair.open(device)) {
            SendWorkRequest send = SendWorkRequest.allocate(1).sge(pair.firstBuffer().region(), 0, 8);
            pair.firstQueue().close(); // closes the first queue pair with it
            assertTrue(pair.first().isClosed());
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> pair.first().postSend(send));
            assertTrue(e.getMessage().contains("QueuePair"), e.getMessage());
            assertThrows(IllegalStateException.class,
                    () -> pair.first().postReceive(ReceiveWorkRequest.allocate(1)));
        }
    }

    /** Posts {@code request} on the pair's first QP, waits for its one successful completion, checks its opcode. */
    private static void postOnFirstAndAwait(RcLoopbackPair pair, CompletionOpcode opcode, SendWorkRequest request) {
        pair.first().postSend(request);
        CompletionWaiter.awaitSuccess(pair.firstQueue(), pair.completions());
        assertEquals(opcode, pair.completions().opcode(0));
    }
}
