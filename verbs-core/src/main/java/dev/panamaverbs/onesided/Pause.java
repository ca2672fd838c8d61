package dev.panamaverbs.onesided;

import java.util.concurrent.locks.LockSupport;

/**
 * The waits' back-off: spin for a while (a signal usually arrives within microseconds), then park
 * for growing intervals up to a millisecond. Parking unmounts a virtual thread, so a waiting
 * virtual thread frees its carrier.
 */
final class Pause {
    /** Rounds spent spinning before the first park. */
    static final int SPINS = 256;
    /** The longest park, in nanoseconds. */
    static final long MAX_PARK_NANOS = 1_000_000;

    private Pause() {}

    /** As {@link #pause(int)}, for waits that do not answer interrupts (posts): the flag stays set. */
    static void spinOrPark(int round) {
        if (round < SPINS) {
            Thread.onSpinWait();
        } else {
            LockSupport.parkNanos(parkNanos(round));
        }
    }

    private static long parkNanos(int round) {
        return Math.min(1_000L << Math.min(round - SPINS, 10), MAX_PARK_NANOS);
    }

    /**
     * Pauses for round {@code round} (0, 1, 2, ... of one wait).
     *
     * @throws InterruptedException if the thread is interrupted (the flag is cleared)
     */
    static void pause(int round) throws InterruptedException {
        if (round < SPINS) {
            Thread.onSpinWait();
            return;
        }
        LockSupport.parkNanos(parkNanos(round));
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted while waiting on a one-sided channel");
        }
    }
}
