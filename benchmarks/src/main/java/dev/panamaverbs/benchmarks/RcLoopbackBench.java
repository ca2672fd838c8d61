package dev.panamaverbs.benchmarks;

import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.ReceiveWorkRequest;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Setup;

/**
 * The core data path on a real device, through the public API only: an RC loopback pair (two
 * queue pairs on one device, connected to each other) driven by {@link QueuePair#postSend},
 * {@link QueuePair#postReceive} and {@link CompletionQueue#poll} on preallocated requests and a
 * preallocated {@link Completions}. One thread plays both sides. Messages are 64 bytes.
 *
 * <ul>
 *   <li>{@link #writeSignaled}: post one signaled RDMA WRITE, busy-poll its completion. On RC a
 *       write completes when the responder's ACK is back: one full round trip plus post/poll.</li>
 *   <li>{@link #writePingPong}: what {@code ib_write_lat} measures. A writes into B's buffer; B
 *       spins on the last word of its buffer until the write has landed, then writes back; A spins
 *       on its own buffer; then both send completions are reaped (perftest's two processes poll
 *       theirs while the other side answers; one thread polls them after the round trip).
 *       Reported per one-way write (two per invocation), i.e. round trip / 2, as perftest
 *       reports it.</li>
 *   <li>{@link #sendPingPong}: what {@code ib_send_lat} measures. A SENDs to B, B busy-polls its
 *       CQ for the receive completion, reposts the receive, SENDs back; A does the same.
 *       Reported per one-way message (round trip / 2).</li>
 *   <li>{@link #writeBatch16}: 16 RDMA WRITEs chained through {@code next}, unsignaled but the
 *       last, posted with one {@code ibv_post_send}, then polled until the last completes.
 *       Reported per work request (invocation / 16): comparable to 1 / message rate of
 *       {@code ib_write_bw -s 64 -l 16 -t 16 --cq-mod 16}.</li>
 * </ul>
 *
 * Allocation: after measuring, {@link #tearDown} runs the benchmark's method a few thousand times
 * more while counting the bytes this thread allocates ({@code ThreadMXBean}); it prints
 * {@code # allocation check: ... 0 bytes ...}. JMH's {@code -prof gc} counts every thread of the
 * JVM, JMH's sample buffers included, so with operations of microseconds it shows a few B/op of
 * noise in sample-time mode (use {@code -bm avgt -prof gc} to see it near 0 there). Without an RDMA device the
 * setup fails with a message saying so ({@code ./verbs bench} leaves these benchmarks out on such
 * a host; {@code ./verbs bench --vm} runs them on SoftRoCE). Sample-time mode: the score is the
 * mean, the percentiles (p0.50 is perftest's "typical") come with it.
 */
public class RcLoopbackBench extends LoopbackBench {
    private static final int RECEIVES_POSTED = 16;
    /** Invocations of the allocation check after the measurement (a quarter of it for the batch). */
    private static final int ALLOCATION_CHECK_INVOCATIONS = 4000;

    // Buffer layout (both sides): each benchmark uses its own 64-byte slots.
    private static final long PING_SOURCE = 0;
    private static final long PING_TARGET = 64;
    private static final long SIGNALED_SOURCE = 128;
    private static final long SIGNALED_TARGET = 192;
    private static final long SEND_SOURCE = 256;
    private static final long RECEIVE_TARGET = 320;
    private static final long BATCH_AREA = 1024;
    /** The 8-byte word a ping-pong write carries its sequence number in (its last word). */
    private static final long SEQUENCE_WORD = SIZE - Long.BYTES;

    private static final long WR_PING_A = 1;
    private static final long WR_PING_B = 2;
    private static final long WR_SIGNALED = 3;
    private static final long WR_SEND_A = 4;
    private static final long WR_SEND_B = 5;
    private static final long WR_RECEIVE_A = 6;
    private static final long WR_RECEIVE_B = 7;
    private static final long WR_BATCH = 100;
    private static final long WR_BATCH_LAST = WR_BATCH + BATCH - 1;

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final int RECV = CompletionOpcode.RECV.value();

    private MemorySegment memoryA;
    private MemorySegment memoryB;
    private SendWorkRequest pingA;
    private SendWorkRequest pingB;
    private SendWorkRequest signaled;
    private SendWorkRequest sendA;
    private SendWorkRequest sendB;
    private ReceiveWorkRequest receiveA;
    private ReceiveWorkRequest receiveB;
    private SendWorkRequest batch;
    private long sequence;

    @Setup(Level.Trial)
    public void setUp() {
        openPair(Set.of(), BATCH);
        memoryA = pair.bufferA().memory();
        memoryB = pair.bufferB().memory();
        MemoryRegion a = pair.bufferA();
        MemoryRegion b = pair.bufferB();

        pingA = write(WR_PING_A, a, PING_SOURCE, b, PING_TARGET).signaled(true);
        pingB = write(WR_PING_B, b, PING_SOURCE, a, PING_TARGET).signaled(true);
        signaled = write(WR_SIGNALED, a, SIGNALED_SOURCE, b, SIGNALED_TARGET).signaled(true);

        sendA = SendWorkRequest.allocate(arena, 1).wrId(WR_SEND_A).opcode(WorkRequestOpcode.SEND)
                .sge(a, SEND_SOURCE, SIZE).signaled(true);
        sendB = SendWorkRequest.allocate(arena, 1).wrId(WR_SEND_B).opcode(WorkRequestOpcode.SEND)
                .sge(b, SEND_SOURCE, SIZE).signaled(true);
        receiveA = ReceiveWorkRequest.allocate(arena, 1).wrId(WR_RECEIVE_A).sge(0, a, RECEIVE_TARGET, SIZE);
        receiveB = ReceiveWorkRequest.allocate(arena, 1).wrId(WR_RECEIVE_B).sge(0, b, RECEIVE_TARGET, SIZE);
        for (int i = 0; i < RECEIVES_POSTED; i++) {
            pair.a().postReceive(receiveA);
            pair.b().postReceive(receiveB);
        }

        SendWorkRequest next = null;
        for (int i = BATCH - 1; i >= 0; i--) {
            long offset = BATCH_AREA + (long) i * SIZE;
            SendWorkRequest request = write(WR_BATCH + i, a, offset, b, offset).signaled(i == BATCH - 1);
            next = request.next(next);
        }
        batch = next;

        // One checked exchange before measuring: data really moves, the setup is right.
        memoryA.asSlice(SIGNALED_SOURCE, SIZE).fill((byte) 0x5A);
        writeSignaled();
        if (memoryB.get(ValueLayout.JAVA_BYTE, SIGNALED_TARGET + SIZE - 1) != 0x5A) {
            throw new IllegalStateException("the RDMA WRITE completed but its data did not arrive in B's buffer");
        }
    }

