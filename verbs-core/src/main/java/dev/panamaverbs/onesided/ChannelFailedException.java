package dev.panamaverbs.onesided;

import dev.panamaverbs.CompletionFailedException;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.VerbsException;

/**
 * A {@link OneSidedChannel} operation or wait failed because a work completion of the channel
 * failed: a remote access error (bad rkey, out of the window), a peer that stopped answering
 * (retry exceeded), or the flush that follows either. The channel records the first failed
 * completion; from then on every operation and wait fails with it, so nothing waits for an
 * operation that will never finish. {@link #getCause()} is that completion's
 * {@link CompletionFailedException}.
 */
public final class ChannelFailedException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /** The first failed completion. */
    private final CompletionFailedException completion;

    /**
     * A failure of {@code what}, caused by the channel's first failed completion.
     *
     * @param what the operation or wait that fails, for the message
     * @param completion the first failed completion
     */
    public ChannelFailedException(String what, CompletionFailedException completion) {
        super("ibv_poll_cq", 0, what + " failed: the channel's " + completion.getMessage(), completion);
        this.completion = completion;
    }

    /**
     * The status of the first failed completion, or {@code null} if this version does not know its value.
     *
     * @return the status, e.g. {@link CompletionStatus#REM_ACCESS_ERR}
     */
    public CompletionStatus status() {
        return completion.status();
    }

    /**
     * The first failed completion.
     *
     * @return the completion's exception
     */
    public CompletionFailedException completion() {
        return completion;
    }
}
