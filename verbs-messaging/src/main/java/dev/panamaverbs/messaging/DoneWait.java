package dev.panamaverbs.messaging;

import java.util.function.Supplier;

/**
 * A large message's outcome as its blocking sender waits for it: completed once by the DONE (or
 * the channel's failure), awaited until the deadline the call was given. Reused for the sender's
 * next message once its outcome was read ({@link #reset}), so that a blocking large send
 * allocates no future per message.
 */
final class DoneWait {
    private boolean done;
    private Throwable failure;

    /** Makes the signal wait for another message (nobody else may hold it any more). */
    synchronized void reset() {
        done = false;
        failure = null;
    }

    /** Ends the wait: {@code cause} null for a DONE with status OK, else the message's failure. Once. */
    synchronized void complete(Throwable cause) {
        if (!done) {
            done = true;
            failure = cause;
            notifyAll();
        }
    }

    synchronized boolean isDone() {
        return done;
    }

    /**
     * Waits for the outcome until {@code deadline} ({@link System#nanoTime()}). Not ended by an
     * interrupt (the thread's interrupt status is set again afterwards), as the join it replaces.
     *
     * @param expired called once when the deadline passed first: ends the message (and whatever
     *                else must end) and returns the exception to throw
     * @throws MessagingException the message's failure (a {@link RendezvousException} kept as one,
     *         with this thread's stack), or what {@code expired} returned
     */
    void await(long deadline, Supplier<? extends RuntimeException> expired) {
        boolean interrupted = false;
        try {
            synchronized (this) {
                while (!done) {
                    try {
                        if (!MonitorWaits.waitUntil(this, deadline)) {
                            break;
                        }
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
                if (done) {
                    if (failure != null) {
                        throw rethrown(failure);
                    }
                    return;
                }
            }
            throw expired.get(); // outside the lock: expiring fails the channel, which completes this
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static RuntimeException rethrown(Throwable cause) {
        if (cause instanceof RendezvousException r) {
            return new RendezvousException(r.getMessage(), r.status(), r.messageId(), r);
        }
        if (cause instanceof MessagingException m) {
            return new MessagingException(m.getMessage(), m);
        }
        return cause instanceof RuntimeException e ? e : new MessagingException("send: " + cause, cause);
    }
}
