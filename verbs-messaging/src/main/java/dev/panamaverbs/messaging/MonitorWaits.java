package dev.panamaverbs.messaging;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

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

    /**
     * Waits on {@code monitor} (whose lock the caller holds) until {@code done} holds, looking again
     * after each notification, until {@code deadlineNanos}. An interrupt ends the wait early, with
     * the thread's interrupt status set again, for callers that answer "not yet" rather than throw.
     *
     * @return whether {@code done} held when the wait ended
     */
    static boolean awaitCondition(Object monitor, BooleanSupplier done, long deadlineNanos) {
        while (!done.getAsBoolean()) {
            try {
                if (!waitUntil(monitor, deadlineNanos)) {
                    return done.getAsBoolean();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return done.getAsBoolean();
            }
        }
        return true;
    }
}
