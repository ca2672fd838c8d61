package dev.panamaverbs.onesided;

import dev.panamaverbs.CompletionFailedException;
import dev.panamaverbs.internal.Deadline;
import java.time.Duration;

/**
 * The channel's progress and its waits: reaping the main queue and the companion, the first
 * failed completion of either, and the loops that wait for room, an operation or a slot, each
 * bounded by a {@link Deadline} and failing as soon as a failure is recorded. Each checks once
 * before it looks at the deadline, so a zero timeout is one non-blocking check. Allocation-free until it
 * throws. Not thread-safe.
 *
 * <p>Past the spin, a wait for the channel's own operations (room, a ticket) parks on the send
 * completion queue's completion channel when it has one (through the poller); a wait for a slot
 * the peer changes spins and backs off ({@link Pause}), because nothing raises an event for it.
 */
final class Waits {
    /**
     * The longest single park on the send completion queue's channel: a completion wakes the
     * waiter at once; the slice only bounds how late it notices the channel's close (no event).
     */
    static final Duration CHANNEL_SLICE = Duration.ofNanos(Pause.MAX_PARK_NANOS);

    private final SendTracker main;
    private final Companion companion;

    Waits(SendTracker main, Companion companion) {
        this.main = main;
        this.companion = companion;
    }

    /** Reaps the main queue, and the companion's when it has requests in flight (counter adds, resets). */
    int poll() {
        int n = main.poll();
        return companion.isIdle() ? n : n + companion.poll();
    }

    CompletionFailedException firstFailure() {
        CompletionFailedException failure = main.failure();
        return failure != null ? failure : companion.failure();
    }

    /** @throws ChannelFailedException once a completion failed (a close ends waits through the channel's gate) */
    void throwIfFailed(String what) {
        CompletionFailedException failure = firstFailure();
        if (failure != null) {
            throw new ChannelFailedException(what, failure);
        }
    }

    /**
     * Polls until {@code count} requests fit in the main send queue, for at most {@code timeout}
     * (checked when the channel opened); ignores interrupts (the flag stays set).
     */
    void awaitRoom(int count, String what, Duration timeout) {
        long start = System.nanoTime();
        long deadline = Deadline.start(what, timeout);
        while (!main.hasRoom(count)) {
            poll();
            throwIfFailed(what);
            if (Deadline.expired(deadline)) {
                throw new WaitTimeoutException(what + ": room in the send queue of " + main.queuePair(),
                        main.nextTicket() - 1, main.completedTicket(), timeout);
            }
            spinOrAwaitCompletion(start);
        }
    }

    /**
     * As {@link Pause#spinOrPark}, but past the spin, when the send completion queue has a
     * completion channel, parks on it (through the poller) until a completion event or
     * {@link #CHANNEL_SLICE}; an interrupt leaves the flag set, as a post's wait does.
     */
    private void spinOrAwaitCompletion(long start) {
        if (!main.hasCompletionChannel() || Thread.currentThread().isInterrupted()
                || Pause.parkNanos(System.nanoTime() - start) == 0) {
            Pause.spinOrPark(start);
            return;
        }
        try {
            main.awaitAndPoll(CHANNEL_SLICE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * As {@link Pause#pause}, but past the spin, when the send completion queue has a completion
     * channel, parks on it (through the poller) until a completion event or {@link #CHANNEL_SLICE}.
     */
    private void pauseOrAwaitCompletion(long start) throws InterruptedException {
        if (!main.hasCompletionChannel() || Pause.parkNanos(System.nanoTime() - start) == 0) {
            Pause.pause(start);
            return;
        }
        main.awaitAndPoll(CHANNEL_SLICE);
    }

    /** Polls until operation {@code ticket} of the main queue completed, until {@code deadline} (of {@code timeout}). */
    void awaitTicket(long ticket, long deadline, Duration timeout) throws InterruptedException {
        long start = System.nanoTime();
        while (true) {
            poll();
            if (main.isComplete(ticket)) {
                return;
            }
            if (firstFailure() != null) {
                throwIfFailed("waiting for operation " + ticket); // the message is built only to throw
            }
            if (Deadline.expired(deadline)) {
                throw new WaitTimeoutException("operation " + ticket + " on " + main.queuePair(), ticket,
                        main.completedTicket(), timeout);
            }
            pauseOrAwaitCompletion(start);
        }
    }

    /**
     * Polls until {@code slot} holds at least {@code atLeast}, until {@code deadline} (of
     * {@code timeout}); {@code kind} names it ("signal", "counter").
     */
    long awaitSlot(SignalSlot slot, long atLeast, long deadline, Duration timeout, String kind) throws InterruptedException {
        long start = System.nanoTime();
        while (true) {
            long value = slot.read();
            if (value >= atLeast) {
                return value;
            }
            poll();
            CompletionFailedException failure = firstFailure();
            if (failure != null) {
                throw new ChannelFailedException("waiting for " + kind + " " + slot + " to reach " + atLeast
                        + " (last value seen " + value + ")", failure);
            }
            if (Deadline.expired(deadline)) {
                throw new WaitTimeoutException(kind + " " + slot, atLeast, slot.read(), timeout);
            }
            // The peer's atomic or write lands in memory with no completion, no event on this side:
            // nothing to park on, so spin, then back off (docs/poller.md, "One-sided waits").
            Pause.pause(start);
        }
    }
}
