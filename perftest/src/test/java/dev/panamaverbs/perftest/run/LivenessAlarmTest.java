package dev.panamaverbs.perftest.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** perftest's {@code check_alive} rule, driven by a clock of the test's own with a 5 ms period. */
class LivenessAlarmTest {
    private static final long PERIOD = Duration.ofMillis(5).toNanos();

    @Test
    void givesUpAtTheFirstRingWhenNothingArrived() {
        LivenessAlarm alarm = new LivenessAlarm(Duration.ofMillis(5));
        alarm.start(1_000);
        assertEquals(1_000 + PERIOD, alarm.nextRingNanos());
        assertTrue(alarm.ring(alarm.nextRingNanos(), 0, 100));
    }

    @Test
    void isSetAgainWhileMessagesArriveAndGivesUpAtTheFirstRingWithoutAny() {
        LivenessAlarm alarm = new LivenessAlarm(Duration.ofMillis(5));
        alarm.start(0);
        long ring = alarm.nextRingNanos();
        assertFalse(alarm.ring(ring, 10, 100));
        assertEquals(ring + PERIOD, alarm.nextRingNanos(), "set again one period on");
        ring = alarm.nextRingNanos();
        assertFalse(alarm.ring(ring, 11, 100));
        ring = alarm.nextRingNanos();
        assertTrue(alarm.ring(ring, 11, 100), "nothing since the last ring");
    }

    @Test
    void aRunThatIsDoneNeverGivesUp() {
        LivenessAlarm alarm = new LivenessAlarm(Duration.ofMillis(5));
        alarm.start(0);
        assertFalse(alarm.ring(alarm.nextRingNanos(), 100, 100));
        assertFalse(alarm.ring(alarm.nextRingNanos(), 100, 100));
    }

    @Test
    void aNewRunStartsFromNothingReceived() {
        LivenessAlarm alarm = new LivenessAlarm(Duration.ofMillis(5));
        alarm.start(0);
        assertFalse(alarm.ring(alarm.nextRingNanos(), 7, 100));
        alarm.start(10 * PERIOD);
        assertFalse(alarm.ring(alarm.nextRingNanos(), 3, 100), "3 since the start of the new run");
    }

    @Test
    void perftestsPeriodUnlessTheTimeoutIsShorterAndPerftestsText() {
        LivenessAlarm perftest = LivenessAlarm.bounded(Duration.ofSeconds(600));
        assertEquals(" Did not get Message for 120 Seconds, exiting..\n Total Received=12, Total Iters Required=100",
                perftest.giveUpMessage(12, 100));
        LivenessAlarm bounded = LivenessAlarm.bounded(Duration.ofSeconds(10));
        bounded.start(0);
        assertEquals(Duration.ofSeconds(10).toNanos(), bounded.nextRingNanos());
        assertThrows(IllegalArgumentException.class, () -> new LivenessAlarm(Duration.ZERO));
    }
}
