package dev.panamaverbs.messaging;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * What one channel has outstanding by id (requests waiting for a response, rendezvous messages
 * waiting for DONE), and the channel's first failure: the one table both keep, so that ids are
 * drawn, a late entry meets the failure, and a failure reaches every entry one way.
 *
 * @param <V> what is held per id
 */
final class Outstanding<V> {
    private final AtomicLong nextId = new AtomicLong();
    private final Map<Long, V> byId = new ConcurrentHashMap<>();
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
        byId.put(id, value);
        return failure;
    }

    /** {@return the channel's first failure, or null while it works} */
    MessagingException failure() {
        return failure;
    }

    V get(long id) {
        return byId.get(id);
    }

    /** {@return the entry of {@code id}, now removed, or null when it was not (or no longer) held} */
    V remove(long id) {
        return byId.remove(id);
    }

    /** {@return true when {@code id} still held {@code value} and now does not} */
    boolean remove(long id, V value) {
        return byId.remove(id, value);
    }

    boolean contains(long id) {
        return byId.containsKey(id);
    }

    int size() {
        return byId.size();
    }

    /**
     * Records {@code cause} unless an earlier failure stands, then hands every id held to
     * {@code failOne} with the failure that stands (which ends the entry and removes it).
     */
    void failAll(MessagingException cause, BiConsumer<Long, MessagingException> failOne) {
        if (failure == null) {
            failure = cause;
        }
        MessagingException first = failure;
        for (Long id : byId.keySet()) {
            failOne.accept(id, first);
        }
    }
}
