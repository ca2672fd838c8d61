package dev.panamaverbs.messaging;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The requests of one channel waiting for their responses: each has a correlation id (never 0,
 * which DATA carries), a future, and a timeout after which the future fails with a
 * {@link RequestTimeoutException} and the id is forgotten (a late response is dropped). When the
 * channel fails, every pending future fails with that failure, and later requests at once.
 */
final class PendingRequests {
    private final AtomicLong nextId = new AtomicLong();
    private final Map<Long, CompletableFuture<ReceivedMessage>> pending = new ConcurrentHashMap<>();
    private volatile MessagingException failure;

    /** A new correlation id (1, 2, ...; 0 is skipped if the counter ever wraps). */
    long nextId() {
        long id;
        do {
            id = nextId.incrementAndGet();
        } while (id == 0);
        return id;
    }

    /**
     * Registers request {@code id}; its future fails after {@code timeout}.
     *
     * @throws MessagingException when the channel already failed
     */
    CompletableFuture<ReceivedMessage> register(long id, Duration timeout, String what) {
        CompletableFuture<ReceivedMessage> future = new CompletableFuture<>();
        pending.put(id, future);
        MessagingException failed = failure;
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
        if (failure == null) {
            failure = cause;
        }
        for (Long id : pending.keySet()) {
            CompletableFuture<ReceivedMessage> future = pending.remove(id);
            if (future != null) {
                future.completeExceptionally(failure);
            }
        }
    }
}
