package dev.panamaverbs.benchmarks;

import dev.panamaverbs.values.SendFlag;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.onesided.OneSidedChannel;
import dev.panamaverbs.onesided.RemoteSlot;
import dev.panamaverbs.onesided.RemoteWindow;
import dev.panamaverbs.onesided.WaitTimeoutException;
import dev.panamaverbs.onesided.Window;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * {@link OneSidedChannel#putWithSignal} against the same work posted by hand through the core
 * API, on the RC loopback pair of {@link RcLoopbackBench} ({@link LoopbackPair}). Both post the
 * same chain on queue pair A and wait for its completion on A's completion queue: a 64-byte RDMA
 * WRITE (unsignaled) from A's buffer into B's, then an 8-byte atomic fetch-and-add of 1 on a word
 * of B's buffer, signaled, its old value landing in an 8-byte sink; with {@code IBV_SEND_FENCE}
 * on the add when {@link #fence} is true (what {@code putWithSignal} does by default).
 *
 * <ul>
 *   <li>{@link #channelPutWithSignal}: {@code putWithSignal} on a channel over A, then
 *       {@code waitLocal} of its ticket (the channel polls A's queue, and its companion's only
 *       while that has requests in flight: never here);</li>
 *   <li>{@link #channelPutWithSignalPolled}: {@code putWithSignal}, then busy-poll with
 *       {@code progress()} until {@code isComplete(ticket)}: the channel's post path and
 *       bookkeeping with the hand method's polling (no park);</li>
 *   <li>{@link #handPutWithSignal}: the same two requests, preallocated and chained once,
 *       {@code postSend}, then busy-poll A's queue until the add's completion.</li>
 * </ul>
 *
 * The difference is the channel's own work: its range checks and request filling, ticket
 * bookkeeping and its wait loop (spin by time, then park).
 *
 * <p><b>Fenced stalls on one rxe device.</b> Between two queue pairs of one rxe device a fenced
 * request sometimes waits until the next post (README, "One-sided windows"). Both methods treat
 * that alike: when the completion has not come within {@link #STALL_NANOS}, they post one
 * signaled zero-length RDMA WRITE behind it (which runs rxe's requester again), wait on, and
 * count a stall; the tear-down prints the count. Compare medians: a stall costs milliseconds.
 *
 * <p>Allocation: as {@link RcLoopbackBench},
 * after measuring the tear-down runs the method a few thousand times more and prints the bytes
 * the benchmark thread allocated ({@link ThreadAllocation}), after a first pass as long that
 * settles the method in its new caller (printed too).
 */
public class OneSidedBench extends LoopbackBench {
    /** Where the put's bytes come from in A's buffer and land in B's. */
    private static final long DATA = 0;
    /** B's signal word. */
    private static final long SIGNAL = 512;
    /** A's word the hand-posted add's old value lands in. */
    private static final long SINK = 1024;
    /** How long a wait goes before it counts a stall and posts the kick (with {@link #WR_KICK}). */
    static final long STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final Duration STALL = Duration.ofNanos(STALL_NANOS);
    private static final long WR_HAND = 7;
    private static final long WR_KICK = 8;
    private static final int ALLOCATION_CHECK_INVOCATIONS = 4000;
    private static final Duration TIMEOUT = Duration.ofNanos(TIMEOUT_NANOS);

    /** Whether the add carries {@code IBV_SEND_FENCE}. */
    @Param({"true", "false"})
    public boolean fence;

    private OneSidedChannel channel;
    private Window source;
    private RemoteWindow target;
    private RemoteSlot signal;
    private SendWorkRequest handChain;
    private SendWorkRequest handKick;
    private long stalls;
    private long operations;

    @Setup(Level.Trial)
    public void setUp() throws InterruptedException {
        openPair(Set.of(), 16);
        source = Window.of(pair.bufferA());
        Window targetWindow = Window.of(pair.bufferB());
        target = RemoteWindow.open(targetWindow.descriptor());
        signal = target.slot(SIGNAL);
        channel = OneSidedChannel.open(pair.a());

        SendWorkRequest add = SendWorkRequest.allocate(arena, 1).wrId(WR_HAND)
                .opcode(WorkRequestOpcode.ATOMIC_FETCH_AND_ADD).flags(fence ? EnumSet.of(SendFlag.SIGNALED, SendFlag.FENCE) : EnumSet.of(SendFlag.SIGNALED))
                .sge(pair.bufferA(), SINK, Long.BYTES).atomicFetchAndAdd(signal.address(), signal.rkey(), 1);
        handChain = SendWorkRequest.allocate(arena, 1).opcode(WorkRequestOpcode.RDMA_WRITE)
                .flags(EnumSet.noneOf(SendFlag.class)).sge(pair.bufferA(), DATA, SIZE)
                .rdma(target.addressAt(DATA, SIZE), target.descriptor().rkey()).next(add);
        handKick = SendWorkRequest.allocate(arena, 1).wrId(WR_KICK).opcode(WorkRequestOpcode.RDMA_WRITE)
                .flags(EnumSet.of(SendFlag.SIGNALED)).sge(pair.bufferA(), DATA, 0)
                .rdma(target.addressAt(DATA, 0), target.descriptor().rkey());

        // One checked round of each before measuring: the signal word counts both.
        long before = targetWindow.slot(SIGNAL).read();
        channelPutWithSignal();
        handPutWithSignal();
        if (targetWindow.slot(SIGNAL).read() != before + 2) {
            throw new IllegalStateException("the two puts completed but B's signal word did not count both");
        }
    }

    /** The tear-down prints the stalls first. */
    @Override
    void report() {
        System.out.printf("# stalls: %d of %d operations waited more than %d ms for their completion (fence %s)%n",
                stalls, operations, TimeUnit.NANOSECONDS.toMillis(STALL_NANOS), fence);
    }

    /** The allocation check needs the channel. */
    @Override
    boolean isOpen() {
        return channel != null;
    }

    /** The channel first, then the pair and the arena. */
    @Override
    void close() {
        if (channel != null) {
            channel.close();
        }
        super.close();
    }

    /**
     * Two passes of {@link #ALLOCATION_CHECK_INVOCATIONS} on this thread; the second is the check.
     * The first settles the method in its new caller (this tear-down, not JMH's loop): a
     * recompilation or a deoptimization then (which re-allocates the objects the compiler had
     * eliminated, on this thread) is not the data path. Both passes are printed.
     */
    @Override
    void checkAllocation(String method) throws InterruptedException {
        ThreadAllocation.Invocation invocation = switch (method) {
            case "handPutWithSignal" -> this::handPutWithSignal;
            case "channelPutWithSignalPolled" -> this::channelPutWithSignalPolled;
            default -> this::channelPutWithSignal;
        };
        long stallsBefore = stalls;
        System.out.println("# allocation check: settling pass starts");
        long settling = ThreadAllocation.allocatedIn(ALLOCATION_CHECK_INVOCATIONS, invocation);
        System.out.println("# allocation check: settling pass allocated " + settling + " bytes in "
                + ALLOCATION_CHECK_INVOCATIONS + " invocations; counted pass starts");
        long bytes = ThreadAllocation.allocatedIn(ALLOCATION_CHECK_INVOCATIONS, invocation);
        ThreadAllocation.report(method + (fence ? "-fenced" : "-unfenced"), bytes, ALLOCATION_CHECK_INVOCATIONS);
        System.out.println("# stalls during the allocation check: " + (stalls - stallsBefore));
    }

    /** {@code putWithSignal} (64-byte WRITE, add of 1, fenced or not) and {@code waitLocal} of its ticket. */
    @Benchmark
    public long channelPutWithSignal() throws InterruptedException {
        operations++;
        long ticket = channel.putWithSignal(target, DATA, source, DATA, SIZE, signal, 1, fence);
        try {
            channel.waitLocal(ticket, STALL);
        } catch (WaitTimeoutException stalled) {
            stalls++;
            channel.put(target, DATA, source, DATA, 0);
            channel.waitLocal(ticket, TIMEOUT);
        }
        return ticket;
    }

    /** {@code putWithSignal}, then {@code progress()} in a busy loop until {@code isComplete(ticket)}. */
    @Benchmark
    public long channelPutWithSignalPolled() throws InterruptedException {
        operations++;
        long ticket = channel.putWithSignal(target, DATA, source, DATA, SIZE, signal, 1, fence);
        long deadline = System.nanoTime() + STALL_NANOS;
        while (!channel.isComplete(ticket)) {
            if (channel.progress() == 0) {
                if (System.nanoTime() - deadline > 0) {
                    stalls++;
                    channel.put(target, DATA, source, DATA, 0);
                    channel.waitLocal(ticket, TIMEOUT); // bounded, and throws once the channel failed
                    return ticket;
                }
                Thread.onSpinWait();
            }
        }
        return ticket;
    }

    /** The same chain by hand: one {@code postSend}, busy-poll A's queue for the add's completion. */
    @Benchmark
    public long handPutWithSignal() {
        operations++;
        pair.a().postSend(handChain);
        long deadline = System.nanoTime() + STALL_NANOS;
        while (true) {
            int n = pair.queueA().poll(completions);
            for (int i = 0; i < n; i++) {
                completions.throwIfFailed(i);
                if (completions.wrId(i) == WR_HAND) {
                    return WR_HAND;
                }
            }
            if (n == 0 && System.nanoTime() - deadline > 0) {
                stalls++;
                pair.a().postSend(handKick);
                return awaitHand();
            }
            Thread.onSpinWait();
        }
    }

    /** After a stall: polls (bounded) until the add's completion, the kick's on the way. */
    private long awaitHand() {
        LoopbackPair.awaitWrId(pair.queueA(), completions, WR_HAND, TIMEOUT_NANOS);
        return WR_HAND;
    }
}
