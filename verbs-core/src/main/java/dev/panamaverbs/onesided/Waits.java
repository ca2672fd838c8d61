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
 */
final class Waits {
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
            Pause.spinOrPark(start);
        }
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
            Pause.pause(start);
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
            Pause.pause(start);
        }
    }
}
