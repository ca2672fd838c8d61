package dev.panamaverbs.onesided;

import dev.panamaverbs.CompletionFailedException;
import java.time.Duration;

/**
 * The channel's progress and its waits: reaping the main queue and the companion, the first
 * failed completion of either, and the loops that wait for room, an operation or a slot, each
 * bounded by a deadline and failing as soon as a failure is recorded. Allocation-free until it
 * throws. Not thread-safe.
 */
final class Waits {
    private final SendTracker main;
    private final Companion companion;
    private boolean closed;

    Waits(SendTracker main, Companion companion) {
        this.main = main;
        this.companion = companion;
    }

    int poll() {
        return main.poll() + companion.poll();
    }

    CompletionFailedException firstFailure() {
        CompletionFailedException failure = main.failure();
        return failure != null ? failure : companion.failure();
    }

    /** @throws IllegalStateException once closed; ChannelFailedException once a completion failed */
    void throwIfFailed(String what) {
        if (closed) {
            throw new IllegalStateException(what + ": the one-sided channel is closed");
        }
        CompletionFailedException failure = firstFailure();
        if (failure != null) {
            throw new ChannelFailedException(what, failure);
        }
    }

    void close() {
        closed = true;
    }

    boolean isClosed() {
        return closed;
    }

    /** Polls until {@code count} requests fit in the main send queue; ignores interrupts (the flag stays set). */
    void awaitRoom(int count, String what, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int round = 0; !main.hasRoom(count); round++) {
            poll();
            throwIfFailed(what);
            if (System.nanoTime() - deadline >= 0) {
                throw new WaitTimeoutException(what + ": room in the send queue of " + main.queuePair(),
                        main.nextTicket() - 1, main.completedTicket(), timeout);
            }
            Pause.spinOrPark(round);
        }
    }

    /** Polls until operation {@code ticket} of the main queue completed. */
    void awaitTicket(long ticket, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int round = 0; ; round++) {
            poll();
            if (main.isComplete(ticket)) {
                return;
            }
            if (closed || firstFailure() != null) {
                // The message only when failing: built every round, it allocated on each wait.
                throwIfFailed("waiting for operation " + ticket);
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new WaitTimeoutException("operation " + ticket + " on " + main.queuePair(), ticket,
                        main.completedTicket(), timeout);
            }
            Pause.pause(round);
        }
    }

    /** Polls until {@code slot} holds at least {@code atLeast}; {@code kind} names it ("signal", "counter"). */
    long awaitSlot(SignalSlot slot, long atLeast, Duration timeout, String kind) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int round = 0; ; round++) {
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
            if (System.nanoTime() - deadline >= 0) {
                throw new WaitTimeoutException(kind + " " + slot, atLeast, slot.read(), timeout);
            }
            Pause.pause(round);
        }
    }
}
