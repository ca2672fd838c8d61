package dev.panamaverbs.onesided;

import dev.panamaverbs.CompletionFailedException;
import dev.panamaverbs.Context;
import dev.panamaverbs.Device;
import dev.panamaverbs.VerbsUnsupportedException;
import dev.panamaverbs.values.AtomicCapability;
import dev.panamaverbs.values.TransportType;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.internal.CloseGate;
import dev.panamaverbs.internal.Deadline;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One-sided operations to one peer over a connected RC queue pair: puts (RDMA WRITE) into the
 * peer's {@link RemoteWindow}, signals (RDMA atomics) on its {@link RemoteSlot}s, and waits on
 * the caller's own {@link SignalSlot}s. The pattern of NVSHMEM, OpenSHMEM and notified RMA, built
 * on the plain verbs:
 * <ul>
 *   <li>{@link #put put} is an RDMA WRITE; {@link #signal signal} an atomic fetch-and-add on the
 *       peer's slot, with {@code IBV_SEND_FENCE} when asked; {@link #setSignal setSignal} and
 *       {@link #resetSignal resetSignal} an inline 8-byte RDMA WRITE (a set is not atomic with
 *       concurrent adds to the same slot: do not mix them);</li>
 *   <li>{@link #putWithSignal putWithSignal} posts the WRITE and a fenced add as one chain: the
 *       peer sees the signal only once all of the data is visible;</li>
 *   <li>{@link #putWithSignalAndCounter putWithSignalAndCounter} and
 *       {@link #signalWithCounter signalWithCounter} also add 1 to a local counter slot through a
 *       <b>companion queue pair</b> looped back to itself. The verbs have no cross-queue WAIT
 *       (mlx5's core-direct is provider-specific), so the channel posts that loop-back add when it
 *       reaps the operation's completion: the counter counts operations the NIC finished
 *       (acknowledged by the peer), never one still in flight or failed;</li>
 *   <li>the old values atomics return land in a sink registered zero-based with
 *       {@code ibv_reg_mr_iova2} (iova 0) and are discarded; without {@code ibv_reg_mr_iova2}
 *       the sink is registered at its own address ({@link #sinkIsZeroBased()} tells which).</li>
 * </ul>
 *
 * <pre>{@code
 * OneSidedChannel channel = OneSidedChannel.open(qp);       // qp: RC, connected, in RTS
 * RemoteWindow ring = RemoteWindow.open(WindowDescriptor.fromBytes(peerBytes));
 * RemoteSlot arrived = ring.slot(0);
 * channel.putWithSignal(ring, 64, records, 0, 512, arrived, 1);   // data, then the fenced add
 * // the peer: channel.waitSignal(window.slot(0), n, Duration.ofSeconds(5));
 * }</pre>
 *
 * <p><b>Tickets and progress.</b> Each operation returns a ticket (a {@code long}, no object):
 * {@link #isComplete(long)} and {@link #waitLocal(long, Duration)} say when its source memory
 * may be reused. Only the last request of an operation is signaled. The channel polls the queue
 * pair's send completion queue (give it one of its own) when a post finds the send queue full,
 * in every wait, and in {@link #progress()}; counters advance then. Requests are preallocated
 * and the operations create no objects (windows and slots are made once by the caller);
 * {@code OneSidedBench} in the benchmarks module measures the bytes and the time per
 * {@code putWithSignal} against the same requests posted by hand.
 *
 * <p><b>Failures.</b> The first failed completion (remote access error, retry exceeded when the
 * peer is gone, the flushes that follow) is recorded: every later operation and every wait then
 * throws {@link ChannelFailedException} with its status. Waits take a timeout and throw
 * {@link WaitTimeoutException} naming the slot and the value last seen; a post that finds no room
 * for the post timeout does too. Nothing waits for ever. (A peer that disappears fails the
 * operations only if the queue pair's {@code retry_cnt} is below 7, which rxe treats as infinite.)
 *
 * <p>Waits spin for up to 200 us (an operation usually completes well within that), then park
 * with growing back-off up to 1 ms, so a waiting virtual thread holds its carrier for at most
 * the spin.
 *
 * <p><b>Threads and closing.</b> One thread at a time drives a channel (posts, progress, waits).
 * {@link #close()} is safe from any thread, at any time: it refuses new calls, ends the calls
 * under way at their next round (a wait polls at least every millisecond) with
 * {@link ChannelClosedException}, waits until they have left, and only then frees the companion
 * queue pair, its completion queue, the sink and the preallocated requests, so no memory is freed
 * under a thread inside {@code ibv_poll_cq} or {@code ibv_post_send}. A call made after close
 * throws {@link IllegalStateException}. Closing a {@link Window} ends a wait on one of its slots
 * the same way. The channel does not close the caller's queue pair.
 */
public final class OneSidedChannel implements AutoCloseable {
    /** How long a post waits for room in the send queue unless told otherwise. */
    public static final Duration DEFAULT_POST_TIMEOUT = Duration.ofSeconds(30);

    private final QueuePair qp;
    private final Arena arena = Arena.ofShared();
    /** Calls under way and the closed bit: close frees the arena only once every call has left. */
    private final CloseGate gate = new CloseGate(this);
    private final Duration postTimeout;
    private final SendTracker tracker;
    private final ChannelRequests requests;
    private final Companion companion;
    private final CounterBumps counters;
    private final Waits waits;

    private OneSidedChannel(QueuePair qp, Duration postTimeout, long postTimeoutNanos) {
        try {
            tracker = new SendTracker(qp, arena, gate, this::reaped);
            requests = new ChannelRequests(qp.protectionDomain(), arena, tracker.ringSize(),
                    qp.capabilities().maxInlineData() >= Slots.SLOT_BYTES);
            try {
                companion = new Companion(qp, requests.sink, arena, gate);
                counters = new CounterBumps(companion, tracker.ringSize(), postTimeoutNanos);
                waits = new Waits(tracker, companion);
            } catch (RuntimeException e) {
                requests.close();
                throw e;
            }
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
        this.qp = qp;
        this.postTimeout = postTimeout;
    }

    /**
     * A channel over {@code qp} with the {@link #DEFAULT_POST_TIMEOUT}.
     *
     * @param qp an RC queue pair, connected to the peer and in RTS, with remote atomic access
     * @return the channel
     * @throws IllegalArgumentException if {@code qp} is not RC
     * @throws dev.panamaverbs.VerbsException if creating the companion queue pair or the sink fails
     */
    public static OneSidedChannel open(QueuePair qp) {
        return open(qp, DEFAULT_POST_TIMEOUT);
    }

    /**
     * A channel over {@code qp}: creates the companion queue pair (same protection domain, port
     * and GID, connected to itself), the atomic sink and the preallocated requests.
     *
     * @param qp an RC queue pair, connected to the peer and in RTS, with remote atomic access
     * @param postTimeout how long a post waits at most for room in the send queue (zero: a post
     *        that finds no room fails at once; see the deadline rule in {@code docs/safety.md})
     * @return the channel
     * @throws IllegalArgumentException if {@code qp} is not RC or the timeout is negative
     * @throws VerbsUnsupportedException if the device is iWARP or has no atomics (before any queue pair is made)
     * @throws dev.panamaverbs.VerbsException if creating the companion queue pair or the sink fails
     */
    public static OneSidedChannel open(QueuePair qp, Duration postTimeout) {
        Objects.requireNonNull(qp, "qp");
        long postTimeoutNanos = Deadline.timeoutNanos("OneSidedChannel.open", postTimeout); // null and negative refused here
        if (qp.type() != QueuePairType.RC) {
            throw new IllegalArgumentException("one-sided operations need an RC queue pair, not " + qp.type());
        }
        Context context = qp.protectionDomain().context();
        Optional<String> unsupported = unsupportedBecause(context.device(), context.maxAttributes().atomicCapability());
        if (unsupported.isPresent()) {
            throw new VerbsUnsupportedException("OneSidedChannel.open", unsupported.get());
        }
        return new OneSidedChannel(qp, postTimeout, postTimeoutNanos);
    }

    /**
     * Why a channel cannot run on {@code device}, or empty: its companion queue pair connects to
     * itself with {@code ibv_modify_qp}, which an iWARP device refuses (only its connection
     * manager connects its queue pairs), and signals and counters are RDMA atomics.
     *
     * @param device the main queue pair's device
     * @param atomics its {@code atomic_cap}
     * @return the reason, naming the device and the reported value
     */
    static Optional<String> unsupportedBecause(Device device, AtomicCapability atomics) {
        if (device.transportType() == TransportType.IWARP) {
            return Optional.of(device.name() + " is an iWARP device: the channel's companion queue pair connects to itself"
                    + " with ibv_modify_qp, and iWARP queue pairs connect only through rdma_cm");
        }
        if (atomics == AtomicCapability.NONE) {
            return Optional.of(device.name() + " reports atomic_cap NONE: the channel's signals and counters are RDMA atomics");
        }
        return Optional.empty();
    }

    // ---- operations ----

    /**
     * RDMA WRITE of {@code length} bytes at {@code srcOffset} of {@code src} to {@code dstOffset} of {@code dst}.
     *
     * @param dst the peer's window
     * @param dstOffset where the bytes land in it
     * @param src the local window holding the bytes (registered in the queue pair's protection domain)
     * @param srcOffset where they start in it
     * @param length how many bytes
     * @return the operation's ticket
     * @throws IndexOutOfBoundsException if a range is outside its window
     * @throws ChannelFailedException if the channel has failed
     * @throws WaitTimeoutException if the send queue stays full for the post timeout
     */
    public long put(RemoteWindow dst, long dstOffset, Window src, long srcOffset, int length) {
        gate.enter("put");
        try {
            reserve(1, "put");
            return post(requests.put(dst, dstOffset, src, srcOffset, length), 1);
        } finally {
            gate.exit();
        }
    }

    /**
     * An atomic fetch-and-add of {@code delta} on the peer's {@code slot} (the old value goes to the sink).
     *
     * @param slot the peer's signal slot
     * @param delta what to add
     * @param fence whether to set {@code IBV_SEND_FENCE}: the add waits for earlier requests of the queue
     * @return the operation's ticket
     * @throws ChannelFailedException if the channel has failed
     * @throws WaitTimeoutException if the send queue stays full for the post timeout
     */
    public long signal(RemoteSlot slot, long delta, boolean fence) {
        gate.enter("signal");
        try {
            reserve(1, "signal");
            return post(requests.add(slot, delta, fence), 1);
        } finally {
            gate.exit();
        }
    }

    /**
     * Sets the peer's {@code slot} to {@code value} with an 8-byte RDMA WRITE (inline where the
     * queue pair allows). Not atomic with concurrent adds to the same slot.
     *
     * @param slot the peer's signal slot
     * @param value the new value
     * @param fence whether to set {@code IBV_SEND_FENCE}
     * @return the operation's ticket
     * @throws ChannelFailedException if the channel has failed
     * @throws WaitTimeoutException if the send queue stays full for the post timeout
     */
    public long setSignal(RemoteSlot slot, long value, boolean fence) {
        gate.enter("setSignal");
        try {
            reserve(1, "setSignal");
            return post(requests.set(slot, value, fence, tracker.nextTicket()), 1);
        } finally {
            gate.exit();
        }
    }

    /**
     * Resets the peer's {@code slot} to 0: an inline RDMA WRITE, because signals change only
     * through RDMA. Ordered after this channel's earlier puts and signals (RC executes in order).
     *
     * @param slot the peer's signal slot
     * @return the operation's ticket
     * @throws ChannelFailedException if the channel has failed
     * @throws WaitTimeoutException if the send queue stays full for the post timeout
     */
    public long resetSignal(RemoteSlot slot) {
        return setSignal(slot, 0, false);
    }

    /**
     * {@link #put put} then a <b>fenced</b> {@link #signal signal}, posted as one chain: the peer
     * sees the signal only once all of the data is visible.
     *
     * @param dst the peer's window
     * @param dstOffset where the bytes land in it
     * @param src the local window holding the bytes
     * @param srcOffset where they start in it
     * @param length how many bytes
     * @param slot the peer's signal slot
     * @param delta what to add to it
     * @return the operation's ticket
     * @throws IndexOutOfBoundsException if a range is outside its window
     * @throws ChannelFailedException if the channel has failed
     * @throws WaitTimeoutException if the send queue stays full for the post timeout
     */
    public long putWithSignal(RemoteWindow dst, long dstOffset, Window src, long srcOffset, int length,
            RemoteSlot slot, long delta) {
        return putWithSignal(dst, dstOffset, src, srcOffset, length, slot, delta, true);
    }

    /**
     * {@link #putWithSignal(RemoteWindow, long, Window, long, int, RemoteSlot, long)} with the
     * fence chosen: without it the signal relies on the transport's in-order execution alone.
     *
     * @param dst the peer's window
     * @param dstOffset where the bytes land in it
     * @param src the local window holding the bytes
     * @param srcOffset where they start in it
     * @param length how many bytes
     * @param slot the peer's signal slot
     * @param delta what to add to it
     * @param fence whether the signal carries {@code IBV_SEND_FENCE}
     * @return the operation's ticket
     * @throws IndexOutOfBoundsException if a range is outside its window
     * @throws ChannelFailedException if the channel has failed
     * @throws WaitTimeoutException if the send queue stays full for the post timeout
     */
    public long putWithSignal(RemoteWindow dst, long dstOffset, Window src, long srcOffset, int length,
            RemoteSlot slot, long delta, boolean fence) {
        gate.enter("putWithSignal");
        try {
            reserve(2, "putWithSignal");
            return post(requests.putThenAdd(dst, dstOffset, src, srcOffset, length, slot, delta, fence), 2);
        } finally {
            gate.exit();
        }
    }

    /**
     * {@link #putWithSignal putWithSignal}, then, once the NIC finished both, 1 added to the
     * local {@code counter} by a loop-back atomic on the companion queue pair.
     *
     * @param dst the peer's window
     * @param dstOffset where the bytes land in it
     * @param src the local window holding the bytes
     * @param srcOffset where they start in it
     * @param length how many bytes
     * @param slot the peer's signal slot
     * @param delta what to add to it
     * @param counter a slot of a local window in the queue pair's protection domain
     * @return the operation's ticket
     * @throws IllegalArgumentException if {@code counter} is in another protection domain
     * @throws IndexOutOfBoundsException if a range is outside its window
     * @throws ChannelFailedException if the channel has failed
     * @throws WaitTimeoutException if the send queue stays full for the post timeout
     */
    public long putWithSignalAndCounter(RemoteWindow dst, long dstOffset, Window src, long srcOffset, int length,
            RemoteSlot slot, long delta, SignalSlot counter) {
        return putWithSignalAndCounter(dst, dstOffset, src, srcOffset, length, slot, delta, counter, true);
    }

    /**
     * {@link #putWithSignalAndCounter(RemoteWindow, long, Window, long, int, RemoteSlot, long, SignalSlot)}
     * with the signal's fence chosen.
     *
     * @param dst the peer's window
     * @param dstOffset where the bytes land in it
     * @param src the local window holding the bytes
     * @param srcOffset where they start in it
     * @param length how many bytes
     * @param slot the peer's signal slot
     * @param delta what to add to it
     * @param counter a slot of a local window in the queue pair's protection domain
     * @param fence whether the signal carries {@code IBV_SEND_FENCE}
     * @return the operation's ticket
     * @throws IllegalArgumentException if {@code counter} is in another protection domain
     * @throws IndexOutOfBoundsException if a range is outside its window
     * @throws ChannelFailedException if the channel has failed
     * @throws WaitTimeoutException if the send queue stays full for the post timeout
     */
    public long putWithSignalAndCounter(RemoteWindow dst, long dstOffset, Window src, long srcOffset, int length,
            RemoteSlot slot, long delta, SignalSlot counter, boolean fence) {
        companion.checkDomain(counter);
        long ticket = putWithSignal(dst, dstOffset, src, srcOffset, length, slot, delta, fence);
        counters.record(ticket, counter);
        return ticket;
    }

    /**
     * A fenced {@link #signal signal}, then, once the NIC finished it, 1 added to the local
     * {@code counter} by a loop-back atomic on the companion queue pair.
     *
     * @param slot the peer's signal slot
     * @param delta what to add to it
     * @param counter a slot of a local window in the queue pair's protection domain
     * @return the operation's ticket
     * @throws IllegalArgumentException if {@code counter} is in another protection domain
     * @throws ChannelFailedException if the channel has failed
     * @throws WaitTimeoutException if the send queue stays full for the post timeout
     */
    public long signalWithCounter(RemoteSlot slot, long delta, SignalSlot counter) {
        companion.checkDomain(counter);
        long ticket = signal(slot, delta, true);
        counters.record(ticket, counter);
        return ticket;
    }

    /** Fails if the channel failed; waits (progressing) until {@code count} requests fit in the send queue. */
    private void reserve(int count, String what) {
        waits.throwIfFailed(what);
        if (!tracker.hasRoom(count)) {
            waits.awaitRoom(count, what, postTimeout);
        }
    }

    /** Posts the filled chain {@code head} of {@code count} requests after {@link #reserve}. */
    private long post(SendWorkRequest head, int count) {
        requests.last.wrId(tracker.nextTicket());
        return tracker.post(head, count);
    }

    /**
     * Sets the local {@code counter} to 0 through the companion queue pair (an inline loop-back
     * RDMA WRITE: counters, like signals, change only through the NIC). Waits until every
     * operation posted so far completed, so no add of theirs lands after the reset.
     *
     * @param counter a slot of a local window in the queue pair's protection domain
     * @param timeout how long to wait at most
     * @throws IllegalArgumentException if {@code counter} is in another protection domain
     * @throws ChannelFailedException if the channel failed
     * @throws IllegalArgumentException if {@code timeout} is negative (null: NullPointerException;
     *         zero checks once; see the deadline rule in {@code docs/safety.md})
     * @throws WaitTimeoutException when the timeout passes
     * @throws InterruptedException if the thread is interrupted while parked
     * @throws ChannelClosedException if another thread closes the channel meanwhile
     * @throws IllegalStateException if the channel is closed
     */
    public void resetCounter(SignalSlot counter, Duration timeout) throws InterruptedException {
        companion.checkDomain(counter);
        long deadline = Deadline.start("OneSidedChannel.resetCounter", timeout);
        gate.enter("resetCounter");
        try {
            waits.throwIfFailed("resetCounter");
            waits.awaitTicket(tracker.nextTicket() - 1, deadline, timeout);
            counters.reset(counter, deadline, timeout);
        } finally {
            gate.exit();
        }
    }

    /** The tracker's listener: operations {@code (from, to]} completed. */
    private void reaped(long from, long to) {
        counters.reaped(from, to);
    }

    // ---- waits ----

    /**
     * Reaps what completed on the queue pair and the companion, posting the counter adds of
     * finished operations. The waits call it; call it to advance counters without waiting.
     *
     * @return how many completions were reaped
     * @throws ChannelClosedException if another thread closes the channel meanwhile
     * @throws IllegalStateException if the channel is closed
     */
    public int progress() {
        gate.enter("progress");
        try {
            return waits.poll();
        } finally {
            gate.exit();
        }
    }

    /**
     * Whether operation {@code ticket} completed successfully (its source memory may be reused).
     * Does not poll: see {@link #progress()}.
     *
     * @param ticket an operation's ticket
     * @return true once it completed
     */
    public boolean isComplete(long ticket) {
        return tracker.isComplete(ticket);
    }

    /**
     * Waits until operation {@code ticket} completed.
     *
     * @param ticket an operation's ticket
     * @param timeout how long to wait at most
     * @throws ChannelFailedException if the channel failed (this operation or an earlier one)
     * @throws IllegalArgumentException if {@code timeout} is negative (null: NullPointerException;
     *         zero checks once; see the deadline rule in {@code docs/safety.md})
     * @throws WaitTimeoutException when the timeout passes, with the last completed ticket
     * @throws InterruptedException if the thread is interrupted while parked
     * @throws ChannelClosedException if another thread closes the channel meanwhile
     * @throws IllegalStateException if the channel or the slot's window is closed
     */
    public void waitLocal(long ticket, Duration timeout) throws InterruptedException {
        long deadline = Deadline.start("OneSidedChannel.waitLocal", timeout);
        gate.enter("waitLocal");
        try {
            waits.awaitTicket(ticket, deadline, timeout);
        } finally {
            gate.exit();
        }
    }

    /**
     * The current value of a local signal slot ({@link SignalSlot#read()}).
     *
     * @param slot a local signal slot of this channel
     * @return its value
     */
    public long readSignal(SignalSlot slot) {
        return slot.read();
    }

    /**
     * Waits until the local {@code slot}, which the peer signals, reaches {@code atLeast} (signed compare).
     *
     * @param slot a local signal slot of this channel
     * @param atLeast the value to wait for
     * @param timeout how long to wait at most
     * @return the value seen, at least {@code atLeast}
     * @throws ChannelFailedException if the channel failed meanwhile
     * @throws IllegalArgumentException if {@code timeout} is negative (null: NullPointerException;
     *         zero checks once; see the deadline rule in {@code docs/safety.md})
     * @throws WaitTimeoutException when the timeout passes, naming the slot and its last value
     * @throws InterruptedException if the thread is interrupted while parked
     * @throws ChannelClosedException if another thread closes the channel, or the slot's window, meanwhile
     * @throws IllegalStateException if the channel or the slot's window is closed
     */
    public long waitSignal(SignalSlot slot, long atLeast, Duration timeout) throws InterruptedException {
        return awaitSlot(slot, atLeast, Deadline.start("OneSidedChannel.waitSignal", timeout), timeout, "signal", "waitSignal");
    }

    /**
     * Waits until the local {@code counter} reaches {@code atLeast}, reaping completions (and so
     * posting counter adds) meanwhile.
     *
     * @param counter the counter slot given to the counted operations
     * @param atLeast the value to wait for
     * @param timeout how long to wait at most
     * @return the value seen, at least {@code atLeast}
     * @throws ChannelFailedException if the channel failed meanwhile
     * @throws IllegalArgumentException if {@code timeout} is negative (null: NullPointerException;
     *         zero checks once; see the deadline rule in {@code docs/safety.md})
     * @throws WaitTimeoutException when the timeout passes, naming the slot and its last value
     * @throws InterruptedException if the thread is interrupted while parked
     * @throws ChannelClosedException if another thread closes the channel, or the slot's window, meanwhile
     * @throws IllegalStateException if the channel is closed
     */
    public long waitCounter(SignalSlot counter, long atLeast, Duration timeout) throws InterruptedException {
        return awaitSlot(counter, atLeast, Deadline.start("OneSidedChannel.waitCounter", timeout), timeout, "counter",
                "waitCounter");
    }

    /** A wait on a local slot: refused when its window is closed, ended when it closes meanwhile. */
    private long awaitSlot(SignalSlot slot, long atLeast, long deadline, Duration timeout, String kind, String method)
            throws InterruptedException {
        gate.enter(method);
        try {
            Window window = slot.window();
            if (window.isClosed()) {
                throw new IllegalStateException("waiting for " + kind + " " + slot + ": the window is closed");
            }
            try {
                return waits.awaitSlot(slot, atLeast, deadline, timeout, kind);
            } catch (IllegalStateException e) {
                if (window.isClosed()) { // the read of the slot failed because another thread closed the window
                    throw new ChannelClosedException("waiting for " + kind + " " + slot, window, e);
                }
                throw e;
            }
        } finally {
            gate.exit();
        }
    }

    // ---- state ----

    /**
     * The first failed completion, if any.
     *
     * @return the failure that fails every operation and wait, or empty
     */
    public Optional<CompletionFailedException> failure() {
        return Optional.ofNullable(waits.firstFailure());
    }

    /**
     * Whether the atomic sink is zero-based ({@code ibv_reg_mr_iova2} at iova 0) rather than the
     * fallback registered at its own address.
     *
     * @return true for the zero-based sink
     */
    public boolean sinkIsZeroBased() {
        return requests.sink.iova() == 0;
    }

    /**
     * The RC queue pair the channel posts on.
     *
     * @return the caller's queue pair
     */
    public QueuePair queuePair() {
        return qp;
    }

    /**
     * Closes the companion queue pair and its completion queue, the sink and the scratch region,
     * once the calls under way on other threads have left (they end with
     * {@link ChannelClosedException}); idempotent and safe from any thread. A close that finds
     * another thread closing returns once that close has finished.
     */
    @Override
    public void close() {
        if (!gate.beginClose()) {
            return;
        }
        try {
            gate.awaitUsesDone();
            try {
                companion.close();
            } finally {
                try {
                    requests.close();
                } finally {
                    arena.close();
                }
            }
        } finally {
            gate.endClose();
        }
    }

    /**
     * Whether {@link #close()} has begun.
     *
     * @return true once closed
     */
    public boolean isClosed() {
        return gate.isClosed();
    }

    @Override
    public String toString() {
        return "OneSidedChannel[" + qp + (gate.isClosed() ? ", closed" : "") + "]";
    }
}
