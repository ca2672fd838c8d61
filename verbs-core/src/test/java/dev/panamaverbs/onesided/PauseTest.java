package dev.panamaverbs.onesided;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The waits' back-off: spin by time, then parks that grow to a cap; which pauses answer interrupts. */
class PauseTest {
    /** A wait "started" this far in the future has waited a negative time: it spins, whatever the host's load. */
    private static final long FUTURE = 1_000_000_000L;
    /** A wait started this long ago is past its spin. */
    private static final long PAST = 10 * Pause.SPIN_NANOS;

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void spinsForTheSpinTimeThenParksForTheTimePastIt() {
        assertEquals(0, Pause.parkNanos(0));
        assertEquals(0, Pause.parkNanos(Pause.SPIN_NANOS - 1));
        assertEquals(Pause.FIRST_PARK_NANOS, Pause.parkNanos(Pause.SPIN_NANOS));
        assertEquals(Pause.FIRST_PARK_NANOS, Pause.parkNanos(Pause.SPIN_NANOS + Pause.FIRST_PARK_NANOS / 2));
        assertEquals(50_000, Pause.parkNanos(Pause.SPIN_NANOS + 50_000));
        assertEquals(Pause.MAX_PARK_NANOS, Pause.parkNanos(Pause.SPIN_NANOS + 5 * Pause.MAX_PARK_NANOS));
        assertEquals(Pause.MAX_PARK_NANOS, Pause.parkNanos(Long.MAX_VALUE / 2));
    }

    @Test
    void parksRoughlyDoubleUpToTheCap() {
        long waited = Pause.SPIN_NANOS;
        long previous = 0;
        int parks = 0;
        while (previous < Pause.MAX_PARK_NANOS) {
            long park = Pause.parkNanos(waited);
            assertTrue(park >= previous && park <= Math.max(2 * previous, Pause.FIRST_PARK_NANOS),
                    "park " + park + " after " + previous);
            waited += park; // as if each park slept exactly as long as asked
            previous = park;
            parks++;
        }
        assertTrue(parks <= 12, "reached the cap after " + parks + " parks");
        assertEquals(Pause.MAX_PARK_NANOS, Pause.parkNanos(waited + Pause.MAX_PARK_NANOS));
    }

    @Test
    void aFreshWaitSpinsAndLeavesAnInterruptForLater() throws InterruptedException {
        Thread.currentThread().interrupt();
        assertEquals(0, Pause.pause(System.nanoTime() + FUTURE));
        assertTrue(Thread.currentThread().isInterrupted(), "a spin does not consume the interrupt");
    }

    @Test
    void aParkAnswersAnInterruptAndClearsIt() {
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> Pause.pause(System.nanoTime() - PAST));
        assertFalse(Thread.currentThread().isInterrupted());
    }

    @Test
    void spinOrParkParksPastTheSpinButKeepsTheInterrupt() {
        assertEquals(0, Pause.spinOrPark(System.nanoTime() + FUTURE));
        Thread.currentThread().interrupt();
        long parked = Pause.spinOrPark(System.nanoTime() - PAST);
        assertTrue(parked >= Pause.FIRST_PARK_NANOS, "parked " + parked);
        assertTrue(Thread.currentThread().isInterrupted(), "posts do not answer interrupts");
    }
}
