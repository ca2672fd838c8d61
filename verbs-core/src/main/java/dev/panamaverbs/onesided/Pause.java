package dev.panamaverbs.onesided;

import java.util.concurrent.locks.LockSupport;

/**
 * The waits' back-off, by time rather than by rounds: spin ({@link Thread#onSpinWait}) for the
 * first {@link #SPIN_NANOS} of a wait, then park for as long as the wait has already gone past
 * that, at least {@link #FIRST_PARK_NANOS} and at most {@link #MAX_PARK_NANOS} (so the parks
 * roughly double). The spin covers an operation on a NIC (microseconds) and a typical one on
 * SoftRoCE under emulation (about 100 us): a park costs the timer's latency (tens of microseconds
 * and more), which an operation that completes during the spin never pays. Parking unmounts a
 * virtual thread, so a wait holds a carrier for at most the spin. Allocation-free.
 */
final class Pause {
    /** How long a wait spins before its first park. */
    static final long SPIN_NANOS = 200_000;
    /** The first park, in nanoseconds. */
    static final long FIRST_PARK_NANOS = 1_000;
    /** The longest park, in nanoseconds. */
    static final long MAX_PARK_NANOS = 1_000_000;

    private Pause() {}

    /**
     * How long to park once a wait has gone on for {@code waitedNanos}: 0 (spin) within
     * {@link #SPIN_NANOS}, then the time waited past it, bounded by {@link #FIRST_PARK_NANOS}
     * and {@link #MAX_PARK_NANOS}.
     */
    static long parkNanos(long waitedNanos) {
        long past = waitedNanos - SPIN_NANOS;
        if (past < 0) {
            return 0;
        }
        return Math.min(Math.max(past, FIRST_PARK_NANOS), MAX_PARK_NANOS);
    }

    /**
     * As {@link #pause(long)}, for waits that do not answer interrupts (posts): the flag stays set.
     *
     * @return the nanoseconds parked for, 0 when it spun
     */
    static long spinOrPark(long startNanos) {
        long park = parkNanos(System.nanoTime() - startNanos);
        if (park == 0) {
            Thread.onSpinWait();
        } else {
            LockSupport.parkNanos(park);
        }
        return park;
    }

    /**
     * Pauses once in a wait that started at {@code startNanos} ({@link System#nanoTime}): spins
     * or parks as {@link #parkNanos} says. Only a park answers an interrupt.
     *
     * @return the nanoseconds parked for, 0 when it spun
     * @throws InterruptedException if the thread is interrupted after a park (the flag is cleared)
     */
    static long pause(long startNanos) throws InterruptedException {
        long park = spinOrPark(startNanos);
        if (park != 0 && Thread.interrupted()) {
            throw new InterruptedException("interrupted while waiting on a one-sided channel");
        }
        return park;
    }
}
