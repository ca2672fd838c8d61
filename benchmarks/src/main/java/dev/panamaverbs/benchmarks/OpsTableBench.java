package dev.panamaverbs.benchmarks;

import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_send_wr;
import dev.panamaverbs.ffm.ibv_wc;
import dev.panamaverbs.loader.OpsTable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The data-path invokers of {@link OpsTable} against a fake provider (src/main/c/bench_provider.c,
 * compiled with gcc at setup): the cost of dispatching {@code ibv_post_send} and
 * {@code ibv_poll_cq} through {@code ctx->ops} from Java, the way core does it: each op is
 * resolved once at setup ({@code OpsTable.resolvePostSend(qp)} etc.), as a queue pair or CQ
 * resolves it at creation, and each benchmark call goes through the resolved function. Run with
 * {@code -prof gc}: every benchmark should show 0 B/op.
 *
 * <p>The provider source is found at {@code -Dpanamaverbs.bench.providerSource=...}, else under
 * {@code benchmarks/src/main/c} or {@code src/main/c} of the working directory.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class OpsTableBench {
    private static final int POLL_BATCH = 16;

    private Arena arena;
    private long qp;
    private long cq;
    private long sendWr;
    private long badWr;
    private long wcs;
    private MemorySegment wcArray;
    private MemorySegment postSendFunction;
    private MemorySegment pollCqFunction;
    private MemorySegment reqNotifyCqFunction;

    @Setup(Level.Trial)
    public void setUp() throws Throwable {
        arena = Arena.ofConfined();
        Path library = compileProvider();
        SymbolLookup provider = SymbolLookup.libraryLookup(library, arena);
        Linker linker = Linker.nativeLinker();
        MethodHandle context = linker.downcallHandle(provider.find("bench_context").orElseThrow(),
                FunctionDescriptor.of(JAVA_LONG));
        MethodHandle newQp = linker.downcallHandle(provider.find("bench_qp").orElseThrow(),
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
        MethodHandle newCq = linker.downcallHandle(provider.find("bench_cq").orElseThrow(),
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
        long ctx = (long) context.invokeExact();
        qp = (long) newQp.invokeExact(ctx);
        cq = (long) newCq.invokeExact(ctx);
        // Read from the ops table once, as QueuePair and CompletionQueue do at creation.
        postSendFunction = OpsTable.resolvePostSend(qp);
        pollCqFunction = OpsTable.resolvePollCq(cq);
        reqNotifyCqFunction = OpsTable.resolveReqNotifyCq(cq);

        // One pre-filled request, reused: the pattern the data path is built for.
        MemorySegment wr = arena.allocate(ibv_send_wr.LAYOUT);
        ibv_send_wr.wr_id(wr, 1L);
        ibv_send_wr.opcode(wr, VerbsConstants.IBV_WR_SEND);
        ibv_send_wr.send_flags(wr, VerbsConstants.IBV_SEND_SIGNALED);
        sendWr = wr.address();
        badWr = arena.allocate(JAVA_LONG).address();
        wcArray = arena.allocate(ibv_wc.LAYOUT, POLL_BATCH);
        wcs = wcArray.address();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    private static Path compileProvider() throws IOException, InterruptedException {
        String configured = System.getProperty("panamaverbs.bench.providerSource");
        Path source = configured != null ? Path.of(configured)
                : List.of(Path.of("benchmarks/src/main/c/bench_provider.c"), Path.of("src/main/c/bench_provider.c"))
                        .stream().filter(Files::exists).findFirst()
                        .orElseThrow(() -> new IllegalStateException(
                                "bench_provider.c not found; set -Dpanamaverbs.bench.providerSource"));
        Path out = Files.createTempDirectory("opstable-bench").resolve("libbenchprovider.so");
        Process gcc = new ProcessBuilder("gcc", "-shared", "-fPIC", "-O2", "-o", out.toString(), source.toString())
                .redirectErrorStream(true).start();
        String output = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (gcc.waitFor() != 0) {
            throw new IllegalStateException("gcc failed: " + output);
        }
        return out;
    }

    /** {@code ibv_post_send} of one pre-filled request through the resolved {@code qp->context->ops.post_send}. */
    @Benchmark
    public int postSend() {
        return OpsTable.postSend(postSendFunction, qp, sendWr, badWr);
    }

    /** {@code ibv_poll_cq} for up to 16 completions (the fake returns one) through {@code ops.poll_cq}. */
    @Benchmark
    public int pollCq() {
        return OpsTable.pollCq(pollCqFunction, cq, POLL_BATCH, wcs);
    }

    /** Post, poll, and read the completion's wr_id: one send round trip of the data path. */
    @Benchmark
    public long postSendPollAndRead() {
        OpsTable.postSend(postSendFunction, qp, sendWr, badWr);
        int polled = OpsTable.pollCq(pollCqFunction, cq, POLL_BATCH, wcs);
        return polled == 0 ? -1 : wcArray.get(JAVA_LONG, ibv_wc.wr_id$OFFSET);
    }

    /** {@code ibv_req_notify_cq} through {@code ops.req_notify_cq}. */
    @Benchmark
    public void reqNotifyCq() {
        OpsTable.reqNotifyCq(reqNotifyCqFunction, cq, false);
    }
}
