package dev.panamaverbs.benchmarks;

import dev.panamaverbs.Completions;
import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.foreign.Arena;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * What the device benchmarks on a {@link LoopbackPair} share ({@link RcLoopbackBench},
 * {@link SendBatchBench}, {@link OneSidedBench}): JMH's settings (sample time in microseconds,
 * 5 × 2 s of warm-up and of measurement, one fork), the pair with its buffers, an arena with
 * the {@link Completions} the methods poll into, and the tear-down: after measuring, the
 * allocation check of the measured method ({@link #checkAllocation}), then everything closed.
 * Each subclass opens its pair in its own {@code @Setup} ({@link #openPair}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 2, timeUnit = TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public abstract class LoopbackBench {
    /** Message size, as perftest's {@code -s 64}. */
    static final int SIZE = 64;
    /** Requests in a batch. */
    static final int BATCH = 16;
    static final int QUEUE_DEPTH = 64;
    static final int BUFFER_SIZE = 4096;
    static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);

    LoopbackPair pair;
    Arena arena;
    Completions completions;

    /**
     * Opens the pair ({@link #QUEUE_DEPTH} requests deep, {@link #BUFFER_SIZE}-byte buffers),
     * prints it, and allocates the arena and room for {@code completionCapacity} completions.
     */
    final void openPair(Set<WorkRequestOpcode> extendedSendOperations, int completionCapacity) {
        pair = LoopbackPair.open(QUEUE_DEPTH, BUFFER_SIZE, extendedSendOperations);
        System.out.println("# device: " + pair);
        arena = Arena.ofConfined();
        completions = Completions.allocate(arena, completionCapacity);
    }

    /**
     * After the measurement: {@link #report}, the allocation check (the benchmark's method again,
     * on this thread, counting this thread's allocated bytes) when {@link #isOpen}, then
     * {@link #close}.
     */
    @TearDown(Level.Trial)
    public void tearDown(BenchmarkParams params) throws InterruptedException {
        try {
            report();
            if (isOpen() && ThreadAllocation.isSupported()) {
                String benchmark = params.getBenchmark();
                checkAllocation(benchmark.substring(benchmark.lastIndexOf('.') + 1));
            }
        } finally {
            close();
        }
    }

    /** Runs {@code method} (the benchmark's simple name) again while counting, and reports the bytes. */
    abstract void checkAllocation(String method) throws InterruptedException;

    /** What the tear-down prints first; nothing here. */
    void report() {}

    /** Whether the set-up went far enough for the allocation check: the pair is open. */
    boolean isOpen() {
        return pair != null;
    }

    /** Closes the pair, then the arena (those that were opened). */
    void close() {
        if (pair != null) {
            pair.close();
        }
        if (arena != null) {
            arena.close();
        }
    }
}
