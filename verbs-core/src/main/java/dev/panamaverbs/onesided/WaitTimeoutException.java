package dev.panamaverbs.onesided;

import dev.panamaverbs.VerbsException;
import java.time.Duration;

/**
 * A wait of {@link OneSidedChannel} ran out of time: names what it waited on (a slot, or an
 * operation's ticket), the value it waited for and the value last seen.
 */
public final class WaitTimeoutException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /** The value last seen. */
    private final long lastSeen;

    /**
     * A timeout waiting for {@code target} to reach {@code awaited}.
     *
     * @param target what was waited on (a slot's description, say)
     * @param awaited the value waited for
     * @param lastSeen the value last seen
     * @param timeout how long the wait lasted
     */
    public WaitTimeoutException(String target, long awaited, long lastSeen, Duration timeout) {
        super("timed out after " + timeout + " waiting for " + target + " to reach " + awaited
                + ": last value seen " + lastSeen, null);
        this.lastSeen = lastSeen;
    }

    /**
     * The value last seen (the message also names the target and the value waited for).
     *
     * @return the value
     */
    public long lastSeen() {
        return lastSeen;
    }
}
