package dev.panamaverbs.messaging;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * What one channel has outstanding by id (requests waiting for a response, rendezvous messages
 * waiting for DONE), and the channel's first failure: the one table both keep, so that ids are
 * drawn, a late entry meets the failure, and a failure reaches every entry one way. An
 * open-addressing table of primitive ids under this object's lock: adding, finding and removing
 * an entry allocate nothing (no boxed id, no node), only growing the table does.
 *
 * @param <V> what is held per id
 */
final class Outstanding<V> {
    private static final long FREE = 0; // ids are never 0
    private final AtomicLong nextId = new AtomicLong();
    private long[] ids = new long[16];
    private Object[] values = new Object[16];
    private int size;
    private volatile MessagingException failure;

    /** A new id (1, 2, ...; 0, which DATA carries, is skipped if the counter ever wraps). */
    long nextId() {
        long id;
        do {
            id = nextId.incrementAndGet();
        } while (id == 0);
        return id;
    }

    /**
     * Holds {@code value} under {@code id}; checked after the put, so an entry added while
     * {@link #failAll} runs is either reached by it or sees the failure here.
     *
     * @return the channel's failure (the caller removes {@code id} again), or null
     */
    MessagingException add(long id, V value) {
        synchronized (this) {
            if (2 * (size + 1) > ids.length) {
                grow();
            }
            int i = indexOf(id);
            if (ids[i] == FREE) {
                ids[i] = id;
                size++;
            }
            values[i] = value;
        }
        return failure;
    }

    /** {@return the channel's first failure, or null while it works} */
    MessagingException failure() {
        return failure;
    }

    @SuppressWarnings("unchecked")
    synchronized V get(long id) {
        return (V) values[indexOf(id)];
    }

    /** {@return the entry of {@code id}, now removed, or null when it was not (or no longer) held} */
    @SuppressWarnings("unchecked")
    synchronized V remove(long id) {
        int i = indexOf(id);
        V value = (V) values[i];
        if (ids[i] != FREE) {
            delete(i);
        }
        return value;
    }

    /** {@return true when {@code id} still held {@code value} and now does not} */
    synchronized boolean remove(long id, V value) {
        int i = indexOf(id);
        if (ids[i] == FREE || !value.equals(values[i])) {
            return false;
        }
        delete(i);
        return true;
    }

    synchronized boolean contains(long id) {
        return ids[indexOf(id)] != FREE;
    }

    synchronized int size() {
        return size;
    }

    /**
     * Records {@code cause} unless an earlier failure stands, then hands every id held to
     * {@code failOne} with the failure that stands (which ends the entry and removes it).
     */
    void failAll(MessagingException cause, BiConsumer<Long, MessagingException> failOne) {
        long[] held;
        synchronized (this) {
            if (failure == null) {
                failure = cause;
            }
            held = new long[size];
            int n = 0;
            for (long id : ids) {
                if (id != FREE) {
                    held[n++] = id;
                }
            }
        }
        MessagingException first = failure;
        for (long id : held) {
            failOne.accept(id, first); // outside the lock: failing one completes its future
        }
    }

    /** The slot of {@code id}, or the free slot where it would go (linear probing; the table is never full). */
    private int indexOf(long id) {
        int mask = ids.length - 1;
        int i = hash(id) & mask;
        while (ids[i] != FREE && ids[i] != id) {
            i = (i + 1) & mask;
        }
        return i;
    }

    /** Empties slot {@code i}, moving later entries of its probe run back so that none is cut off from its home. */
    private void delete(int i) {
        int mask = ids.length - 1;
        ids[i] = FREE;
        values[i] = null;
        size--;
        for (int j = (i + 1) & mask; ids[j] != FREE; j = (j + 1) & mask) {
            int home = hash(ids[j]) & mask;
            // Move j back to the hole at i unless its home lies cyclically in (i, j].
            boolean stays = i <= j ? i < home && home <= j : i < home || home <= j;
            if (!stays) {
                ids[i] = ids[j];
                values[i] = values[j];
                ids[j] = FREE;
                values[j] = null;
                i = j;
            }
        }
    }

    private void grow() {
        long[] oldIds = ids;
        Object[] oldValues = values;
        ids = new long[oldIds.length * 2];
        values = new Object[oldIds.length * 2];
        for (int k = 0; k < oldIds.length; k++) {
            if (oldIds[k] != FREE) {
                int i = indexOf(oldIds[k]);
                ids[i] = oldIds[k];
                values[i] = oldValues[k];
            }
        }
    }

    private static int hash(long id) {
        long h = id * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
