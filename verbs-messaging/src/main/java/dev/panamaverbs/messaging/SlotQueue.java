package dev.panamaverbs.messaging;


/**
 * A bounded FIFO of buffer slot numbers with a blocking take: the free send buffers of a channel,
 * and the received messages waiting for {@link MessageChannel#receive}. An array ring, so putting
 * and taking allocate nothing. Once failed, a take still returns what is queued, then throws.
 */
final class SlotQueue {
    private final int[] ring;
    private int head;
    private int size;
    private MessagingException failure;

    SlotQueue(int capacity) {
        ring = new int[capacity];
    }

    /** A queue holding {@code 0..count-1}. */
    static SlotQueue full(int count) {
        SlotQueue queue = new SlotQueue(count);
        for (int i = 0; i < count; i++) {
            queue.put(i);
        }
        return queue;
    }

    synchronized void put(int slot) {
        if (size == ring.length) {
            throw new IllegalStateException("slot queue: full (" + ring.length + "): slot " + slot + " put twice");
        }
        ring[(head + size) % ring.length] = slot;
        size++;
        notifyAll();
    }

    /** {@return the next slot, or -1 when none came before {@code deadlineNanos}} */
    synchronized int take(long deadlineNanos) {
        while (size == 0) {
            if (failure != null) {
                throw failure;
            }
            try {
                if (!MonitorWaits.waitUntil(this, deadlineNanos)) {
                    return -1;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MessagingException("interrupted while waiting for a message buffer", e);
            }
        }
        int slot = ring[head];
        head = (head + 1) % ring.length;
        size--;
        return slot;
    }

    /** {@return the next slot, or -1 when none is queued} (never waits, never throws) */
    synchronized int poll() {
        if (size == 0) {
            return -1;
        }
        int slot = ring[head];
        head = (head + 1) % ring.length;
        size--;
        return slot;
    }

    synchronized int size() {
        return size;
    }

    /** Waits until {@code count} slots are in the queue (or the deadline); {@return whether they are} */
    synchronized boolean awaitSize(int count, long deadlineNanos) {
        return MonitorWaits.awaitCondition(this, () -> size >= count, deadlineNanos);
    }

    synchronized void fail(MessagingException cause) {
        if (failure == null) {
            failure = cause;
        }
        notifyAll();
    }
}
