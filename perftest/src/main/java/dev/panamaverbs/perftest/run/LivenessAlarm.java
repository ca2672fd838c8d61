package dev.panamaverbs.perftest.run;

import java.time.Duration;

/**
 * perftest's liveness alarm on the SEND bandwidth server ({@code check_alive}, armed by
 * {@code run_iter_bw_server} in iteration mode): it rings every period (perftest's 60 s); at a
 * ring that finds more messages received than at the last one it is set again, at one that finds
 * none since and the run not done the server gives up, says so with perftest's text and reports
 * what it received. So a server whose datagrams were lost on UD stops between one and two periods
 * after the last arrival instead of waiting for ever. The clock is the caller's
 * ({@link System#nanoTime}), so a test can drive it with a short period.
 */
public final class LivenessAlarm {
    /** perftest's {@code alarm(60)}. */
    public static final Duration PERFTEST_PERIOD = Duration.ofSeconds(60);

    private final long periodNanos;
    private long nextRing;
    private long receivedAtLastRing;

    public LivenessAlarm(Duration period) {
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("the liveness alarm's period must be positive: " + period);
        }
        this.periodNanos = period.toNanos();
    }

    /** perftest's period, shortened to the twin's {@code --timeout} when that is shorter: no wait outlasts two of them. */
    public static LivenessAlarm bounded(Duration timeout) {
        return new LivenessAlarm(timeout.compareTo(PERFTEST_PERIOD) < 0 ? timeout : PERFTEST_PERIOD);
    }

    /** Arms the alarm at the start of a run ({@code alarm(60)}), nothing received yet. */
    public void start(long nowNanos) {
        nextRing = nowNanos + periodNanos;
        receivedAtLastRing = 0;
    }

    /** When the alarm rings next (nanoTime). */
    public long nextRingNanos() {
        return nextRing;
    }

    /**
     * The alarm rings at {@code nowNanos} with {@code received} of {@code required} messages in:
     * true when the server gives up (nothing arrived since the last ring and the run is not
     * done); otherwise it is set again one period on.
     */
    public boolean ring(long nowNanos, long received, long required) {
        if (received == receivedAtLastRing && received < required) {
            return true;
        }
        receivedAtLastRing = received;
        nextRing = nowNanos + periodNanos;
        return false;
    }

    /**
     * perftest's words when it gives up (its text names 120 seconds, two of its periods; here two
     * of this alarm's periods).
     */
    public String giveUpMessage(long received, long required) {
        return " Did not get Message for " + 2 * periodNanos / 1_000_000_000L + " Seconds, exiting..\n Total Received="
                + received + ", Total Iters Required=" + required;
    }
}
