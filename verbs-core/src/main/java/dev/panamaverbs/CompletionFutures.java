package dev.panamaverbs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link CompletableFuture} per work request, completed on the shared poller's thread when the
 * request's completion arrives. Attached to a {@link CompletionChannel}, this object takes the
 * channel's completion events on the poller ({@code ibv_get_cq_event}, the CQ re-armed with
 * {@code ibv_req_notify_cq}, then {@code ibv_poll_cq} until empty: arm, then drain, so no
 * completion is left without an event) and matches every completion to the future expected for
 * its CQ and {@code wr_id}. A successful completion completes its future with a
 * {@link WorkCompletion}; a failed one (a flushed request after a queue pair error, a retry
 * exhausted, ...) completes it exceptionally with a {@link CompletionFailedException} naming the
 * status.
 *
 * <p>Expect a request before posting it ({@link #expect}). A completion that comes first, or for a
 * {@code wr_id} nobody expects, is kept for a later {@code expect} of the same CQ and {@code wr_id},
 * up to the CQ's capacity (the oldest kept one is dropped beyond that and counted in
 * {@link #unmatched()}). Only signaled requests complete: an unsignaled send's future never does.
 *
 * <p>Closing a CQ fails the futures still pending for it, closing the channel fails all, and so
 * does {@link #close()}, each with an {@link IllegalStateException} naming what closed: a future
 * never waits for a completion that can no longer come. Put a bound on a wait with
 * {@link CompletableFuture#orTimeout}. Futures complete on the poller thread: dependent stages
 * that block or take long belong on another executor ({@code thenApplyAsync(fn, executor)}), or
 * the poller's other event sources wait meanwhile.
 *
 * <p>This is the convenient path, not the fast one: each request costs a future and a map entry.
 * The data path that allocates nothing is {@link CompletionQueue#poll} and
 * {@link CompletionQueue#awaitCompletions}. While attached, the channel's events belong to this
 * object: {@link CompletionChannel#setEventHandler} is refused, and a thread in
 * {@link CompletionChannel#awaitEvent} would take events from it.
 */
public final class CompletionFutures implements AutoCloseable {
    /** Completions taken per {@code ibv_poll_cq} on the poller thread. */
    private static final int BATCH = 32;

    private final CompletionChannel channel;
    /** The poller thread's batch: only {@link #drain} uses it. */
    private final Completions batch = Completions.allocate(BATCH);
    /** Per CQ: the futures expected and the completions nobody expected yet. Guarded by {@code this}. */
    private final Map<CompletionQueue, Expected> byQueue = new IdentityHashMap<>();
    /** What closed this object or its channel, or null while open. Guarded by {@code this}. */
    private String closedBy;
    /** Completions dropped because nobody expected them. Guarded by {@code this}. */
    private long unmatched;

    /** The futures of one CQ, by {@code wr_id}. */
    private static final class Expected {
        final Map<Long, CompletableFuture<WorkCompletion>> pending = new HashMap<>();
        final LinkedHashMap<Long, CompletableFuture<WorkCompletion>> early = new LinkedHashMap<>();
    }

    private CompletionFutures(CompletionChannel channel) {
        this.channel = channel;
    }

    /**
     * Takes {@code channel}'s completion events on the shared poller and matches them to futures.
     *
     * @param channel the completion channel whose CQs' requests get futures
     * @return the futures of the channel's requests
     * @throws IllegalStateException if the channel is closed, already has a {@code CompletionFutures}
     *         or an event handler, or the shared poller is opted out ({@code panamaverbs.poller=false})
     */
    public static CompletionFutures attach(CompletionChannel channel) {
        Objects.requireNonNull(channel, "channel");
        CompletionFutures futures = new CompletionFutures(channel);
        channel.attachFutures(futures, futures::drain);
        return futures;
    }

    /**
     * A future for the completion of the request {@code wrId} on {@code queue}: call it before
     * posting the request. The first {@code expect} for a CQ arms it ({@code ibv_req_notify_cq})
     * and polls it once, so completions that came before are found too.
     *
     * @param queue the CQ the request completes on (one of this channel's)
     * @param wrId the request's {@code wr_id}
     * @return the future: a {@link WorkCompletion}, or a {@link CompletionFailedException}
     * @throws IllegalArgumentException if {@code queue} is not on this channel
     * @throws IllegalStateException if this object, its channel or {@code queue} is closed, or
     *         {@code wrId} is already expected on {@code queue}
     */
    public CompletableFuture<WorkCompletion> expect(CompletionQueue queue, long wrId) {
        Objects.requireNonNull(queue, "queue");
        if (queue.channel().orElse(null) != channel) {
            throw new IllegalArgumentException("CompletionFutures.expect: " + queue + " is not on " + channel);
        }
        CompletableFuture<WorkCompletion> future = new CompletableFuture<>();
        boolean firstForQueue;
        synchronized (this) {
            if (closedBy != null) {
                throw new IllegalStateException("CompletionFutures.expect: closed by " + closedBy);
            }
            if (queue.isClosed()) {
                throw queue.closedException();
            }
            Expected expected = byQueue.get(queue);
            firstForQueue = expected == null;
            if (firstForQueue) {
                expected = new Expected();
                byQueue.put(queue, expected);
            }
            CompletableFuture<WorkCompletion> early = expected.early.remove(wrId);
            if (early != null) {
                return early;
            }
            if (expected.pending.putIfAbsent(wrId, future) != null) {
                throw new IllegalStateException("CompletionFutures.expect: wr_id " + wrId + " is already expected on " + queue);
            }
        }
        if (firstForQueue) {
            queue.requestNotification(false);
            drainOnce(queue, Completions.allocate(BATCH)); // what completed before the arm raised no event
        }
        return future;
    }

    /**
     * The futures not yet completed.
     *
     * @return how many expected requests have not completed
     */
    public synchronized int pending() {
        return byQueue.values().stream().mapToInt(expected -> expected.pending.size()).sum();
    }

    /**
     * The completions dropped because nobody expected them within the CQ's capacity.
     *
     * @return how many completions were dropped unmatched
     */
    public synchronized long unmatched() {
        return unmatched;
    }

    /** Called by the channel when {@code queue} was destroyed: its pending futures fail. */
    void queueClosed(CompletionQueue queue) {
        Expected expected;
        synchronized (this) {
            expected = byQueue.remove(queue);
        }
        if (expected != null) {
            fail(List.copyOf(expected.pending.values()), queue + " was closed");
        }
    }

    /** Called by the channel when it is destroyed: every pending future fails. */
    void channelClosed() {
        failAll(channel + " was closed");
    }

    /** Stops taking the channel's events, and fails every pending future. Idempotent. */
    @Override
    public void close() {
        channel.detachFutures(this);
        failAll("CompletionFutures.close()");
    }

    private void failAll(String what) {
        List<CompletableFuture<WorkCompletion>> pending = new ArrayList<>();
        synchronized (this) {
            if (closedBy == null) {
                closedBy = what;
            }
            byQueue.values().forEach(expected -> pending.addAll(expected.pending.values()));
            byQueue.clear();
        }
        fail(pending, what);
    }

    private static void fail(List<CompletableFuture<WorkCompletion>> futures, String what) {
        for (CompletableFuture<WorkCompletion> future : futures) {
            future.completeExceptionally(new IllegalStateException(what + " while this work request's completion was expected"));
        }
    }

    /** The channel's event handler, on the poller thread: {@code queue} was re-armed; poll it empty. */
    private void drain(CompletionQueue queue) {
        while (drainOnce(queue, batch) == BATCH) {
            // a full batch: more may wait
        }
    }

    /** One {@code ibv_poll_cq} into {@code into}, each completion matched; {@return how many} (0 once the CQ is closed) */
    private int drainOnce(CompletionQueue queue, Completions into) {
        int count;
        try {
            count = queue.poll(into);
        } catch (IllegalStateException closed) {
            return 0; // the CQ is closing: queueClosed fails its futures
        }
        for (int i = 0; i < count; i++) {
            deliver(queue, into, i);
        }
        return count;
    }

    private void deliver(CompletionQueue queue, Completions from, int index) {
        long wrId = from.wrId(index);
        CompletableFuture<WorkCompletion> future;
        synchronized (this) {
            Expected expected = byQueue.get(queue);
            if (expected == null) {
                if (closedBy != null) {
                    return;
                }
                expected = new Expected();
                byQueue.put(queue, expected);
            }
            future = expected.pending.remove(wrId);
            if (future == null) {
                int keep;
                try {
                    keep = queue.capacity();
                } catch (IllegalStateException closed) {
                    return; // the CQ is closing: nobody can expect this completion any more
                }
                future = new CompletableFuture<>();
                expected.early.put(wrId, future);
                if (expected.early.size() > keep) {
                    expected.early.pollFirstEntry();
                    unmatched++;
                }
            }
        }
        if (from.isSuccess(index)) {
            future.complete(WorkCompletion.of(from, index));
        } else {
            future.completeExceptionally(new CompletionFailedException(from.statusValue(index), wrId, from.vendorError(index),
                    from.qpNumber(index)));
        }
    }
}
