package dev.panamaverbs;

import dev.panamaverbs.internal.Deadline;
import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.internal.UnackedEvents;
import dev.panamaverbs.values.CompletionField;
import dev.panamaverbs.values.ExtendedDeviceAttributes;
import dev.panamaverbs.gateway.Pointers;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.ibv_cq;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.OpsTable;
import dev.panamaverbs.ffm.ibv_moderate_cq;
import dev.panamaverbs.ffm.ibv_modify_cq_attr;
import dev.panamaverbs.gateway.ExtendedOps;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

import static dev.panamaverbs.ffm.VerbsConstants.IBV_CQ_ATTR_MODERATE;

/**
 * A completion queue ({@code struct ibv_cq}, or {@code struct ibv_cq_ex} when created with
 * {@link CompletionQueueOptions}): where the device reports finished work requests. Created by
 * {@code Context.createCompletionQueue(...)}; QPs using it depend on it, and it depends on its
 * {@link CompletionChannel} if it has one.
 *
 * <p>The data path is {@link #poll(Completions)}: one provider call into a preallocated
 * {@link Completions} batch, no allocation. Event-driven use: {@link #requestNotification},
 * then {@link CompletionChannel#awaitEvent}, then poll; events are acknowledged automatically in
 * batches ({@link #setEventAckBatch}), and all outstanding ones before {@code ibv_destroy_cq}
 * (which otherwise waits for them forever).
 */
public final class CompletionQueue extends VerbsResource {
    private final Context context;
    private final CompletionChannel channel;
    private final ExtendedCompletions extended;
    private final UnackedEvents unackedEvents;
    /** {@code ibv_cq.handle}, the kernel's id, copied while the native object is alive (for toString). */
    private final int kernelHandle;
    /**
     * {@code cq->context->ops.poll_cq} (plain CQs only: an extended one polls through
     * {@code ibv_start_poll}) and {@code .req_notify_cq}, read once at creation (a context's ops
     * never change), so the data path reads no native memory and allocates nothing; null when
     * the provider left the op NULL.
     */
    private final MemorySegment pollFunction;
    private final MemorySegment reqNotifyFunction;

    /**
     * errno capture for the void ack call, whose errno nobody reads: one global segment that
     * concurrent acks may all scribble on, so acknowledging allocates no capture segment.
     */
    private static final MemorySegment ACK_CALL_STATE = CallState.allocate(Arena.global());

    private CompletionQueue(Context context, CompletionChannel channel, MemorySegment handle,
                            ExtendedCompletions extended, int eventAckBatch) {
        super("CompletionQueue", handle, channel == null ? new VerbsResource[] {context}
                : new VerbsResource[] {context, channel});
        this.context = context;
        this.channel = channel;
        this.extended = extended;
        this.unackedEvents = new UnackedEvents(eventAckBatch);
        this.kernelHandle = ibv_cq.handle(handle);
        // struct ibv_cq_ex starts like struct ibv_cq: its context is at the same offset.
        this.pollFunction = extended == null ? NativeCalls.resolveOrNull(OpsTable::resolvePollCq, handle.address()) : null;
        this.reqNotifyFunction = NativeCalls.resolveOrNull(OpsTable::resolveReqNotifyCq, handle.address());
    }

    // ---- factory hooks ----

