package dev.panamaverbs.examples;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.values.PortAttributes;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.QueuePairOptions;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.values.RemoteEndpoint;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Set;

/**
 * Two RC queue pairs on one port, connected to each other (the loopback perftest uses too), and
 * the four kinds of RC traffic between them, each checked byte for byte. Everything is created
 * under the caller's {@link Context}; closing it destroys all of it.
 */
final class LoopbackExchange {
    private static final int PSN = 0x1234;
    private static final int SIZE = 4096;
    private static final int LATENCY_ROUNDS = 1000;
    private static final Set<AccessFlag> ACCESS = EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE,
            AccessFlag.REMOTE_READ, AccessFlag.REMOTE_ATOMIC);

    private final PrintStream out;
    private final CompletionQueue cqA;
    private final CompletionQueue cqB;
    private final QueuePair a;
    private final QueuePair b;
    private final MemoryRegion bufferA;
    private final MemoryRegion bufferB;
    private final Completions completions;
    private final SendWorkRequest send;
    private final ReceiveWorkRequest receive;

    private LoopbackExchange(Context context, int port, Arena arena, PrintStream out) {
        this.out = out;
        ProtectionDomain pd = context.allocateProtectionDomain();
        cqA = context.createCompletionQueue(64);
        cqB = context.createCompletionQueue(64);
        a = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cqA).build());
        b = pd.createQueuePair(QueuePairOptions.builder(QueuePairType.RC, cqB).build());
        bufferA = pd.allocateMemoryRegion(SIZE, ACCESS);
        bufferB = pd.allocateMemoryRegion(SIZE, ACCESS);
        completions = Completions.allocate(arena, 16);
        send = SendWorkRequest.allocate(arena, 1);
        receive = ReceiveWorkRequest.allocate(arena, 1);
        connect(context, port);
    }

    /** Connects two QPs on {@code port} of {@code context} and runs the exchange, printing each step. */
    static void run(Context context, int port, PrintStream out) {
        try (Arena arena = Arena.ofConfined()) {
            LoopbackExchange exchange = new LoopbackExchange(context, port, arena, out);
            exchange.sendAndReceive();
            exchange.rdmaWrite();
            exchange.rdmaRead();
            exchange.atomics();
            exchange.writeLatency();
        }
    }

    private void connect(Context context, int port) {
        PortAttributes attributes = context.queryPort(port);
        RemoteEndpoint toA;
        RemoteEndpoint toB;
        if (attributes.grhRequired()) {
            GidEntry gid = context.roceV2Ipv4Gid(port).orElseGet(() -> context.gidTable(port).getFirst());
            out.println("addressing: RoCE, GID " + gid);
            toA = RemoteEndpoint.global(a.number(), PSN, gid.gid(), gid.index(), attributes.activeMtu());
            toB = RemoteEndpoint.global(b.number(), PSN, gid.gid(), gid.index(), attributes.activeMtu());
        } else {
            out.println("addressing: InfiniBand, LID " + attributes.lid());
            toA = RemoteEndpoint.local(a.number(), PSN, attributes.lid(), attributes.activeMtu());
            toB = RemoteEndpoint.local(b.number(), PSN, attributes.lid(), attributes.activeMtu());
        }
        Set<AccessFlag> remoteAccess = EnumSet.of(AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ, AccessFlag.REMOTE_ATOMIC);
        a.toInit(port, 0, remoteAccess);
        b.toInit(port, 0, remoteAccess);
        a.toRtr(toB);
        b.toRtr(toA);
        a.toRts(PSN);
        b.toRts(PSN);
        out.printf("connected: QP %d <-> QP %d, both %s%n", a.number(), b.number(), a.query().state());
    }

    private void sendAndReceive() {
        byte[] message = "hello from panama-verbs".getBytes(StandardCharsets.UTF_8);
        bufferB.memory().fill((byte) 0);
        receive.wrId(1).sge(0, bufferB, 0, SIZE);
        b.postReceive(receive);
        MemorySegment.copy(MemorySegment.ofArray(message), 0, bufferA.memory(), 0, message.length);
        send.wrId(2).opcode(WorkRequestOpcode.SEND).signaled(true).sge(0, bufferA, 0, message.length);
        a.postSend(send);
        awaitOne(cqA, "SEND");
        int received = awaitOne(cqB, "RECV");
        String text = new String(bufferB.memory().asSlice(0, completions.byteLength(received)).toArray(ValueLayout.JAVA_BYTE),
                StandardCharsets.UTF_8);
        check(text.equals("hello from panama-verbs"), "SEND/RECV delivered '" + text + "'");
        out.println("SEND/RECV: B received \"" + text + "\"");
    }

    private void rdmaWrite() {
        for (int i = 0; i < SIZE; i++) {
            bufferA.memory().set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 3));
        }
        bufferB.memory().fill((byte) 0);
        oneSidedBetweenTheBuffers(3, WorkRequestOpcode.RDMA_WRITE, "B's buffer differs from A's",
                SIZE + " bytes from A landed in B's buffer, identical");
    }

    private void rdmaRead() {
        bufferA.memory().fill((byte) 0);
        oneSidedBetweenTheBuffers(4, WorkRequestOpcode.RDMA_READ, "A's buffer differs from B's",
                "A read " + SIZE + " bytes back from B, identical");
    }

    /** A posts one signaled {@code opcode} between its buffer and B's, waits, and checks both buffers are equal. */
    private void oneSidedBetweenTheBuffers(long wrId, WorkRequestOpcode opcode, String differs, String done) {
        String what = opcode == WorkRequestOpcode.RDMA_WRITE ? "RDMA WRITE" : "RDMA READ";
        send.wrId(wrId).opcode(opcode).signaled(true).sge(0, bufferA, 0, SIZE).rdma(bufferB.iova(), bufferB.rkey());
        a.postSend(send);
        awaitOne(cqA, what);
        check(bufferA.memory().mismatch(bufferB.memory()) == -1, what + ": " + differs);
        out.println(what + ": " + done);
    }

    private void atomics() {
        bufferB.memory().set(ValueLayout.JAVA_LONG, 0, 40L);
        send.wrId(5).opcode(WorkRequestOpcode.ATOMIC_FETCH_AND_ADD).signaled(true).sge(0, bufferA, 0, 8)
                .atomicFetchAndAdd(bufferB.iova(), bufferB.rkey(), 2L);
        a.postSend(send);
        awaitOne(cqA, "FETCH_ADD");
        long before = bufferA.memory().get(ValueLayout.JAVA_LONG, 0);
        long after = bufferB.memory().get(ValueLayout.JAVA_LONG, 0);
        check(before == 40 && after == 42, "FETCH_ADD: fetched " + before + ", remote now " + after);
        send.wrId(6).opcode(WorkRequestOpcode.ATOMIC_CMP_AND_SWP).signaled(true).sge(0, bufferA, 0, 8)
                .atomicCompareAndSwap(bufferB.iova(), bufferB.rkey(), 42L, 7L);
        a.postSend(send);
        awaitOne(cqA, "CMP_SWP");
        long swapped = bufferB.memory().get(ValueLayout.JAVA_LONG, 0);
        check(swapped == 7, "CMP_SWP: remote is " + swapped + ", expected 7");
        out.println("atomics: fetch-and-add 40+2 -> 42, compare-and-swap 42 -> 7, both seen in B's memory");
    }

    private void writeLatency() {
        send.wrId(7).opcode(WorkRequestOpcode.RDMA_WRITE).signaled(true).sge(0, bufferA, 0, 64)
                .rdma(bufferB.iova(), bufferB.rkey());
        long start = System.nanoTime();
        for (int i = 0; i < LATENCY_ROUNDS; i++) {
            a.postSend(send);
            awaitOne(cqA, "RDMA WRITE");
        }
        long nanos = System.nanoTime() - start;
        out.printf("64-byte RDMA WRITE post+complete: %.2f us on average over %d rounds%n",
                nanos / 1000.0 / LATENCY_ROUNDS, LATENCY_ROUNDS);
    }

    /** Busy-polls one completion (with a deadline: a lost completion must not hang the demo). */
    private int awaitOne(CompletionQueue cq, String what) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (cq.poll(completions, 1) == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + ": no completion within 30 s");
            }
            Thread.onSpinWait();
        }
        completions.throwIfFailed(0);
        return 0;
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalStateException(message);
        }
    }
}
