package dev.panamaverbs.messaging;

/**
 * The channel's posted sends (messages, credit messages, RDMA READs) whose completions have not
 * arrived, so that {@link MessageChannel#close} can wait for them on this monitor, woken by the
 * last completion, instead of polling.
 */
final class InFlight {
    private int count;

    synchronized void posted() {
        count++;
    }

    synchronized void completed() {
        if (--count <= 0) {
            notifyAll();
        }
    }

    /** Wakes {@link #awaitNone} (the channel failed: no completion may come). */
    synchronized void wake() {
        notifyAll();
    }

    synchronized int count() {
        return count;
    }

    /**
     * Waits until nothing is in flight, {@code stop} says to give up, or the deadline.
     *
     * @return whether nothing is in flight
     */
    synchronized boolean awaitNone(long deadlineNanos, java.util.function.BooleanSupplier stop) {
        MonitorWaits.awaitCondition(this, () -> count <= 0 || stop.getAsBoolean(), deadlineNanos);
        return count <= 0;
    }
}