    /**
     * {@code ibv_create_cq(context, cqe, NULL, channel, comp_vector)}: hook of
     * {@code Context.createCompletionQueue(int)} and {@code (int, CompletionChannel, int)}.
     */
    static CompletionQueue create(Context context, int cqe, CompletionChannel channel, int compVector) {
        String verb = "ibv_create_cq";
        checkOwners(verb, context, channel);
        acquireAll(context, channel);
        try (Arena arena = Arena.ofConfined()) {
            checkCqe(verb, cqe, context.maxAttributes().maxCqe());
            checkCompletionVector(verb, compVector, context.completionVectorCount());
            MemorySegment state = CallState.allocate(arena);
            // A local, not a conditional expression: invokeExact would see the conditional as Object.
            MemorySegment channelSegment = channel == null ? MemorySegment.NULL : channel.handleSegment();
            MemorySegment created = IbverbsCalls.ibv_create_cq(state, context.handleSegment(), cqe,
                        MemorySegment.NULL, channelSegment, compVector);
            NativeCalls.checkPointer(verb, created, CallState.errno(state));
            return publish(new CompletionQueue(context, channel, Pointers.sized(created, ibv_cq.LAYOUT.byteSize()),
                    null, UnackedEvents.DEFAULT_BATCH));
        } finally {
            releaseAll(context, channel);
        }
    }

    /**
     * {@code ibv_create_cq_ex}: hook of {@code Context.createCompletionQueue(CompletionQueueOptions)}.
     *
     * @throws dev.panamaverbs.VerbsUnsupportedException if the provider has no {@code create_cq_ex}
     */
    static CompletionQueue createExtended(Context context, CompletionQueueOptions options) {
        String verb = "ibv_create_cq_ex";
        Objects.requireNonNull(options, verb + ": options is null");
        CompletionChannel channel = options.channel();
        checkOwners(verb, context, channel);
        acquireAll(context, channel);
        try {
            checkCqe(verb, options.cqe(), context.maxAttributes().maxCqe());
            checkCompletionVector(verb, options.completionVector(), context.completionVectorCount());
            ExtendedCompletions created = ExtendedCompletions.create(context, options);
            return publish(new CompletionQueue(context, channel, created.segment(), created, options.eventAckBatch()));
        } finally {
            releaseAll(context, channel);
        }
    }

    private static CompletionQueue publish(CompletionQueue queue) {
        queue.register();
        if (queue.channel != null) {
            queue.channel.attach(queue);
        }
        return queue;
    }

    private static void checkOwners(String verb, Context context, CompletionChannel channel) {
        Objects.requireNonNull(context, verb + ": context is null");
        if (channel != null && channel.context() != context) {
            throw new IllegalArgumentException(verb + ": " + channel + " belongs to another context than " + context);
        }
    }

    private static void acquireAll(Context context, CompletionChannel channel) {
        context.acquire();
        if (channel != null) {
            try {
                channel.acquire();
            } catch (RuntimeException closed) {
                context.release();
                throw closed;
            }
        }
    }

    private static void releaseAll(Context context, CompletionChannel channel) {
        if (channel != null) {
            channel.release();
        }
        context.release();
    }

    /** Checks {@code cqe} against the device's {@code max_cqe}. */
    static void checkCqe(String verb, int cqe, int maxCqe) {
        if (cqe < 1 || cqe > maxCqe) {
            throw new IllegalArgumentException(verb + ": cqe must be in 1.." + maxCqe + " (device max_cqe), got " + cqe);
        }
    }

    /** Checks {@code vector} against the context's {@code num_comp_vectors}. */
    static void checkCompletionVector(String verb, int vector, int numCompVectors) {
        if (vector < 0 || vector >= numCompVectors) {
            throw new IllegalArgumentException(verb + ": comp_vector must be in 0.." + (numCompVectors - 1)
                    + " (context num_comp_vectors " + numCompVectors + "), got " + vector);
        }
    }

    // ---- accessors ----

    /**
     * The context the CQ belongs to.
     *
     * @return the context the CQ belongs to
     */
    public Context context() {
        requireOpen(this);
        return context;
    }

    /**
     * The completion channel events go to, if any.
     *
     * @return the completion channel events go to, if any
     */
    public Optional<CompletionChannel> channel() {
        requireOpen(this);
        return Optional.ofNullable(channel);
    }

    /**
     * True for a CQ created through {@code ibv_create_cq_ex}.
     *
     * @return true for a CQ created through {@code ibv_create_cq_ex}
     */
    public boolean isExtended() {
        return extended != null;
    }

