package dev.panamaverbs.messaging;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntConsumer;
import java.util.function.IntPredicate;

/**
 * The books of a {@link SharedReceivePool}, without the verbs: which channel (its
 * {@link Reservation}) took each buffer, how many buffers the open channels reserved, and how
 * many the messages of closed channels still hold. The window sum it admits never exceeds the
 * buffers, which is what keeps every channel free of RNR. Thread-safe: a buffer's hand-back is one
 * compare-and-set, so a release racing a channel's close gives it back once.
 */
final class PoolLedger {
    /** A channel's share of the pool, and the key of the buffers its queue pair took. */
    static final class Reservation {
        private final int buffers;
        /** The pool's buffers this channel took and that are not given back yet. */
        private final AtomicInteger held = new AtomicInteger();

        private Reservation(int buffers) {
            this.buffers = buffers;
        }

        /** {@return the buffers this channel's messages and offers hold now} */
        int held() {
            return held.get();
        }
    }

    private final AtomicReferenceArray<Reservation> takenBy;
    /** Buffers reserved by open channels (guarded by this). */
    private int reserved;
    /** Closed channels whose messages still hold buffers (guarded by this). */
    private final List<Reservation> detached = new ArrayList<>();
    private int channels;

    PoolLedger(int buffers) {
        takenBy = new AtomicReferenceArray<>(buffers);
    }

    /** {@return how many buffers the books keep} */
    int buffers() {
        return takenBy.length();
    }

    /** {@return the buffers reserved by open channels plus those closed channels' messages still hold} */
    synchronized int reservedBuffers() {
        int lingering = 0;
        for (Iterator<Reservation> it = detached.iterator(); it.hasNext(); ) {
            int held = it.next().held.get();
            if (held == 0) {
                it.remove(); // every message released: nothing of that channel is left
            }
            lingering += held;
        }
        return reserved + lingering;
    }

    /** {@return the open channels} */
    synchronized int channels() {
        return channels;
    }

    /**
     * Reserves {@code needed} buffers for a channel.
     *
     * @return the reservation, or null when fewer than {@code needed} are free
     */
    synchronized Reservation reserve(int needed) {
        if (needed > buffers() - reservedBuffers()) {
            return null;
        }
        reserved += needed;
        channels++;
        return new Reservation(needed);
    }

    /** Buffer {@code slot} completed on {@code reservation}'s queue pair: it is that channel's until given back. */
    void taken(int slot, Reservation reservation) {
        reservation.held.incrementAndGet();
        Reservation previous = takenBy.getAndSet(slot, reservation);
        if (previous != null) {
            previous.held.decrementAndGet(); // never while the books are right: a buffer completes once per post
        }
    }

    /**
     * {@code reservation} gives buffer {@code slot} back.
     *
     * @return true when the caller must post it to the SRQ; false when it was given back already
     */
    boolean giveBack(int slot, Reservation reservation) {
        if (!takenBy.compareAndSet(slot, reservation, null)) {
            return false;
        }
        reservation.held.decrementAndGet();
        return true;
    }

    /**
     * The channel closed (its queue pair gone, its completions no longer drained): {@code back}
     * is called for each of its buffers that {@code held} says no message holds, its reservation
     * is returned, and what its messages still hold stays counted until given back.
     */
    void detach(Reservation reservation, IntPredicate held, IntConsumer back) {
        for (int slot = 0; slot < takenBy.length(); slot++) {
            if (takenBy.get(slot) == reservation && !held.test(slot) && giveBack(slot, reservation)) {
                back.accept(slot);
            }
        }
        synchronized (this) {
            reserved -= reservation.buffers;
            channels--;
            if (reservation.held.get() > 0) {
                detached.add(reservation);
            }
        }
    }
}
