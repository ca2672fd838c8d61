package dev.panamaverbs.internal;

import java.time.Duration;

/**
 * The one deadline rule of every wait in the library: a call that takes a timeout turns it into
 * a deadline once, when it starts, and every read, poll, park and retry inside the call asks the
 * deadline how much time is left, so the timeout bounds the whole call, never one step of it.
 *
 * <p>The rule for the timeout given (written once here and in {@code docs/safety.md}, "Deadlines"):
 * <ul>
 *   <li>{@code null}: {@link NullPointerException} naming the call;</li>
 *   <li>negative: {@link IllegalArgumentException} naming the call, before any native call or
 *       I/O (a negative wait is a bug in the caller, not a wait that ended);</li>
 *   <li>zero: no waiting: the call checks once and answers what is ready now, else times out as
 *       it would at the end of any timeout. Where the JDK or the kernel take a timeout in whole
 *       milliseconds and read 0 as "for ever" (socket timeouts, librdmacm's resolution), the
 *       check is given 1 ms;</li>
 *   <li>{@link #FOREVER_NANOS} (about 146 years) or more, up to {@code Duration.ofSeconds(Long.MAX_VALUE)}:
 *       clamped to {@link #FOREVER_NANOS}, which is waiting for ever, without overflow.</li>
 * </ul>
 *
 * <p>A deadline is a plain {@code long} on the {@link System#nanoTime()} scale, so waits on the
 * data path stay allocation-free. Because a timeout is clamped to {@link #FOREVER_NANOS}
 * ({@code Long.MAX_VALUE / 2}), {@code deadline - System.nanoTime()} never overflows.
 */
public final class Deadline {
    /** The longest timeout: {@code Long.MAX_VALUE / 2} ns, about 146 years, which is for ever. */
    public static final long FOREVER_NANOS = Long.MAX_VALUE / 2;

    private Deadline() {}

    /**
     * {@code timeout} in nanoseconds after the rule above: clamped to {@link #FOREVER_NANOS}.
     *
     * @param call the C verb (or the Java method) that waits, for the exception messages
     * @param timeout the timeout the caller gave
     * @return the timeout in nanoseconds, 0 to {@link #FOREVER_NANOS}
     * @throws NullPointerException naming {@code call} when {@code timeout} is null
     * @throws IllegalArgumentException naming {@code call} when {@code timeout} is negative
     */
    public static long timeoutNanos(String call, Duration timeout) {
        if (timeout == null) {
            throw new NullPointerException(call + ": timeout is null");
        }
        if (timeout.isNegative()) {
            throw new IllegalArgumentException(call + ": timeout must not be negative, got " + timeout);
        }
        // Seconds first: Duration.toNanos() throws ArithmeticException past about 292 years.
        if (timeout.getSeconds() > FOREVER_NANOS / 1_000_000_000L) {
            return FOREVER_NANOS;
        }
        return Math.min(timeout.toNanos(), FOREVER_NANOS);
    }

    /**
     * Checks {@code timeout} ({@link #timeoutNanos}) and starts the deadline now.
     *
     * @param call the C verb (or the Java method) that waits, for the exception messages
     * @param timeout the timeout the caller gave
     * @return the deadline, on the {@link System#nanoTime()} scale
     */
    public static long start(String call, Duration timeout) {
        return after(timeoutNanos(call, timeout));
    }

    /**
     * The deadline of a wait of {@code timeoutNanos} starting now; {@link #FOREVER_NANOS} or more
     * (say {@code Long.MAX_VALUE}) waits for ever, a negative one is already over.
     *
     * @param timeoutNanos the timeout, already checked
     * @return the deadline, on the {@link System#nanoTime()} scale
     */
    public static long after(long timeoutNanos) {
        return System.nanoTime() + Math.max(0, Math.min(timeoutNanos, FOREVER_NANOS));
    }

    /**
     * The nanoseconds left until {@code deadline}, 0 once it passed.
     *
     * @param deadline a deadline from {@link #start} or {@link #after}
     * @return the nanoseconds left, 0 to {@link #FOREVER_NANOS}
     */
    public static long remainingNanos(long deadline) {
        return Math.max(0, deadline - System.nanoTime());
    }

    /**
     * Whether a wait with {@code remainingNanos} left waits for ever: more than half of
     * {@link #FOREVER_NANOS} (73 years) left, which only a clamped timeout has. Such a wait parks
     * without a timeout (a timed park of a virtual thread schedules a timer task at each park).
     *
     * @param remainingNanos from {@link #remainingNanos}
     * @return whether the wait has no end
     */
    public static boolean isEndless(long remainingNanos) {
        return remainingNanos > FOREVER_NANOS / 2;
    }

    /**
     * Whether {@code deadline} has passed. A zero timeout's deadline has passed by the time it is
     * asked, so a wait checks once before it asks.
     *
     * @param deadline a deadline from {@link #start} or {@link #after}
     * @return true once the time is up
     */
    public static boolean expired(long deadline) {
        return deadline - System.nanoTime() <= 0;
    }

    /**
     * The timeout for the next {@code poll(2)} (or {@code Selector.select}) of a wait: the time
     * left rounded up to whole milliseconds (so a wait never wakes just before its deadline and
     * spins), at most {@code sliceMillis}; 0 (do not block) once the deadline passed.
     *
     * @param deadline a deadline from {@link #start} or {@link #after}
     * @param sliceMillis the longest single poll, 1 or more
     * @return 0 to {@code sliceMillis}
     */
    public static int pollMillis(long deadline, int sliceMillis) {
        long left = remainingNanos(deadline);
        if (left == 0) {
            return 0;
        }
        return (int) Math.min(sliceMillis, (left + 999_999) / 1_000_000);
    }

    /**
     * The time left for a blocking call that takes whole milliseconds and reads 0 as "for ever"
     * ({@code Socket.setSoTimeout}, {@code Socket.connect}, librdmacm's {@code timeout_ms}):
     * rounded up, at least 1 (a zero timeout's one check), at most {@code Integer.MAX_VALUE}
     * (about 24 days; a wait for ever then goes on in further steps).
     *
     * @param deadline a deadline from {@link #start} or {@link #after}
     * @return 1 to {@code Integer.MAX_VALUE}
     */
    public static int blockingMillis(long deadline) {
        return Math.max(1, pollMillis(deadline, Integer.MAX_VALUE));
    }
}
