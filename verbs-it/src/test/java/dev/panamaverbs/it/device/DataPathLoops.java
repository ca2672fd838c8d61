package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.DeviceScope;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.CompletionField;
import dev.panamaverbs.values.CompletionFlag;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.CompletionQueueOptions;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendBatch;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.SharedReceiveQueue;
import dev.panamaverbs.values.SharedReceiveQueueOptions;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.onesided.OneSidedChannel;
import dev.panamaverbs.onesided.RemoteSlot;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;
import dev.panamaverbs.testkit.UdPair;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The data-path loops {@link DataPathAllocation} measures, each through the public API on its
 * own connected queue pairs, with every request, buffer and completion batch made once: posting
 * (one request, a chain, an entry list, inline data, UD), receiving (queue pair and shared
 * receive queue, chained), polling and reading every completion field (plain and extended
 * completion queue), the extended post API ({@link SendBatch}), and one-sided puts.
 */
final class DataPathLoops implements AutoCloseable {
    /** How many loops there are: the parent checks that each reported. */
    static final int LOOP_COUNT = 9;
    private static final int MESSAGE = 64;
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final long TIMEOUT_NANOS = TIMEOUT.toNanos();

    /** Where the completion fields read go, so no read is dead code. */
    static long sink;

    private final Arena arena = Arena.ofShared();
    private final Map<String, AllocationMeter.Op> loops = new LinkedHashMap<>();
    private final java.util.List<AutoCloseable> fixtures = new java.util.ArrayList<>();

