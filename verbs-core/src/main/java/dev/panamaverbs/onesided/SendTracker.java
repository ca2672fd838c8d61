package dev.panamaverbs.onesided;

import dev.panamaverbs.CompletionFailedException;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.SendWorkRequest;
import dev.panamaverbs.internal.CloseGate;
import java.lang.foreign.Arena;
import java.time.Duration;

/**
 * One queue pair's send queue as the channel drives it: operations are numbered by tickets
 * (1, 2, ...) carried as {@code wr_id}; only the last request of an operation is signaled, and
 * on RC its completion means every earlier request of the queue completed too. The tracker
 * counts requests in flight so a post never overruns the queue, reaps completions, and records
 * the first failed one. Every poll first checks the channel's {@link CloseGate}: a wait under way
 * when another thread closes the channel ends at its next round with {@link ChannelClosedException}.
 * Allocation-free except when recording a failure. Not thread-safe.
 */
final class SendTracker {
    /** Told, in ticket order, which operations completed. */
    interface ReapListener {
        /** Operations {@code (fromExclusive, toInclusive]} completed successfully. */
        void reaped(long fromExclusive, long toInclusive);
    }

    private final QueuePair qp;
    private final CompletionQueue cq;
    private final Completions completions;
    private final ReapListener listener;
    private final CloseGate gate;
    private final int depth;
    private final int mask;
    /** For ticket t: how many requests had been posted once t was (at index t & mask). */
    private final long[] postedAt;
    private long nextTicket = 1;
    private long completedTicket;
    private long posted;
    private long completed;
    private CompletionFailedException failure;
    /** Whether the send CQ has a completion channel, so a wait can park on it (read once: {@code channel()} makes an Optional). */
    private final boolean hasChannel;

    SendTracker(QueuePair qp, Arena arena, CloseGate gate, ReapListener listener) {
        this.gate = gate;
        this.qp = qp;
        this.cq = qp.sendCompletionQueue();
        this.depth = Math.max(1, qp.capabilities().maxSendWorkRequests());
        int ring = Integer.highestOneBit(depth) == depth ? depth : Integer.highestOneBit(depth) << 1;
        this.mask = ring - 1;
        this.postedAt = new long[ring];
        this.completions = Completions.allocate(arena, Math.min(depth, 64));
        this.listener = listener;
        this.hasChannel = cq.channel().isPresent();
    }

    QueuePair queuePair() {
        return qp;
    }

    /** The ticket ring's size: a power of two at least the send queue's depth. */
    int ringSize() {
        return mask + 1;
    }

    /** The ticket the next operation gets: set it as the signaled request's wr_id before posting. */
    long nextTicket() {
        return nextTicket;
    }

    /** Whether {@code requests} more fit in the send queue now. */
    boolean hasRoom(int requests) {
        return posted - completed + requests <= depth;
    }

    /**
     * Whether every request posted has completed successfully, so polling would find nothing.
     * False from the first failure on (the failed and flushed requests are not counted as completed).
     */
    boolean isIdle() {
        return posted == completed;
    }

    /** Posts {@code head} (a chain of {@code requests}, the last signaled with {@link #nextTicket()}) and returns its ticket. */
    long post(SendWorkRequest head, int requests) {
        qp.postSend(head);
        long ticket = nextTicket++;
        posted += requests;
        postedAt[(int) (ticket & mask)] = posted;
        return ticket;
    }

    /**
     * Reaps what completed; returns how many completions were polled.
     *
     * @throws ChannelClosedException once the channel is closed (a wait under way leaves here)
     */
    int poll() {
        checkOpen();
        return reap(cq.poll(completions));
    }

    /**
     * Whether the send completion queue has a completion channel: then a wait can park on it
     * ({@link #awaitAndPoll}) instead of backing off.
     */
    boolean hasCompletionChannel() {
        return hasChannel;
    }

    /**
     * Waits for a completion event of the send completion queue for at most {@code slice}
     * ({@link CompletionQueue#awaitCompletions}: poll, arm, poll, then park on the channel, through
     * the poller unless opted out), and reaps what it polled. The slice is short and fixed so a
     * waiter still notices the channel's close, which raises no event, as soon as a back-off would.
     *
     * @throws ChannelClosedException once the channel is closed
     * @throws InterruptedException if the thread is interrupted while parked
     */
    int awaitAndPoll(Duration slice) throws InterruptedException {
        checkOpen();
        return reap(cq.awaitCompletions(completions, slice));
    }

    private void checkOpen() {
        if (gate.isClosed()) {
            throw new ChannelClosedException("polling the send completions of " + qp, gate.owner(), null);
        }
    }

    /** Takes in the {@code n} completions just polled into the batch. */
    private int reap(int n) {
        for (int i = 0; i < n; i++) {
            if (completions.isSuccess(i)) {
                long ticket = completions.wrId(i);
                if (ticket > completedTicket && ticket < nextTicket) {
                    long before = completedTicket;
                    completedTicket = ticket;
                    completed = postedAt[(int) (ticket & mask)];
                    listener.reaped(before, ticket);
                }
            } else if (failure == null) {
                try {
                    completions.throwIfFailed(i);
                } catch (CompletionFailedException e) {
                    failure = e;
                }
            }
        }
        return n;
    }

    /** Whether operation {@code ticket} completed successfully. */
    boolean isComplete(long ticket) {
        return ticket <= completedTicket;
    }

    /** The highest ticket completed so far. */
    long completedTicket() {
        return completedTicket;
    }

    /** The first failed completion, or null. */
    CompletionFailedException failure() {
        return failure;
    }
}
