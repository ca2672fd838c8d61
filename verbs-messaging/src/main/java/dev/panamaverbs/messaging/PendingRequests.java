package dev.panamaverbs.messaging;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The requests of one channel waiting for their responses: each has a correlation id (never 0,
 * which DATA carries), a future, and a timeout after which the future fails with a
 * {@link RequestTimeoutException} and the id is forgotten (a late response is dropped). When the
 * channel fails, every pending future fails with that failure, and later requests at once.
 */
final class PendingRequests {
    private final Outstanding<CompletableFuture<ReceivedMessage>> pending = new Outstanding<>();

    /** A new correlation id (1, 2, ...; never 0). */
    long nextId() {
        return pending.nextId();
    }

    /**
     * Registers request {@code id}; its future fails after {@code timeout}.
     *
     * @throws MessagingException when the channel already failed
     */
    CompletableFuture<ReceivedMessage> register(long id, Duration timeout, String what) {
        CompletableFuture<ReceivedMessage> future = new CompletableFuture<>();
        MessagingException failed = pending.add(id, future);
        if (failed != null) {
            pending.remove(id);
            throw failed;
        }
        long nanos = timeout.toNanos();
        CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS).execute(() -> {
            if (pending.remove(id, future)) {
                future.completeExceptionally(new RequestTimeoutException(what + ": no response to request " + id
                        + " within " + timeout));
            }
        });
        return future;
    }

    /** Forgets request {@code id} whose message was never sent, failing its future with {@code cause}. */
    void abandon(long id, RuntimeException cause) {
        CompletableFuture<ReceivedMessage> future = pending.remove(id);
        if (future != null) {
            future.completeExceptionally(cause);
        }
    }

    /**
     * The future a large request's caller gets: {@code response} once {@code read} (the request's
     * rendezvous DONE) completed too, so the caller's data is no longer read when it completes.
     * A failed {@code read} forgets the request at once and fails the result with the read's
     * failure (a response that came anyway is released).
     */
    CompletableFuture<ReceivedMessage> afterRead(long id, CompletableFuture<Void> read,
            CompletableFuture<ReceivedMessage> response) {
        CompletableFuture<ReceivedMessage> result = new CompletableFuture<>();
        read.whenComplete((ignored, readFailure) -> {
            if (readFailure != null) {
                abandon(id, readFailure instanceof RuntimeException r ? r
                        : new MessagingException("request " + id + ": " + readFailure, readFailure));
            }
            response.whenComplete((message, responseFailure) -> {
                if (readFailure != null) {
                    if (message != null) {
                        message.release();
                    }
                    result.completeExceptionally(readFailure);
                } else if (responseFailure != null) {
                    result.completeExceptionally(responseFailure);
                } else {
                    result.complete(message);
                }
            });
        });
        return result;
    }

    /** {@return true when request {@code id} was pending and its future now has {@code response}} (false: late or unknown) */
    boolean complete(long id, ReceivedMessage response) {
        CompletableFuture<ReceivedMessage> future = pending.remove(id);
        return future != null && future.complete(response);
    }

    /** {@return the requests waiting now} */
    int size() {
        return pending.size();
    }

    /** Fails every pending request, and every later one, with {@code cause}. */
    void failAll(MessagingException cause) {
        pending.failAll(cause, this::abandon);
    }
}
