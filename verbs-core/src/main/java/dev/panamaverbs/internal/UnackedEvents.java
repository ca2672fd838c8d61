package dev.panamaverbs.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the completion events {@code ibv_get_cq_event} returned for one CQ and not yet passed to
 * {@code ibv_ack_cq_events}, and decides when to acknowledge them in a batch. Acknowledging is a
 * mutex round trip inside libibverbs, so batching saves it on every event; but
 * {@code ibv_destroy_cq} blocks until every returned event is acknowledged, so whatever is
 * outstanding must be drained before the CQ is destroyed. Thread-safe; every recorded event is
 * handed out for acknowledgement exactly once.
 */
public final class UnackedEvents {
    /** Default events per {@code ibv_ack_cq_events} call. */
    public static final int DEFAULT_BATCH = 16;

    private final AtomicInteger outstanding = new AtomicInteger();
    private volatile int batch;

    public UnackedEvents(int batch) {
        this.batch = checkBatch(batch);
    }

    public static int checkBatch(int batch) {
        if (batch < 1) {
            throw new IllegalArgumentException("ibv_ack_cq_events: the acknowledgement batch must be >= 1, got " + batch);
        }
        return batch;
    }

    /** Events per acknowledgement. */
    public int batch() {
        return batch;
    }

    /** Changes the batch size; takes effect at the next recorded event. */
    public void batch(int newBatch) {
        this.batch = checkBatch(newBatch);
    }

    /**
     * Records one event. Returns how many events the caller must acknowledge now: 0 while fewer
     * than the batch are outstanding, else all of them (which are then no longer outstanding).
     */
    public int record() {
        int limit = batch;
        while (true) {
            int current = outstanding.get();
            int next = current + 1;
            if (next < limit) {
                if (outstanding.compareAndSet(current, next)) {
                    return 0;
                }
            } else if (outstanding.compareAndSet(current, 0)) {
                return next;
            }
        }
    }

    /** Takes every outstanding event for acknowledgement; returns how many (possibly 0). */
    public int takeAll() {
        return outstanding.getAndSet(0);
    }

    /** Events recorded and not yet handed out for acknowledgement. */
    public int outstanding() {
        return outstanding.get();
    }
}