    DataPathLoops(TestDevice device) {
        try {
            rcLoops(device);
            srqAndExtendedCqLoop(device);
            batchLoop(device);
            udLoop(device);
            oneSidedLoops(device);
            if (loops.size() != LOOP_COUNT) {
                throw new IllegalStateException(loops.size() + " loops, LOOP_COUNT says " + LOOP_COUNT);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The loops by name, in the order they run. */
    Map<String, AllocationMeter.Op> loops() {
        return loops;
    }

    // ---- RC: one request, a chain, an entry list; inline SEND with a receive ----

    private void rcLoops(TestDevice device) {
        RcLoopbackPair pair = keep(RcLoopbackPair.open(device, QueuePairType.RC, RcLoopbackPair.DEFAULT_BUFFER_SIZE, MESSAGE));
        QueuePair a = pair.first();
        QueuePair b = pair.second();
        MemoryRegion local = pair.firstBuffer().region();
        MemoryRegion remote = pair.secondBuffer().region();
        long remoteAddress = pair.secondBuffer().deviceAddress(0);
        CompletionQueue cqA = pair.firstQueue();
        CompletionQueue cqB = pair.secondQueue();
        Completions batch = Completions.allocate(arena, 4);

        SendWorkRequest write = write(local, 0, remote, remoteAddress, true);
        int rkey = remote.rkey();
        loops.put("postSend RDMA WRITE (entry and target set each time) + poll", i -> {
            long at = (i & 7) * MESSAGE;
            a.postSend(write.wrId(i).sge(local, at, MESSAGE).rdma(remoteAddress + at, rkey));
            await(cqA, batch, 1);
        });

        SendWorkRequest chainLast = write(local, 2 * MESSAGE, remote, remoteAddress + 2 * MESSAGE, true);
        SendWorkRequest chainHead = write(local, 0, remote, remoteAddress, false)
                .next(write(local, MESSAGE, remote, remoteAddress + MESSAGE, false).next(chainLast));
        loops.put("postSend chain of 3 + poll", i -> {
            chainLast.wrId(i);
            a.postSend(chainHead);
            await(cqA, batch, 1);
        });

        SendWorkRequest list = SendWorkRequest.allocate(arena, 3).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                .sge(0, local, 0, 16).sge(1, local, 256, 16).sge(2, local, 512, 32).rdma(remoteAddress, remote.rkey());
        loops.put("postSend entry list of 3 + poll", i -> {
            a.postSend(list.wrId(i));
            await(cqA, batch, 1);
        });

        MemorySegment inlineBytes = arena.allocate(MESSAGE);
        SendWorkRequest inlineSend = SendWorkRequest.allocate(arena, 1).opcode(WorkRequestOpcode.SEND_WITH_IMM)
                .signaled(true).immediateData(0x0A0B0C0D).inlineData(inlineBytes);
        ReceiveWorkRequest receive = ReceiveWorkRequest.allocate(arena, 1).sge(0, remote, 4096, MESSAGE);
        Completions received = Completions.allocate(arena, 4);
        loops.put("postReceive + inline SEND_WITH_IMM + poll both", i -> {
            b.postReceive(receive.wrId(i));
            a.postSend(inlineSend.wrId(i));
            await(cqA, batch, 1);
            await(cqB, received, 1);
        });
    }

    private SendWorkRequest write(MemoryRegion local, long offset, MemoryRegion remote, long remoteAddress,
            boolean signaled) {
        return SendWorkRequest.allocate(arena, 1).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(signaled)
                .sge(local, offset, MESSAGE).rdma(remoteAddress, remote.rkey());
    }

    // ---- a shared receive queue, chained receives, an extended completion queue ----

    private void srqAndExtendedCqLoop(TestDevice device) {
        Context context = keep(DeviceScope.openContext(device));
        ProtectionDomain pd = context.allocateProtectionDomain();
        CompletionQueue sendCq = context.createCompletionQueue(16);
        CompletionQueue recvCq = context.createCompletionQueue(CompletionQueueOptions.of(16)
                .withFields(EnumSet.of(CompletionField.BYTE_LEN, CompletionField.IMM, CompletionField.QP_NUM)));
        SharedReceiveQueue srq = pd.createSharedReceiveQueue(SharedReceiveQueueOptions.of(16, 1));
        QueuePair sender = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, sendCq, sendCq).build());
        QueuePair receiver = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, sendCq, recvCq)
                .sharedReceiveQueue(srq).build());
        connect(context, device, sender, receiver);
        MemoryRegion sendMr = pd.register(arena.allocate(4096, 4096), EnumSet.of(AccessFlag.LOCAL_WRITE));
        MemoryRegion recvMr = pd.register(arena.allocate(4096, 4096), EnumSet.of(AccessFlag.LOCAL_WRITE));
        ReceiveWorkRequest secondReceive = ReceiveWorkRequest.allocate(arena, 1).sge(0, recvMr, MESSAGE, MESSAGE);
        ReceiveWorkRequest receives = ReceiveWorkRequest.allocate(arena, 1).sge(0, recvMr, 0, MESSAGE).next(secondReceive);
        SendWorkRequest secondSend = SendWorkRequest.allocate(arena, 1).opcode(WorkRequestOpcode.SEND_WITH_IMM)
                .immediateData(7).signaled(true).sge(sendMr, MESSAGE, MESSAGE);
        SendWorkRequest sends = SendWorkRequest.allocate(arena, 1).opcode(WorkRequestOpcode.SEND)
                .sge(sendMr, 0, MESSAGE).next(secondSend);
        Completions sent = Completions.allocate(arena, 4);
        Completions received = Completions.allocate(arena, 4);
        loops.put("SRQ postReceive chain of 2 + SEND chain of 2 + extended CQ poll", i -> {
            srq.postReceive(receives.wrId(i));
            secondReceive.wrId(i + 1);
            postChain(sender, sends, secondSend, i);
            await(sendCq, sent, 1);
            await(recvCq, received, 2);
        });
    }

    private static void postChain(QueuePair qp, SendWorkRequest head, SendWorkRequest last, long i) {
        last.wrId(i);
        qp.postSend(head);
    }

    private static void connect(Context context, TestDevice device, QueuePair first, QueuePair second) {
        DeviceScope.connectLoopback(context, device, first, second);
    }

    // ---- the extended post API ----

    private void batchLoop(TestDevice device) {
        RcLoopbackPair pair = keep(RcLoopbackPair.openExtended(device, MESSAGE,
                EnumSet.of(WorkRequestOpcode.RDMA_WRITE, WorkRequestOpcode.SEND)));
        MemoryRegion local = pair.firstBuffer().region();
        MemoryRegion remote = pair.secondBuffer().region();
        long remoteAddress = pair.secondBuffer().deviceAddress(0);
        SendWorkRequest first = write(local, 0, remote, remoteAddress, false);
        SendWorkRequest second = SendWorkRequest.allocate(arena, 2).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true)
                .sge(0, local, MESSAGE, 16).sge(1, local, 2 * MESSAGE, 16).rdma(remoteAddress + MESSAGE, remote.rkey());
        SendBatch batch = SendBatch.allocate(arena, pair.first(), 4);
        CompletionQueue cq = pair.firstQueue();
        Completions completions = Completions.allocate(arena, 4);
        loops.put("SendBatch of 2 (ibv_wr_*) + poll", i -> {
            batch.start().add(first.wrId(i)).add(second.wrId(i)).complete();
            await(cq, completions, 1);
        });
    }

    // ---- UD ----

    private void udLoop(TestDevice device) {
        UdPair pair = keep(UdPair.open(device));
        MemoryRegion local = pair.firstBuffer().region();
        MemoryRegion remote = pair.secondBuffer().region();
        SendWorkRequest send = SendWorkRequest.allocate(arena, 1).opcode(WorkRequestOpcode.SEND).signaled(true)
                .sge(local, 0, MESSAGE).ud(pair.addressHandle(), pair.second().number(), UdPair.QKEY);
        ReceiveWorkRequest receive = ReceiveWorkRequest.allocate(arena, 1)
                .sge(0, remote, 0, UdPair.GRH_BYTES + MESSAGE);
        Completions sent = Completions.allocate(arena, 4);
        Completions received = Completions.allocate(arena, 4);
        loops.put("UD postReceive + SEND + poll both", i -> {
            pair.second().postReceive(receive.wrId(i));
            pair.first().postSend(send.wrId(i));
            await(pair.firstQueue(), sent, 1);
            await(pair.secondQueue(), received, 1);
        });
    }

    // ---- one-sided ----

    private void oneSidedLoops(TestDevice device) {
        OneSidedSides sides = keep(OneSidedSides.open(device));
        OneSidedChannel sender = sides.sender();
        RemoteSlot slot = sides.remote().slot(8);
        loops.put("OneSidedChannel.put + waitLocal", i -> {
            sender.waitLocal(sender.put(sides.remote(), 4096, sides.source(), 4096, MESSAGE), TIMEOUT);
        });
        loops.put("OneSidedChannel.putWithSignal (unfenced) + waitLocal", i -> {
            sender.waitLocal(sender.putWithSignal(sides.remote(), 4096, sides.source(), 4096, MESSAGE, slot, 1, false),
                    TIMEOUT);
        });
    }

    // ---- polling ----

    /**
     * Polls {@code cq} until {@code count} completions came, reading every field of each (a
     * failed one throws). The deadline is read once per 1024 empty polls.
     */
    static void await(CompletionQueue cq, Completions batch, int count) {
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        int got = 0;
        int empty = 0;
        while (got < count) {
            int n = cq.poll(batch, Math.min(batch.capacity(), count - got));
            for (int k = 0; k < n; k++) {
                read(batch, k);
            }
            got += n;
            if (n == 0 && ++empty % 1024 == 0 && System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("no completion on " + cq + " within " + TIMEOUT);
            }
        }
    }

    private static void read(Completions batch, int k) {
        batch.throwIfFailed(k);
        CompletionOpcode opcode = batch.opcode(k);
        int opcodeOrdinal = opcode == null ? -1 : opcode.ordinal();
        int withImmediate = batch.hasFlag(k, CompletionFlag.WITH_IMM) ? 1 : 0;
        sink += batch.wrId(k) + batch.statusValue(k) + batch.status(k).ordinal() + batch.opcodeValue(k) + opcodeOrdinal
                + batch.byteLength(k) + batch.immediateData(k) + batch.immediateDataHostOrder(k)
                + batch.qpNumber(k) + batch.sourceQp(k) + batch.flags(k) + withImmediate + (batch.isSuccess(k) ? 1 : 0)
                + batch.vendorError(k) + batch.invalidatedRkey(k) + batch.pkeyIndex(k) + batch.slid(k) + batch.sl(k)
                + batch.dlidPathBits(k) + batch.completionTimestamp(k) + batch.completionWallclockNanos(k)
                + batch.flowTag(k);
    }

    private <T extends AutoCloseable> T keep(T fixture) {
        fixtures.add(fixture);
        return fixture;
    }

    @Override
    public void close() {
        for (int i = fixtures.size() - 1; i >= 0; i--) {
            try {
                fixtures.get(i).close();
            } catch (Exception e) {
                e.printStackTrace(System.out);
            }
        }
        arena.close();
    }
}