    /**
     * The fields an extended CQ reports (its {@code wc_flags}); {@link CompletionField#STANDARD} for a plain CQ.
     *
     * @return the fields an extended CQ reports (its {@code wc_flags})
     */
    public java.util.Set<CompletionField> fields() {
        return extended == null ? CompletionField.STANDARD : extended.fields();
    }

    /**
     * {@code ibv_cq.cqe}: the number of entries the provider actually gave (at least what was asked).
     *
     * @return {@code ibv_cq.cqe}: the number of entries the provider actually gave (at least what was asked)
     */
    public int capacity() {
        acquire();
        try {
            return ibv_cq.cqe(handleSegment());
        } finally {
            release();
        }
    }

    // ---- data path ----

    /**
     * {@code ibv_poll_cq(cq, batch.capacity(), wc)}: moves up to {@code batch.capacity()}
     * completions into {@code batch}, allocation-free. A completion with a status other than
     * SUCCESS is also recorded as the JFR event {@code dev.panamaverbs.FailedCompletion} when a
     * recording has it enabled (nothing is allocated otherwise). On an extended CQ the same result comes
     * from {@code ibv_start_poll}/{@code ibv_end_poll} plus one {@code ibv_wc_read_*} call per
     * requested field, per completion (about ten downcalls per completion instead of one per
     * batch: poll a plain CQ where that matters).
     *
     * @return how many entries of {@code batch} were filled, 0 when the CQ is empty
     * @param batch how many in one batch
     */
    public int poll(Completions batch) {
        return poll(batch, batch.capacity());
    }

    /**
     * As {@link #poll(Completions)}, taking at most {@code max} completions.
     *
     * @throws IllegalArgumentException if {@code max} is not in {@code 1..batch.capacity()}
     * @throws IllegalStateException if this CQ or the arena of {@code batch} is closed
     * @param batch how many in one batch
     * @param max the maximum
     * @return how many completions were written into {@code batch}, 0 when the queue was empty
     */
    public int poll(Completions batch, int max) {
        if (max < 1 || max > batch.capacity()) {
            throw new IllegalArgumentException("ibv_poll_cq: num_entries must be in 1.." + batch.capacity()
                    + " (the batch's capacity), got " + max);
        }
        if (!batch.isAlive()) {
            // The provider (or the extended-CQ copy) would write the completions into freed memory.
            throw new IllegalStateException("ibv_poll_cq: the arena of " + batch + " is closed");
        }
        acquire();
        try {
            int polled;
            if (extended != null) {
                polled = extended.poll(batch, max);
            } else {
                if (pollFunction == null) {
                    throw NativeCalls.missingOp("ibv_poll_cq", "poll_cq");
                }
                // Segments: the downcall keeps the batch's arena open until the provider returns.
                polled = OpsTable.pollCq(pollFunction, handleSegment(), max, batch.entries());
                if (polled < 0) {
                    // poll_cq reports failure as a negative count, not an errno; keep the provider's value.
                    throw new VerbsException("ibv_poll_cq", 0, "the provider's poll_cq returned " + polled);
                }
            }
            batch.recordFailures(context.device().name(), polled);
            return polled;
        } finally {
            release();
        }
    }

    /**
     * {@code ibv_req_notify_cq}: arms the CQ so that the next completion (the next solicited
     * one, with {@code solicitedOnly}) raises an event on its channel. One-shot: re-arm after each
     * event, then poll the CQ empty, so no completion slips between poll and arm.
     *
     * @param solicitedOnly true to be notified of solicited completions only
     */
    public void requestNotification(boolean solicitedOnly) {
        acquire();
        try {
            if (reqNotifyFunction == null) {
                throw NativeCalls.missingOp("ibv_req_notify_cq", "req_notify_cq");
            }
            NativeCalls.checkReturnedErrno("ibv_req_notify_cq",
                    OpsTable.reqNotifyCq(reqNotifyFunction, handleAddress(), solicitedOnly));
        } finally {
            release();
        }
    }

