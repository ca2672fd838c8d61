package dev.panamaverbs.events;

import dev.panamaverbs.VerbsException;

/**
 * A wait on a {@link PollSource} ended because the source or its {@link Poller} was closed while
 * the thread waited (or before it started); a future of the source completes exceptionally with
 * it. The message names what was closed.
 */
public final class PollerClosedException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /** What was closed, e.g. {@code Poller[panamaverbs-poller]} or {@code PollSource[fd=12 ...]}. */
    private final String closed;

    /**
     * A wait ended by the close of {@code closed}.
     *
     * @param closed what was closed (a poller or a source), named in the message
     */
    public PollerClosedException(String closed) {
        super(closed + " was closed while waiting for it", null);
        this.closed = closed;
    }

    /**
     * What was closed: the poller or the source, as named in the message.
     *
     * @return the name of what was closed
     */
    public String closed() {
        return closed;
    }
}
