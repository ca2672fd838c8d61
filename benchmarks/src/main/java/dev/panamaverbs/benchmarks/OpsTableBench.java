package dev.panamaverbs.benchmarks;

import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_poll_cq_attr;
import dev.panamaverbs.ffm.ibv_send_wr;
import dev.panamaverbs.ffm.ibv_wc;
import dev.panamaverbs.gateway.CqEx;
import dev.panamaverbs.gateway.CqExReaders;
import dev.panamaverbs.gateway.OpsTable;
import dev.panamaverbs.gateway.OpsTablePosts;
import dev.panamaverbs.gateway.QpEx;
import dev.panamaverbs.ffm.ibv_sge;
import dev.panamaverbs.ffm.ibv_qp_ex;
import dev.panamaverbs.ffm.invoke.Downcalls;
import dev.panamaverbs.ffm.invoke.ibv_qp_ex$calls;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
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

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The data-path invokers of {@link OpsTable} against a fake provider (src/main/c/bench_provider.c,
 * compiled with gcc at setup): the cost of dispatching {@code ibv_post_send} and
 * {@code ibv_poll_cq} through {@code ctx->ops} from Java, the way core does it: each op is
 * resolved once at setup ({@code OpsTable.resolvePostSend(qp)} etc.), as a queue pair or CQ
 * resolves it at creation, and each benchmark call goes through the resolved function. The same
 * for the extended verbs: {@code CqEx.resolve(cqx)} and the {@code ibv_qp_ex} pointers once, then the
 * {@code ibv_start_poll}/{@code ibv_wc_read_*} and the generated {@code ibv_wr_*} invokers through the
 * resolved functions (the fake ibv_cq_ex/ibv_qp_ex are {@link #EXTENDED_PROVIDER},
 * compiled with bench_provider.c). Run with {@code -prof gc}: every benchmark should show 0 B/op.
 *
 * <p>The C baseline ({@code c*} benchmarks, src/main/c/bench_c_loops.c, compiled with the provider):
 * the same post, poll and post+poll+read made from C through the same function pointers, in loops
 * of {@value #C_LOOP} per downcall, so the score is one C call. Java / C is the ratio of the
 * matching pairs ({@code postSend} / {@code cPostSend}, {@code qpExBatch16} / {@code cQpExBatch16}, ...).
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
    /**
     * {@link #qpExWrSetSgePlain()}'s handle: {@code wr_set_sge} as a plain downcall, as the generator
     * emitted it before the builders became critical, for the same-run comparison.
     */
    private static final MethodHandle WR_SET_SGE_PLAIN = Downcalls.handle(
            Downcalls.rawAddresses(ibv_qp_ex.wr_set_sge$DESC));
    /** Calls per downcall in the C baseline loops. */
    static final int C_LOOP = 1000;
    private MethodHandle cPostSend;
    private MethodHandle cPollCq;
    private MethodHandle cPostPollRead;
    private MethodHandle cPostRecv;
    private MethodHandle cWrBatch;

    /** A fake ibv_cq_ex and ibv_qp_ex doing as little as bench_provider.c's ops: compiled with it. */
    static final String EXTENDED_PROVIDER = """
            #include <infiniband/verbs.h>
            #include <stdlib.h>

            extern uint64_t bench_posted;

            static int cqx_start_poll(struct ibv_cq_ex *cq, struct ibv_poll_cq_attr *attr)
            {
            	cq->wr_id = bench_posted;
            	cq->status = IBV_WC_SUCCESS;
            	return 0;
            }
            static int cqx_next_poll(struct ibv_cq_ex *cq) { return ENOENT; }
            static void cqx_end_poll(struct ibv_cq_ex *cq) { }
            static enum ibv_wc_opcode cqx_read_opcode(struct ibv_cq_ex *cq) { return IBV_WC_SEND; }
            static uint32_t cqx_read_byte_len(struct ibv_cq_ex *cq) { return 64; }

            static void qpx_wr_start(struct ibv_qp_ex *qp) { }
            static int qpx_wr_complete(struct ibv_qp_ex *qp) { return 0; }
            static void qpx_wr_abort(struct ibv_qp_ex *qp) { }
            static void qpx_wr_send(struct ibv_qp_ex *qp) { bench_posted += qp->wr_id; }
            static void qpx_wr_set_sge(struct ibv_qp_ex *qp, uint32_t lkey, uint64_t addr, uint32_t length)
            { bench_posted += length; }
            static void qpx_wr_rdma_write(struct ibv_qp_ex *qp, uint32_t rkey, uint64_t remote_addr)
            { bench_posted += qp->wr_id + remote_addr; }

            struct ibv_cq_ex *bench_cq_ex(struct ibv_context *ctx)
            {
            	struct ibv_cq_ex *cq = calloc(1, sizeof(*cq));
            	cq->context = ctx;
            	cq->start_poll = cqx_start_poll;
            	cq->next_poll = cqx_next_poll;
            	cq->end_poll = cqx_end_poll;
            	cq->read_opcode = cqx_read_opcode;
            	cq->read_byte_len = cqx_read_byte_len;
            	return cq;
            }

            struct ibv_qp_ex *bench_qp_ex(struct ibv_context *ctx)
            {
            	struct ibv_qp_ex *qp = calloc(1, sizeof(*qp));
            	qp->qp_base.context = ctx;
            	qp->wr_start = qpx_wr_start;
            	qp->wr_complete = qpx_wr_complete;
            	qp->wr_abort = qpx_wr_abort;
            	qp->wr_send = qpx_wr_send;
            	qp->wr_set_sge = qpx_wr_set_sge;
            	qp->wr_rdma_write = qpx_wr_rdma_write;
            	return qp;
            }
            """;

    private Arena arena;
    private long qp;
    private long cq;
    private long sendWr;
    private long badWr;
    private long wcs;
    private MemorySegment wcArray;
    /** The segment variants' arguments, in a shared arena: the most a downcall pays to keep one open. */
    private Arena sharedArena;
    private MemorySegment qpSegment;
    private MemorySegment cqSegment;
    private MemorySegment sendWrSegment;
    private MemorySegment badWrSegment;
    private MemorySegment wcSegment;
    private MemorySegment postSendFunction;
    private MemorySegment postRecvFunction;
    private long recvWr;
    private MemorySegment pollCqFunction;
    private MemorySegment reqNotifyCqFunction;
    private long cqx;
    private long qpx;
    private long pollAttr;
    private long buffer;
    private CqEx.Functions cqExFunctions;
    private MemorySegment qpExSegment;
    private MemorySegment wrStart;
    private MemorySegment wrSend;
    private MemorySegment wrSetSge;
    private MemorySegment wrComplete;
    /** {@link #BATCH} RDMA WRITE requests of one entry each, chained through {@code next} for postSend. */
    private long[] batchWrs;
    private long batchDataBufs;
    private QpEx.Functions qpExFunctions;
    private static final int BATCH = 16;

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
        cPostSend = linker.downcallHandle(provider.find("bench_c_post_send").orElseThrow(),
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        cPollCq = linker.downcallHandle(provider.find("bench_c_poll_cq").orElseThrow(),
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG));
        cPostPollRead = linker.downcallHandle(provider.find("bench_c_post_poll_read").orElseThrow(),
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG));
        cPostRecv = linker.downcallHandle(provider.find("bench_c_post_recv").orElseThrow(),
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        cWrBatch = linker.downcallHandle(provider.find("bench_c_wr_batch").orElseThrow(),
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
        // Read from the ops table once, as QueuePair and CompletionQueue do at creation.
        postSendFunction = OpsTable.resolvePostSend(qp);
        postRecvFunction = OpsTable.resolvePostRecv(qp);
        pollCqFunction = OpsTable.resolvePollCq(cq);
        reqNotifyCqFunction = OpsTable.resolveReqNotifyCq(cq);
        MethodHandle newCqEx = linker.downcallHandle(provider.find("bench_cq_ex").orElseThrow(),
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
        MethodHandle newQpEx = linker.downcallHandle(provider.find("bench_qp_ex").orElseThrow(),
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
        cqx = (long) newCqEx.invokeExact(ctx);
        qpx = (long) newQpEx.invokeExact(ctx);
        // The extended CQ and QP: their function pointers read once, as at creation.
        cqExFunctions = CqEx.resolve(cqx);
        qpExSegment = MemorySegment.ofAddress(qpx).reinterpret(ibv_qp_ex.SIZE);
        wrStart = ibv_qp_ex.wr_start(qpExSegment);
        wrSend = ibv_qp_ex.wr_send(qpExSegment);
        wrSetSge = ibv_qp_ex.wr_set_sge(qpExSegment);
        wrComplete = ibv_qp_ex.wr_complete(qpExSegment);
        pollAttr = arena.allocate(ibv_poll_cq_attr.LAYOUT).address();
        buffer = arena.allocate(64).address();

        // One pre-filled request, reused: the pattern the data path is built for.
        MemorySegment wr = arena.allocate(ibv_send_wr.LAYOUT);
        ibv_send_wr.wr_id(wr, 1L);
        ibv_send_wr.opcode(wr, VerbsConstants.IBV_WR_SEND);
        ibv_send_wr.send_flags(wr, VerbsConstants.IBV_SEND_SIGNALED);
        sendWr = wr.address();
        badWr = arena.allocate(JAVA_LONG).address();
        MemorySegment receive = arena.allocate(dev.panamaverbs.ffm.ibv_recv_wr.LAYOUT);
        dev.panamaverbs.ffm.ibv_recv_wr.wr_id(receive, 2L);
        recvWr = receive.address();
        wcArray = arena.allocate(ibv_wc.LAYOUT, POLL_BATCH);
        wcs = wcArray.address();

        // The same 16 RDMA WRITEs for both batch benchmarks: chained for ibv_post_send, one by one for ibv_wr_*.
        qpExFunctions = QpEx.resolve(qpx);
        batchDataBufs = arena.allocate(64).address();
        MemorySegment sge = arena.allocate(ibv_sge.LAYOUT);
        ibv_sge.addr(sge, buffer);
        ibv_sge.length(sge, 64);
        ibv_sge.lkey(sge, 1);
        MemorySegment[] requests = new MemorySegment[BATCH];
        batchWrs = new long[BATCH];
        for (int i = BATCH - 1; i >= 0; i--) {
            MemorySegment request = arena.allocate(ibv_send_wr.LAYOUT);
            ibv_send_wr.wr_id(request, i);
            ibv_send_wr.opcode(request, VerbsConstants.IBV_WR_RDMA_WRITE);
            ibv_send_wr.send_flags(request, i == BATCH - 1 ? VerbsConstants.IBV_SEND_SIGNALED : 0);
            ibv_send_wr.sg_list(request, sge);
            ibv_send_wr.num_sge(request, 1);
            ibv_send_wr.wr.rdma.remote_addr(ibv_send_wr.wr(request), 0x10000L + 64L * i);
            ibv_send_wr.wr.rdma.rkey(ibv_send_wr.wr(request), 2);
            if (i < BATCH - 1) {
                ibv_send_wr.next(request, requests[i + 1]);
            }
            requests[i] = request;
            batchWrs[i] = request.address();
        }
        sharedArena = Arena.ofShared();
        qpSegment = MemorySegment.ofAddress(qp).reinterpret(dev.panamaverbs.ffm.ibv_qp.LAYOUT.byteSize());
        cqSegment = MemorySegment.ofAddress(cq).reinterpret(dev.panamaverbs.ffm.ibv_cq.LAYOUT.byteSize());
        sendWrSegment = sharedArena.allocate(ibv_send_wr.LAYOUT);
        MemorySegment.copy(wr, 0, sendWrSegment, 0, ibv_send_wr.LAYOUT.byteSize());
        badWrSegment = sharedArena.allocate(JAVA_LONG);
        wcSegment = sharedArena.allocate(ibv_wc.LAYOUT, POLL_BATCH);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        sharedArena.close();
        arena.close();
    }

    private static Path compileProvider() throws IOException, InterruptedException {
        String configured = System.getProperty("panamaverbs.bench.providerSource");
        Path source = configured != null ? Path.of(configured)
                : List.of(Path.of("benchmarks/src/main/c/bench_provider.c"), Path.of("src/main/c/bench_provider.c"))
                        .stream().filter(Files::exists).findFirst()
                        .orElseThrow(() -> new IllegalStateException(
                                "bench_provider.c not found; set -Dpanamaverbs.bench.providerSource"));
        Path dir = Files.createTempDirectory("opstable-bench");
        Path extended = Files.writeString(dir.resolve("bench_extended.c"), EXTENDED_PROVIDER, StandardCharsets.UTF_8);
        Path out = dir.resolve("libbenchprovider.so");
        Process gcc = new ProcessBuilder("gcc", "-shared", "-fPIC", "-O2", "-o", out.toString(), source.toString(),
                source.resolveSibling("bench_c_loops.c").toString(), extended.toString())
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
        return OpsTablePosts.postSend(postSendFunction, qp, sendWr, badWr);
    }

    /** {@link #postSend()} with segment arguments in a shared arena, which the downcall keeps open. */
    @Benchmark
    public int postSendSegments() {
        return OpsTable.postSend(postSendFunction, qpSegment, sendWrSegment, badWrSegment);
    }

    /** {@link #pollCq()} with the completion array as a segment of a shared arena, kept open by the downcall. */
    @Benchmark
    public int pollCqSegments() {
        return OpsTable.pollCq(pollCqFunction, cqSegment, POLL_BATCH, wcSegment);
    }

    /** {@code ibv_poll_cq} for up to 16 completions (the fake returns one) through {@code ops.poll_cq}. */
    @Benchmark
    public int pollCq() {
        return OpsTable.pollCq(pollCqFunction, cq, POLL_BATCH, wcs);
    }

    /** Post, poll, and read the completion's wr_id: one send round trip of the data path. */
    @Benchmark
    public long postSendPollAndRead() {
        OpsTablePosts.postSend(postSendFunction, qp, sendWr, badWr);
        int polled = OpsTable.pollCq(pollCqFunction, cq, POLL_BATCH, wcs);
        return polled == 0 ? -1 : wcArray.get(JAVA_LONG, ibv_wc.wr_id$OFFSET);
    }

    /**
     * {@link #postSend()} through the generated critical invoker ({@code post_send$critical}, no
     * thread-state transition): what {@code QueuePair.postSend} does on a provider whose posts never
     * make a system call (mlx5, efa: docs/critical-downcalls.md); rxe keeps {@link #postSend()}.
     */
    @Benchmark
    public int postSendCritical() {
        return OpsTablePosts.postSendCritical(postSendFunction, qp, sendWr, badWr);
    }

    /** {@code ibv_post_recv} of one pre-filled request through the resolved {@code ops.post_recv}: the plain downcall. */
    @Benchmark
    public int postRecv() {
        return OpsTablePosts.postRecv(postRecvFunction, qp, recvWr, badWr);
    }

    /** {@link #postRecv()} through the critical invoker ({@code post_recv$critical}), as on mlx5 and efa. */
    @Benchmark
    public int postRecvCritical() {
        return OpsTablePosts.postRecvCritical(postRecvFunction, qp, recvWr, badWr);
    }

    /** C baseline of {@link #postRecv()}: {@code ibv_post_recv} from C, per call. */
    @Benchmark
    @OperationsPerInvocation(C_LOOP)
    public long cPostRecv() throws Throwable {
        return (long) cPostRecv.invokeExact(qp, recvWr, (long) C_LOOP);
    }

    /** C baseline of {@link #postSend()}: {@code ibv_post_send} from C, per call. */
    @Benchmark
    @OperationsPerInvocation(C_LOOP)
    public long cPostSend() throws Throwable {
        return (long) cPostSend.invokeExact(qp, sendWr, (long) C_LOOP);
    }

    /** C baseline of {@link #pollCq()}: {@code ibv_poll_cq} for up to 16 from C, per call. */
    @Benchmark
    @OperationsPerInvocation(C_LOOP)
    public long cPollCq() throws Throwable {
        return (long) cPollCq.invokeExact(cq, POLL_BATCH, wcs, (long) C_LOOP);
    }

    /** C baseline of {@link #postSendPollAndRead()}: post, poll, read {@code wr_id} from C, per round. */
    @Benchmark
    @OperationsPerInvocation(C_LOOP)
    public long cPostSendPollAndRead() throws Throwable {
        return (long) cPostPollRead.invokeExact(qp, sendWr, cq, POLL_BATCH, wcs, (long) C_LOOP);
    }

    /** {@code ibv_req_notify_cq} through {@code ops.req_notify_cq}. */
    @Benchmark
    public void reqNotifyCq() {
        OpsTable.reqNotifyCq(reqNotifyCqFunction, cq, false);
    }

    /** One extended-CQ poll of one completion: {@code ibv_start_poll}, {@code wr_id}, {@code ibv_end_poll}. */
    @Benchmark
    public long cqExPollOne() {
        if (CqEx.startPoll(cqExFunctions, cqx, pollAttr) != 0) {
            return -1;
        }
        long wrId = CqEx.wrId(cqx);
        CqEx.endPoll(cqExFunctions, cqx);
        return wrId;
    }

    /** {@code ibv_wc_read_byte_len} through the resolved {@code cq->read_byte_len}: one reader downcall. */
    @Benchmark
    public int cqExReadByteLen() {
        return CqExReaders.readByteLen(cqExFunctions, cqx);
    }

    /** {@code ibv_wr_set_sge} through the resolved {@code qp->wr_set_sge}: one fill downcall (critical). */
    @Benchmark
    public void qpExWrSetSge() {
        ibv_qp_ex$calls.wr_set_sge$raw(wrSetSge, qpx, 1, buffer, 64);
    }

    /** {@link #qpExWrSetSge()} as a plain downcall: the thread-state transition the critical builders save. */
    @Benchmark
    public void qpExWrSetSgePlain() throws Throwable {
        WR_SET_SGE_PLAIN.invokeExact(wrSetSge, qpx, 1, buffer, 64);
    }

    /** 16 RDMA WRITEs chained through {@code next}, one {@code ibv_post_send}: the chain {@link #qpExBatch16} posts as a batch. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int postSendChain16() {
        return OpsTablePosts.postSend(postSendFunction, qp, batchWrs[0], badWr);
    }

    /** {@link #postSendChain16()} through the critical invoker, as on mlx5 and efa; per work request. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int postSendChain16Critical() {
        return OpsTablePosts.postSendCritical(postSendFunction, qp, batchWrs[0], badWr);
    }

    /** C baseline of {@link #postSendChain16()}: the same chain through {@code ibv_post_send} from C, per work request. */
    @Benchmark
    @OperationsPerInvocation(BATCH * C_LOOP)
    public long cPostSendChain16() throws Throwable {
        return (long) cPostSend.invokeExact(qp, batchWrs[0], (long) C_LOOP);
    }

    /**
     * C baseline of {@link #qpExBatch16()}: the same 16 RDMA WRITEs as one {@code ibv_wr_*} batch from
     * C through the same {@code ibv_qp_ex} pointers ({@code bench_c_wr_batch}), per work request.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH * C_LOOP)
    public long cQpExBatch16() throws Throwable {
        return (long) cWrBatch.invokeExact(qpx, batchWrs[0], (long) C_LOOP);
    }

    /**
     * The same 16 RDMA WRITEs as one {@code ibv_wr_*} batch, as {@code SendBatch.complete()} makes it:
     * {@code ibv_wr_start}, per request {@code QpEx.post} (wr_id, wr_flags, {@code ibv_wr_rdma_write},
     * {@code ibv_wr_set_sge}), {@code ibv_wr_complete}: 34 downcalls instead of one, of which only
     * {@code ibv_wr_complete} makes the thread-state transition (the builders are critical).
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int qpExBatch16() {
        QpEx.start(qpExFunctions, qpx);
        for (int i = 0; i < BATCH; i++) {
            QpEx.post(qpExFunctions, qpx, VerbsConstants.IBV_QPT_RC, batchWrs[i], batchDataBufs);
        }
        return QpEx.complete(qpExFunctions, qpx);
    }

    /** A one-request batch: {@code ibv_wr_start}, wr_id, {@code ibv_wr_send}, {@code ibv_wr_set_sge}, {@code ibv_wr_complete}. */
    @Benchmark
    public int qpExSendBatch() {
        ibv_qp_ex$calls.wr_start$raw(wrStart, qpx);
        ibv_qp_ex.wr_id(qpExSegment, 1L);
        ibv_qp_ex$calls.wr_send$raw(wrSend, qpx);
        ibv_qp_ex$calls.wr_set_sge$raw(wrSetSge, qpx, 1, buffer, 64);
        return ibv_qp_ex$calls.wr_complete$raw(wrComplete, qpx);
    }
}