    /**
     * Waits for completions with the channel: polls; if empty arms the CQ
     * ({@code ibv_req_notify_cq}), polls again (closing the race with completions that came
     * meanwhile), then waits for an event ({@code ibv_get_cq_event}) and polls once more.
     * Many CQs may share the channel, each waited for by its own thread: an event this thread
     * takes for another CQ of the channel is handed over to that CQ's waiter (and counted for
     * acknowledgement on that CQ), never dropped. The thread parks on the shared
     * {@link dev.panamaverbs.events.Poller} (see {@code docs/poller.md}); closing this CQ or the
     * channel meanwhile ends the wait with an {@link IllegalStateException}. The timeout bounds the whole call and follows the
     * library's deadline rule ({@code docs/safety.md}, "Deadlines"): zero polls, arms and polls
     * once without waiting; a huge one waits for ever.
     *
     * @return how many entries of {@code batch} were filled; 0 if the timeout passed
     * @throws IllegalStateException if the CQ has no channel, or is closed
     * @throws NullPointerException if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws InterruptedException if the thread is interrupted while waiting
     * @param batch how many in one batch
     * @param timeout how long to wait at most
     */
    public int awaitCompletions(Completions batch, Duration timeout) throws InterruptedException {
        long deadline = Deadline.start("ibv_get_cq_event", timeout);
        if (channel == null) {
            throw new IllegalStateException("ibv_get_cq_event: " + this + " has no completion channel");
        }
        while (true) {
            int polled = poll(batch);
            if (polled > 0) {
                return polled;
            }
            requestNotification(false);
            polled = poll(batch);
            if (polled > 0) {
                return polled;
            }
            if (Deadline.expired(deadline)) {
                return 0;
            }
            if (channel.awaitUntil(deadline, this) == null) {
                return poll(batch);
            }
        }
    }

    // ---- completion events ----

    /**
     * Acknowledges every event {@link CompletionChannel#awaitEvent} returned for this CQ and not
     * yet acknowledged ({@code ibv_ack_cq_events}). Optional: events are acknowledged in batches
     * anyway, and all of them before the CQ is destroyed.
     *
     * @return how many were acknowledged
     */
    public int acknowledgeEvents() {
        acquire();
        try {
            int count = unackedEvents.takeAll();
            if (count > 0) {
                acknowledgeRaw(handleSegment(), count);
            }
            return count;
        } finally {
            release();
        }
    }

    /**
     * Events returned for this CQ and not yet acknowledged.
     *
     * @return how many events are not yet acknowledged
     */
    public int unacknowledgedEvents() {
        return unackedEvents.outstanding();
    }

    /**
     * How many events are acknowledged per {@code ibv_ack_cq_events} call (default {@value UnackedEvents#DEFAULT_BATCH}).
     *
     * @return how many events are acknowledged per {@code ibv_ack_cq_events} call (default {@value UnackedEvents#DEFAULT_BATCH})
     */
    public int eventAckBatch() {
        return unackedEvents.batch();
    }

    /**
     * Sets how many events are acknowledged per {@code ibv_ack_cq_events} call; 1 acknowledges each at once.
     *
     * @param batch how many in one batch
     */
    public void setEventAckBatch(int batch) {
        unackedEvents.batch(batch);
    }

    /**
     * Counts one event the channel returned for this CQ, acknowledging a batch when one is full.
     * If the CQ is closing, acknowledges at once: its {@code ibv_destroy_cq} may be waiting for
     * exactly this event (the native CQ stays valid until it is acknowledged).
     */
    void recordEvent() {
        try {
            acquire();
        } catch (IllegalStateException closing) {
            acknowledgeRaw(handleSegment(), 1);
            return;
        }
        try {
            int due = unackedEvents.record();
            if (due > 0) {
                acknowledgeRaw(handleSegment(), due);
            }
        } finally {
            release();
        }
    }

