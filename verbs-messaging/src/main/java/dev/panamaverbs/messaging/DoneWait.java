package dev.panamaverbs.messaging;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/** The blocking large send's wait for its DONE, bounded by the deadline the call was given. */
final class DoneWait {
    private DoneWait() {}

    /**
     * Waits for {@code done} until {@code deadline} ({@link System#nanoTime()}). Not ended by an
     * interrupt (the thread's interrupt status is set again afterwards), as the join it replaces.
     *
     * @param expired called once when the deadline passed first: ends the message (and whatever
     *                else must end) and returns the exception to throw
     * @throws MessagingException the future's failure (a {@link RendezvousException} kept as one,
     *         with this thread's stack), or what {@code expired} returned
     */
    static void await(CompletableFuture<Void> done, long deadline, Supplier<? extends RuntimeException> expired) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    done.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    throw rethrown(e.getCause());
                } catch (TimeoutException e) {
                    if (!done.isDone()) {
                        throw expired.get();
                    } // completed just now: the next get returns (or throws) its outcome
                }
            }
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
