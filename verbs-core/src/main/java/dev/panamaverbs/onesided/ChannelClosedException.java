package dev.panamaverbs.onesided;

import dev.panamaverbs.VerbsException;

/**
 * A {@link OneSidedChannel} operation or wait that was under way when another thread closed the
 * channel, or the {@link Window} holding the slot the wait watched. The call ends at its next
 * round (within about a millisecond) instead of at its timeout, and the channel's memory is freed
 * only once it has left. A call made after the close instead fails at once with
 * {@link IllegalStateException}, the library's exception for a closed object; a thread that races
 * its own calls with a close on another thread may see either.
 */
public final class ChannelClosedException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /**
     * {@code what} ended because {@code closed} was closed.
     *
     * @param what the operation or wait that ended, for the message
     * @param closed what was closed (the channel or the window), for the message
     * @param cause what the close made the call fail with, or {@code null}
     */
    ChannelClosedException(String what, Object closed, Throwable cause) {
        super(what + " ended: " + closed + " was closed by another thread meanwhile", cause);
    }
}
