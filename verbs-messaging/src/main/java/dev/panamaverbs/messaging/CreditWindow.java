package dev.panamaverbs.messaging;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The credit accounting of one channel, both directions, without any verbs:
 *
 * <ul>
 *   <li>send side: the credits the peer granted (its advertised window at set-up, then what its
 *       headers return). A message that {@linkplain MessageType#consumesCredit() consumes} a credit
 *       is sent only after {@link #acquire} took one; with none left the sender waits up to its
 *       deadline. The count is never negative, and never above the peer's window: a peer that
 *       returns more than it could have received is a protocol error.</li>
 *   <li>receive side: the receive buffers the application released (re-posted) and that the peer
 *       has not yet been told about. Every outgoing header carries them ({@link #takeReturns});
 *       when they reach half the window ({@link #creditMessageDue}) with no traffic to carry them,
 *       the channel sends an explicit {@link MessageType#CREDIT} message.</li>
 * </ul>
 *
 * Thread-safe; a wait allocates nothing beyond what {@link Object#wait} does.
 */
final class CreditWindow {
    private final int peerWindow;
    private final int localWindow;
    private final int returnThreshold;
    private final AtomicInteger unreturned = new AtomicInteger();
    private int available;
    private MessagingException failure;

    /**
     * @param peerWindow the credits the peer advertised (its posted receive buffers for data)
     * @param localWindow the credits this side advertised
     */
    CreditWindow(int peerWindow, int localWindow) {
        if (peerWindow < 1 || localWindow < 1) {
            throw new IllegalArgumentException("credit window: both windows must be at least 1, got peer "
                    + peerWindow + " and local " + localWindow);
        }
        this.peerWindow = peerWindow;
        this.localWindow = localWindow;
        this.returnThreshold = Math.max(1, (localWindow + 1) / 2);
        this.available = peerWindow;
    }

    /** {@return the credits the peer advertised} */
    int peerWindow() {
        return peerWindow;
    }

    /** {@return the number of released receive buffers at which an explicit credit message is due} */
    int returnThreshold() {
        return returnThreshold;
    }

    /** {@return the credits this side may still spend} */
    synchronized int available() {
        return available;
    }

    /** {@return true when a credit was taken at once} (false without waiting when none is left, or failed) */
    synchronized boolean tryAcquire() {
        if (failure == null && available > 0) {
            available--;
            return true;
        }
        return false;
    }

    /**
     * Takes one credit, waiting until {@code deadlineNanos} ({@link System#nanoTime()}) at most.
     *
     * @param deadlineNanos the deadline; one already past means a single look
     * @throws CreditTimeoutException when none came in time (nothing taken)
     * @throws MessagingException when the channel failed (its failure)
     * @throws MessagingException when interrupted (the interrupt flag stays set)
     */
    synchronized void acquire(long deadlineNanos) {
        while (true) {
            if (failure != null) {
                throw failure;
            }
            if (available > 0) {
                available--;
                return;
            }
            boolean waited;
            try {
                waited = MonitorWaits.waitUntil(this, deadlineNanos);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MessagingException("send: interrupted while waiting for a credit", e);
            }
            if (!waited) {
                throw new CreditTimeoutException("send: no credit from the peer within the deadline (window "
                        + peerWindow + ", all in use: the peer has not released the messages it received)");
            }
        }
    }

    /**
     * Adds the credits a peer's header returned and wakes waiting senders.
     *
     * @param credits the header's credits (0 does nothing)
     * @throws MessagingException (a protocol error) when negative, or when the total would exceed
     *         the peer's window (the peer returned buffers it never received)
     */
    synchronized void grant(int credits) {
        if (credits == 0) {
            return;
        }
        if (credits < 0 || credits > peerWindow - available) {
            throw new MessagingException("credits: protocol error: the peer returned " + credits + " credits with "
                    + available + " of its window of " + peerWindow + " unspent", null);
        }
        available += credits;
        notifyAll();
    }

    /** Gives back a credit taken by {@link #acquire} whose message was never posted. */
    synchronized void giveBack() {
        if (available < peerWindow) {
            available++;
            notifyAll();
        }
    }

    /** Counts one receive buffer the application released and the channel re-posted. */
    void returned() {
        int now = unreturned.incrementAndGet();
        assert now <= localWindow : "more buffers returned than the window holds";
    }

    /** {@return the released buffers not yet returned, now handed to an outgoing header (the count restarts at 0)} */
    int takeReturns() {
        return unreturned.getAndSet(0);
    }

    /** Puts back returns taken by {@link #takeReturns} whose header was never sent. */
    void untake(int credits) {
        if (credits > 0) {
            unreturned.addAndGet(credits);
        }
    }

    /** {@return the released buffers not yet returned} */
    int unreturned() {
        return unreturned.get();
    }

    /** {@return true when half the window (at least 1) was released and not returned: send a CREDIT message} */
    boolean creditMessageDue() {
        return unreturned.get() >= returnThreshold;
    }

    /** Fails every present and future wait with {@code cause} (the first failure stays). */
    synchronized void fail(MessagingException cause) {
        if (failure == null) {
            failure = cause;
        }
        notifyAll();
    }
}
