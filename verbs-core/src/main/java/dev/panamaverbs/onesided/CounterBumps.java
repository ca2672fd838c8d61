package dev.panamaverbs.onesided;

import dev.panamaverbs.internal.Deadline;

/**
 * The counted operations in flight and their counters: when the channel reaps an operation's
 * completion, the companion queue pair adds 1 to its counter slot. Allocation-free. Not thread-safe.
 */
final class CounterBumps {
    private final Companion companion;
    private final long timeoutNanos;
    /** For ticket t: the counter slot to bump once t completes (null: none), at index t & mask. */
    private final SignalSlot[] counters;
    private final int mask;

    CounterBumps(Companion companion, int ringSize, long timeoutNanos) {
        this.companion = companion;
        this.counters = new SignalSlot[ringSize];
        this.mask = ringSize - 1;
        this.timeoutNanos = timeoutNanos;
    }

    /** Operation {@code ticket}, just posted, bumps {@code counter} when it completes. */
    void record(long ticket, SignalSlot counter) {
        counters[(int) (ticket & mask)] = counter;
    }

    /** Operations {@code (from, to]} completed: post the adds of those that carry a counter. */
    void reaped(long from, long to) {
        for (long t = from + 1; t <= to; t++) {
            int index = (int) (t & mask);
            SignalSlot counter = counters[index];
            if (counter != null) {
                counters[index] = null;
                if (!awaitRoom()) {
                    return; // the companion failed (recorded) or stopped answering: the waits report it
                }
                companion.add(counter, 1);
            }
        }
    }

    /** Writes 0 to {@code counter} through the companion and waits for that write to complete. */
    void reset(SignalSlot counter, long deadline, java.time.Duration timeout) throws InterruptedException {
        long start = System.nanoTime();
        while (!companion.hasRoom()) {
            companion.poll();
            checkFailure();
            if (Deadline.expired(deadline)) {
                throw new WaitTimeoutException("room in the companion queue pair", 1, 0, timeout);
            }
            Pause.pause(start);
        }
        long ticket = companion.write(counter, 0);
        start = System.nanoTime();
        while (!companion.tracker().isComplete(ticket)) {
            companion.poll();
            checkFailure();
            if (Deadline.expired(deadline)) {
                throw new WaitTimeoutException("the reset of counter " + counter, 0, counter.read(), timeout);
            }
            Pause.pause(start);
        }
    }

    private void checkFailure() {
        if (companion.failure() != null) {
            throw new ChannelFailedException("resetCounter", companion.failure());
        }
    }

    private boolean awaitRoom() {
        long start = System.nanoTime();
        long deadline = Deadline.after(timeoutNanos);
        while (!companion.hasRoom()) {
            companion.poll();
            if (companion.failure() != null || Deadline.expired(deadline)) {
                return false;
            }
            Pause.spinOrPark(start);
        }
        return true;
    }
}
