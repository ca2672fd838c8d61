package dev.panamaverbs;

import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.QueuePairCapabilities;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.gateway.QpEx;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A batch of send work requests posted through the extended post API ({@code ibv_wr_start},
 * the {@code ibv_wr_*} operations and setters, {@code ibv_wr_complete}): the device's doorbell
 * rings once for the whole batch. Only for a queue pair created with
 * {@link QueuePairOptions.Builder#extendedSendOperations} ({@code ibv_create_qp_ex} with
 * {@code send_ops_flags}); the batch reaches its {@code struct ibv_qp_ex} through
 * {@code ibv_qp_to_qp_ex} ({@link Capability#QP_EX}).
 *
 * <pre>{@code
 * SendBatch batch = SendBatch.allocate(qp, 16);          // once: preallocated
 * batch.start().add(write).add(read).add(sendWithImm);  // reusable SendWorkRequests
 * batch.complete();                                     // checked, then posted in one go
 * }</pre>
 *
 * <p>Requests are {@link SendWorkRequest}s, filled as for {@link QueuePair#postSend} (their
 * {@code next} is ignored). {@link #complete()} turns each into its {@code ibv_wr_*} calls:
 * {@code qp->wr_id} and {@code qp->wr_flags}, the opcode's operation ({@code ibv_wr_send},
 * {@code _send_imm}, {@code _send_inv}, {@code _rdma_write}, {@code _rdma_write_imm},
 * {@code _rdma_read}, {@code _atomic_cmp_swp}, {@code _atomic_fetch_add}, {@code _bind_mw},
 * {@code _local_inv}, {@code _atomic_write}), {@code ibv_wr_set_ud_addr} on UD, then the data:
 * {@code ibv_wr_set_sge} for one entry, {@code ibv_wr_set_sge_list} for several,
 * {@code ibv_wr_set_inline_data} for an INLINE request (several inline entries are gathered into
 * one buffer first: rxe's {@code ibv_wr_set_inline_data_list} posts zero bytes). An
 * ATOMIC_WRITE request takes its 8 bytes from one 8-byte entry of a region registered at its
 * memory address (the CPU reads them).
 *
 * <p>The batch is checked before any native call: every check {@link QueuePair#postSend} makes
 * (opcode vs transport, entries vs {@code max_send_sge}, inline size, atomics, UD address
 * handle, regions open and of the queue pair's protection domain), plus the opcode against the
 * queue pair's extended send operations, the batch size against {@code max_send_wr}, and that the
 * provider set every function the batch calls. A bad batch throws naming {@code ibv_wr_complete}
 * and the request's wr_id, and posts nothing.
 *
 * <p>Why {@link #start()} makes no native call: providers take the send queue's lock in
 * {@code ibv_wr_start} and hold it until {@code ibv_wr_complete} or {@code ibv_wr_abort}. The
 * batch records requests and makes every native call inside {@link #complete()}, where a failure
 * after {@code ibv_wr_start} always ends in {@code ibv_wr_abort}: no exception can leave the
 * lock held. Recording and posting allocate nothing.
 *
 * <p>One request object may be added several times ({@code ibv_wr_*} copies each into the queue
 * when the batch completes), except a {@code BIND_MW} (a type 2 window is bound once until
 * invalidated). A batch is not thread-safe; several batches of one queue pair may complete from
 * different threads at once: they complete one after the other, under the queue pair's lock, so
 * they may even share request objects. What is refused, naming the request, is a real race: a
 * request in a post of another thread at the same moment through anything else (another queue
 * pair's batch, {@link QueuePair#postSend}).
 */
public final class SendBatch {
    static final String VERB = "ibv_wr_complete";
    private static final int ATOMIC_WRITE = WorkRequestOpcode.ATOMIC_WRITE.value();

    private final QueuePair queuePair;
    private final ExtendedSendQueue queue;
    private final SendWorkRequest[] requests;
    /** Per place of the batch, during a post: whether this place holds its request (its first place). */
    private final boolean[] firstPlace;
    /** Where an INLINE request's several entries are gathered for one {@code ibv_wr_set_inline_data}. */
    private final MemorySegment inlineScratch;
    /** The queue pair's send path: its limits and checks. */
    private final SendPath path;
    private int size;
    private boolean started;

    private SendBatch(Arena arena, QueuePair queuePair, int capacity) {
        this.path = queuePair.sendPath();
        checkCapacity(capacity, path.limits.maxSendWorkRequests());
        this.queuePair = queuePair;
        this.queue = queuePair.extendedSendQueue();
        this.requests = new SendWorkRequest[capacity];
        this.firstPlace = new boolean[capacity];
        this.inlineScratch = arena.allocate(Math.max(1, path.limits.maxInlineData()), 8);
    }

    /**
     * Refuses a capacity no batch could use: below 1, or above the queue pair's {@code max_send_wr}
     * (a batch of more requests than the send queue holds fails every {@code ibv_wr_complete}).
     */
    static void checkCapacity(int capacity, int maxSendWorkRequests) {
        if (capacity < 1) {
            throw new IllegalArgumentException("ibv_wr_start: a batch needs a capacity of at least 1, got " + capacity);
        }
        if (capacity > maxSendWorkRequests) {
            throw new IllegalArgumentException("ibv_wr_start: a batch capacity of " + capacity
                    + " exceeds the queue pair's max_send_wr " + maxSendWorkRequests
                    + " (ibv_wr_complete would refuse every batch that large)");
        }
    }

    /**
     * A batch of up to {@code capacity} requests for {@code queuePair}, in an automatic arena.
     *
     * @param queuePair a queue pair created with extended send operations
     * @param capacity the most requests one batch holds
     * @return the batch, not started
     * @throws IllegalArgumentException if {@code capacity} is below 1 or above the queue pair's
     *         {@code max_send_wr} (its granted send queue depth)
     * @throws IllegalStateException if the queue pair was not created with
     *         {@link QueuePairOptions.Builder#extendedSendOperations}, or is closed
     * @throws VerbsUnsupportedException if libibverbs lacks {@code ibv_qp_to_qp_ex} or the
     *         provider did not make the queue pair extended
     */
    public static SendBatch allocate(QueuePair queuePair, int capacity) {
        return allocate(Arena.ofAuto(), queuePair, capacity);
    }

    /**
     * As {@link #allocate(QueuePair, int)}, with the batch's native scratch memory in {@code arena}.
     *
     * @param arena the arena that owns the batch's native memory
     * @param queuePair a queue pair created with extended send operations
     * @param capacity the most requests one batch holds
     * @return the batch, not started
     * @throws IllegalArgumentException if {@code capacity} is below 1 or above the queue pair's
     *         {@code max_send_wr} (its granted send queue depth)
     * @throws IllegalStateException if the queue pair was not created with extended send
     *         operations, or is closed
     * @throws VerbsUnsupportedException if {@code ibv_qp_to_qp_ex} is missing or answers NULL
     */
    public static SendBatch allocate(Arena arena, QueuePair queuePair, int capacity) {
        Objects.requireNonNull(arena, "arena");
        Objects.requireNonNull(queuePair, "queuePair");
        return new SendBatch(arena, queuePair, capacity);
    }

    /**
     * Starts a batch ({@code ibv_wr_start} happens in {@link #complete()}; see the class comment).
     *
     * @return this batch
     * @throws IllegalStateException if a batch is already started and neither completed nor aborted
     */
    public SendBatch start() {
        if (started) {
            throw new IllegalStateException("ibv_wr_start: the batch is already started: complete() or abort() it first");
        }
        started = true;
        size = 0;
        return this;
    }

    /**
     * Adds {@code request} (not the requests chained after it). The request is read when the
     * batch completes: changing it before then changes what is posted. The same request may be
     * added again: each place is posted with what the request holds at completion.
     *
     * @param request a filled send work request
     * @return this batch
     * @throws IllegalStateException if the batch is not started
     * @throws IllegalArgumentException if the batch is full
     */
    public SendBatch add(SendWorkRequest request) {
        Objects.requireNonNull(request, VERB + ": request");
        requireStarted(VERB);
        if (size == requests.length) {
            throw new IllegalArgumentException(VERB + ": the batch is full: its capacity is " + requests.length);
        }
        requests[size++] = request;
        return this;
    }

    /**
     * Checks the batch, then posts it: {@code ibv_wr_start}, each request's {@code ibv_wr_*}
     * calls, {@code ibv_wr_complete}. The batch ends either way; {@link #start()} begins the next.
     * An empty batch makes no native call.
     *
     * @throws IllegalStateException if the batch is not started, or the queue pair, a request's
     *         arena, region, address handle or window is closed, or, as for
     *         {@link QueuePair#postSend}, the queue pair (not of an rdma_cm identifier) is in RESET,
     *         INIT or RTR, or a request is posted by another thread at the same moment, or a
     *         {@code BIND_MW} names a bound type 2 window
     * @throws IllegalArgumentException naming {@code ibv_wr_complete} and the wr_id of a request
     *         that does not fit the queue pair (nothing is posted)
     * @throws VerbsUnsupportedException if the provider lacks a function the batch needs, or
     *         {@code ibv_wr_complete} answers an errno meaning "not supported"
     * @throws VerbsException if {@code ibv_wr_complete} fails (nothing of the batch is posted)
     */
    public void complete() {
        requireStarted(VERB);
        int count = size;
        started = false;
        if (count == 0) {
            return; // an empty batch: nothing to post, no native call
        }
        try {
            post(count);
        } finally {
            clear(count);
        }
    }

    /**
     * Ends the batch without posting anything (the recorded requests are dropped; the native
     * {@code ibv_wr_abort} is only needed, and made, when a failure interrupts {@link #complete()}).
     *
     * @throws IllegalStateException if the batch is not started
     */
    public void abort() {
        requireStarted("ibv_wr_abort");
        started = false;
        clear(size);
    }

    /**
     * The requests added since {@link #start()}.
     *
     * @return how many
     */
    public int size() {
        return started ? size : 0;
    }

    /**
     * The most requests one batch holds.
     *
     * @return the capacity
     */
    public int capacity() {
        return requests.length;
    }

    /**
     * Whether {@link #start()} was called and neither {@link #complete()} nor {@link #abort()} since.
     *
     * @return {@code true} if so
     */
    public boolean isStarted() {
        return started;
    }

    /**
     * The queue pair the batch posts to.
     *
     * @return the queue pair
     */
    public QueuePair queuePair() {
        return queuePair;
    }

    /**
     * The checks, the holds, the native calls and the bookkeeping, all under the queue pair's
     * lock: batches of one queue pair complete one at a time, so a request two of them share is
     * never in two of their posts at once. A request named again in this batch is held (and
     * booked) once, at its first place ({@link #firstPlace}).
     */
    private void post(int count) {
        queuePair.acquire();
        try {
            path.requireSendState(VERB);
            synchronized (queuePair.extendedSendLock()) {
                postLocked(count);
            }
        } finally {
            queuePair.release();
        }
    }

    private void postLocked(int count) {
        ProtectionDomain pd = path.limits.protectionDomain();
        int acquired = 0;
        try {
            check(requests, count, path, queue.opcodeBits(), queue.functions());
            try {
                for (; acquired < count; acquired++) {
                    SendWorkRequest r = requests[acquired];
                    firstPlace[acquired] = acquire(r);
                    if (!firstPlace[acquired] && r.union().bindWindow != null) {
                        throw new IllegalStateException(VERB + ": wr_id=" + r.wrId() + ": the batch names this BIND_MW"
                                + " request twice: a type 2 window is bound again only once invalidated");
                    }
                }
            } catch (IllegalStateException refused) {
                for (int i = 0; i < acquired; i++) {
                    if (firstPlace[i]) {
                        ChainHolds.afterPostOne(requests[i], false, pd);
                    }
                }
                throw refused;
            }
            int rc = postNative(count);
            for (int i = 0; i < count; i++) {
                if (firstPlace[i]) {
                    ChainHolds.afterPostOne(requests[i], rc == 0, pd); // BIND_MW and LOCAL_INV bookkeeping
                }
            }
            if (rc != 0) {
                throw NativeCalls.postFailure(VERB, rc, "the batch of " + count + " requests (wr_id="
                        + requests[0].wrId() + ".." + requests[count - 1].wrId() + ") was not posted");
            }
        } finally {
            for (int i = 0; i < acquired; i++) {
                if (firstPlace[i]) {
                    release(requests[i]);
                }
            }
        }
    }

    /**
     * Every check, before any native call: each of the first {@code count} requests as
     * {@link QueuePair#postSend} checks it, its opcode among the extended send operations, an
     * ATOMIC_WRITE's entry, and the provider's functions ({@code fns}) it needs.
     */
    static void check(SendWorkRequest[] requests, int count, SendPath path, int opcodeBits, QpEx.Functions fns) {
        if (count > path.limits.maxSendWorkRequests()) {
            throw new IllegalArgumentException(VERB + ": " + count + " requests exceed the queue pair's max_send_wr "
                    + path.limits.maxSendWorkRequests());
        }
        for (int i = 0; i < count; i++) {
            SendWorkRequest r = requests[i];
            path.checkOne(VERB, r);
            if ((opcodeBits & r.opcodeBit()) == 0) {
                throw SendPath.invalid(VERB, r, SendPath.opcodeName(r) + " is not one of the queue pair's extended"
                        + " send operations " + SendOperations.opcodes(opcodeBits) + " (send_ops_flags)");
            }
            if (r.opcodeValue() == ATOMIC_WRITE) {
                checkAtomicWrite(r);
            }
            String missing = QpEx.missing(fns, path.limits.type().value(), r.address());
            if (missing != null) {
                throw new VerbsUnsupportedException(VERB, "wr_id=" + r.wrId() + ": the provider's ibv_qp_ex."
                        + missing + " is NULL");
            }
        }
    }

    /** ATOMIC_WRITE: one 8-byte entry the CPU can read (the provider copies it in {@code ibv_wr_atomic_write}). */
    private static void checkAtomicWrite(SendWorkRequest r) {
        if (r.sgeCount() != 1 || r.entryLength(0) != 8 || r.region(0) == null) {
            throw SendPath.invalid(VERB, r, "ATOMIC_WRITE needs exactly one 8-byte entry of a memory region, got "
                    + r.sgeCount() + " entries of " + r.totalLength() + " bytes");
        }
        SendPath.checkCpuReadable(VERB, r, 0, r.region(0), "ATOMIC_WRITE");
    }

    /**
     * {@link ChainHolds#acquireOne}, plus the region an ATOMIC_WRITE's CPU reads from (recorded with the rest).
     *
     * @return false if an earlier place of this batch holds {@code r} already (nothing acquired)
     */
    private static boolean acquire(SendWorkRequest r) {
        if (!ChainHolds.acquireOne(r)) {
            return false;
        }
        if (r.opcodeValue() == ATOMIC_WRITE) {
            try {
                r.holds().hold(r.region(0));
            } catch (IllegalStateException closed) {
                ChainHolds.releaseOne(r);
                throw closed;
            }
        }
        return true;
    }

    private static void release(SendWorkRequest r) {
        ChainHolds.releaseOne(r);
    }

    /**
     * {@code ibv_wr_start} ... {@code ibv_wr_complete}; {@code ibv_wr_abort} if anything throws in
     * between. Runs under the queue pair's extended send lock ({@link #post}): providers lock the
     * send queue from start to complete, and the Java lock keeps other threads' batches and
     * {@link QueuePair#postSend} off it meanwhile, so the provider's lock, which the critical
     * (no thread-state transition) {@code ibv_wr_start} takes, never contends: a spinning
     * critical call would hold every safepoint. docs/critical-downcalls.md.
     */
    private int postNative(int count) {
        QpEx.Functions fns = queue.functions();
        long qpx = queue.qpx();
        QpEx.start(fns, qpx);
        boolean ended = false;
        try {
            for (int i = 0; i < count; i++) {
                QpEx.post(fns, qpx, path.limits.type().value(), requests[i].address(), inlineScratch.address());
            }
            ended = true;
            return QpEx.complete(fns, qpx);
        } finally {
            if (!ended) {
                QpEx.abort(fns, qpx);
            }
        }
    }

    private void requireStarted(String verb) {
        if (!started) {
            throw new IllegalStateException(verb + ": the batch is not started: call start() first");
        }
    }

    /** Drops the references to the requests, so a finished batch keeps none alive. */
    private void clear(int count) {
        for (int i = 0; i < count; i++) {
            requests[i] = null;
        }
        size = 0;
    }
}
