package dev.panamaverbs.internal;

import dev.panamaverbs.events.PollSource;
import dev.panamaverbs.events.Poller;

/**
 * The registration of one event fd (a completion channel's, an rdma_cm channel's, a context's
 * async fd) on the shared {@link Poller}, made at its first wait and made again if someone closed
 * the shared poller meanwhile. {@link #source()} is null when the poller is opted out
 * ({@link Poller#ENABLED_PROPERTY}) or this watch is closed: the waits then poll the fd as before.
 * Its owner closes it before freeing the fd.
 */
public final class FdWatch {
    private final int fd;
    private final String name;
    private PollSource source;
    private boolean closed;

    /**
     * A watch of {@code fd}, registered on first use.
     *
     * @param fd the non-blocking fd
     * @param name names it in messages
     */
    public FdWatch(int fd, String name) {
        this.fd = fd;
        this.name = name;
    }

    /** The source to park on, registering the fd on the shared poller if needed; null when not used. */
    public synchronized PollSource source() {
        if (closed) {
            return null;
        }
        if (source == null || source.isClosed()) {
            Poller poller = Poller.shared().orElse(null);
            if (poller == null) {
                return null;
            }
            source = poller.register(fd, name);
        }
        return source;
    }

    /**
     * The source for an event handler, registered if needed.
     *
     * @param verb the call whose events the handler takes, named in the refusal
     * @throws IllegalStateException when the shared poller is opted out ({@link Poller#ENABLED_PROPERTY}) or this watch is closed
     */
    public PollSource sourceForHandler(String verb) {
        PollSource current = source();
        if (current == null) {
            throw new IllegalStateException(verb + ": an event handler needs the shared poller (" + Poller.ENABLED_PROPERTY
                    + "=false opted out, or the fd's owner is closing)");
        }
        return current;
    }

    /** The source if registered and open, else null; registers nothing. */
    public synchronized PollSource registered() {
        return source != null && !source.isClosed() ? source : null;
    }

    /** Unparks every thread parked on the fd, to look again (an event handed over, a waiter's object closed). */
    public void wakeWaiters() {
        PollSource current;
        synchronized (this) {
            current = source;
        }
        if (current != null) {
            current.wakeWaiters();
        }
    }

    /** Deregisters the fd (before its owner frees it): parked waiters end with a {@code PollerClosedException}. */
    public void close() {
        PollSource current;
        synchronized (this) {
            closed = true;
            current = source;
            source = null;
        }
        if (current != null) {
            current.close();
        }
    }
}