    private SendWorkRequest write(long wrId, MemoryRegion from, long fromOffset, MemoryRegion to, long toOffset) {
        return SendWorkRequest.allocate(arena, 1).wrId(wrId).opcode(WorkRequestOpcode.RDMA_WRITE)
                .sge(from, fromOffset, SIZE).rdma(to.addressAt(toOffset, SIZE), to.rkey());
    }

    @Override
    void checkAllocation(String method) throws InterruptedException {
        ThreadAllocation.Invocation invocation = switch (method) {
            case "writeSignaled" -> this::writeSignaled;
            case "writePingPong" -> this::writePingPong;
            case "sendPingPong" -> this::sendPingPong;
            case "writeBatch16" -> this::writeBatch16;
            default -> null;
        };
        if (invocation == null) {
            return;
        }
        int invocations = method.equals("writeBatch16") ? ALLOCATION_CHECK_INVOCATIONS / 4 : ALLOCATION_CHECK_INVOCATIONS;
        ThreadAllocation.report(method, ThreadAllocation.allocatedIn(invocations, invocation), invocations);
    }

    /** (a) One signaled 64-byte RDMA WRITE A -> B: post, then busy-poll A's CQ for its completion. */
    @Benchmark
    public long writeSignaled() {
        pair.a().postSend(signaled);
        LoopbackPair.pollSome(pair.queueA(), completions, TIMEOUT_NANOS);
        return completions.wrId(0);
    }

    /** {@code ib_write_lat}'s loop on one thread: 64-byte RDMA WRITE A -> B, then B -> A; per one-way write. */
    @Benchmark
    @OperationsPerInvocation(2)
    public long writePingPong() {
        long seq = ++sequence;
        LONG.setVolatile(memoryA, PING_SOURCE + SEQUENCE_WORD, seq);
        pair.a().postSend(pingA);
        awaitWord(memoryB, PING_TARGET + SEQUENCE_WORD, seq);
        LONG.setVolatile(memoryB, PING_SOURCE + SEQUENCE_WORD, seq);
        pair.b().postSend(pingB);
        awaitWord(memoryA, PING_TARGET + SEQUENCE_WORD, seq);
        // Each side's send completion, reaped after the round trip: in ib_write_lat the other
        // process answers while this one polls its CQ; one thread cannot, so it polls afterwards.
        LoopbackPair.pollSome(pair.queueA(), completions, TIMEOUT_NANOS);
        LoopbackPair.pollSome(pair.queueB(), completions, TIMEOUT_NANOS);
        return seq;
    }

    /** {@code ib_send_lat}'s loop on one thread: 64-byte SEND A -> B, receive reposted, SEND B -> A; per one-way message. */
    @Benchmark
    @OperationsPerInvocation(2)
    public int sendPingPong() {
        pair.a().postSend(sendA);
        awaitReceive(pair.queueB());
        pair.b().postReceive(receiveB);
        pair.b().postSend(sendB);
        int length = awaitReceive(pair.queueA());
        pair.a().postReceive(receiveA);
        return length;
    }

    /** (c) 16 chained 64-byte RDMA WRITEs, only the last signaled, one post, poll to the last completion; per work request. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long writeBatch16() {
        pair.a().postSend(batch);
        LoopbackPair.awaitWrId(pair.queueA(), completions, WR_BATCH_LAST, TIMEOUT_NANOS);
        return WR_BATCH_LAST;
    }

    /**
     * Polls {@code queue} until a receive completion arrives; send completions of the same side
     * (they share the CQ) are consumed on the way. Returns the received byte count.
     */
    private int awaitReceive(CompletionQueue queue) {
        while (true) {
            int n = LoopbackPair.pollSome(queue, completions, TIMEOUT_NANOS);
            int received = -1;
            for (int i = 0; i < n; i++) {
                if (completions.opcodeValue(i) == RECV) {
                    received = completions.byteLength(i);
                }
            }
            if (received >= 0) {
                return received;
            }
        }
    }

    /** Spins until the 8-byte word at {@code offset} holds {@code expected} (the remote write landed). */
    private static void awaitWord(MemorySegment memory, long offset, long expected) {
        if ((long) LONG.getVolatile(memory, offset) == expected) {
            return;
        }
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        int spins = 0;
        while ((long) LONG.getVolatile(memory, offset) != expected) {
            if ((++spins & 0xFFF) == 0 && System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the RDMA WRITE with sequence " + expected + " did not land within "
                        + TimeUnit.NANOSECONDS.toMillis(TIMEOUT_NANOS) + " ms");
            }
            Thread.onSpinWait();
        }
    }
}
