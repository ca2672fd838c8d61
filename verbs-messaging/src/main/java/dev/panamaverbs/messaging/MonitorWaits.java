package dev.panamaverbs.messaging;

import java.util.concurrent.TimeUnit;

/** The one timed wait on an object's monitor that the channel's queues and credit window share. */
final class MonitorWaits {
    private MonitorWaits() {}

    /**
     * Waits on {@code monitor} (whose lock the caller holds) until notified or
     * {@code deadlineNanos} ({@link System#nanoTime()}); the caller then looks again.
     *
     * @return false without waiting when the deadline has passed
     * @throws InterruptedException when interrupted while waiting
     */
    static boolean waitUntil(Object monitor, long deadlineNanos) throws InterruptedException {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            return false;
        }
        TimeUnit.NANOSECONDS.timedWait(monitor, left);
        return true;
    }
}