    /**
     * {@code ibv_ack_cq_events(cq, count)} on a raw {@code struct ibv_cq *}; a CQ passes its
     * handle segment, so an acknowledgement on the event path allocates no segment.
     */
    static void acknowledgeRaw(MemorySegment cq, int count) {
        IbverbsCalls.ibv_ack_cq_events(ACK_CALL_STATE, cq, count);
    }

    // ---- control path ----

    /**
     * {@code ibv_resize_cq}: changes the number of entries to at least {@code cqe}; see
     * {@link #capacity()} for what the provider gave.
     *
     * @throws IllegalArgumentException if {@code cqe} is not in {@code 1..max_cqe}
     * @param cqe the number of completion queue entries
     */
    public void resize(int cqe) {
        acquire();
        try {
            checkCqe("ibv_resize_cq", cqe, context.maxAttributes().maxCqe());
            int rc;
            try (Arena arena = Arena.ofConfined()) {
                rc = IbverbsCalls.ibv_resize_cq(CallState.allocate(arena), handleSegment(), cqe);
            }
            NativeCalls.checkReturnedErrno("ibv_resize_cq", rc);
        } finally {
            release();
        }
    }

    /**
     * {@code ibv_modify_cq} with {@code IBV_CQ_ATTR_MODERATE}: completion event moderation. The
     * device raises a completion event only once {@code count} completions arrived or
     * {@code periodMicros} microseconds passed since the first. The device's limits are in
     * {@link ExtendedDeviceAttributes} ({@code cq_mod_caps}); not every provider implements it
     * (rxe does not: {@link VerbsUnsupportedException} with EOPNOTSUPP).
     *
     * @param count        completions per event, 0..65535 ({@code cq_count}, a uint16_t)
     * @param periodMicros microseconds per event, 0..65535 ({@code cq_period}, a uint16_t)
     * @throws IllegalArgumentException if a value is not a uint16_t
     * @throws VerbsUnsupportedException if the provider lacks {@code modify_cq} or refuses it as unsupported
     * @throws VerbsException if the verb fails otherwise
     */
    public void moderate(int count, int periodMicros) {
        if (count < 0 || count > 0xFFFF || periodMicros < 0 || periodMicros > 0xFFFF) {
            throw new IllegalArgumentException("ibv_modify_cq: cq_count and cq_period are uint16_t (0..65535), got "
                    + count + " and " + periodMicros);
        }
        acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_modify_cq_attr.LAYOUT);
            ibv_modify_cq_attr.attr_mask(attr, IBV_CQ_ATTR_MODERATE);
            ibv_moderate_cq.cq_count(ibv_modify_cq_attr.moderate(attr), (short) count);
            ibv_moderate_cq.cq_period(ibv_modify_cq_attr.moderate(attr), (short) periodMicros);
            NativeCalls.checkReturnedErrno("ibv_modify_cq", IbverbsCalls.ibv_modify_cq(handleAddress(), attr.address()));
        } finally {
            release();
        }
    }

    /** Acknowledges outstanding events, then {@code ibv_destroy_cq}. */
    @Override
    protected void destroy() {
        long address = handleAddress();
        try {
            int outstanding = unackedEvents.takeAll();
            if (outstanding > 0) {
                acknowledgeRaw(handleSegment(), outstanding);
            }
            int rc;
            try (Arena arena = Arena.ofConfined()) {
                rc = IbverbsCalls.ibv_destroy_cq(CallState.allocate(arena), handleSegment());
            }
            NativeCalls.checkReturnedErrno("ibv_destroy_cq", rc);
        } finally {
            if (channel != null) {
                channel.detach(this, address);
            }
        }
    }

    @Override
    protected String describe() {
        return "handle=" + Integer.toUnsignedString(kernelHandle)
                + (extended != null ? ", extended" : "");
    }
}
