package dev.panamaverbs.messaging;

import dev.panamaverbs.cm.ConnectionId;
import java.time.Duration;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a {@link MessageChannel} ends: the first failure recorded (later ones give way to it), every
 * waiter woken with it, the {@code rdma_disconnect} that tells the peer of a failure found on
 * this side, and the watch on rdma_cm's DISCONNECTED that tells this side of the peer's. Also the
 * closed flag, since a failure after the close is the close's own and is not logged.
 */
final class ChannelFailure {
    private static final Logger LOG = LoggerFactory.getLogger(MessageChannel.class);
    private static final Duration DISCONNECT_WATCH_SLICE = Duration.ofMinutes(10);

    private final String peer;
    private final ConnectionId id;
    /** Ends every waiter, pending request and rendezvous message of the channel with the failure. */
    private final Consumer<MessagingException> wakeAll;
    private final Object lock = new Object();
    private volatile MessagingException failure;
    private volatile boolean closed;

    ChannelFailure(String peer, ConnectionId id, Consumer<MessagingException> wakeAll) {
        this.peer = peer;
        this.id = id;
        this.wakeAll = wakeAll;
    }

    /** Starts the virtual thread that waits for rdma_cm's DISCONNECTED (parked on the poller). */
    void watchDisconnect() {
        Thread.ofVirtual().name("message-channel-watch " + peer).start(this::watch);
    }

    private void watch() {
        try {
            while (!closed) {
                if (id.awaitDisconnect(DISCONNECT_WATCH_SLICE)) {
                    if (!closed) {
                        fail(new MessagingException("message channel to " + peer + ": the peer disconnected", null));
                    }
                    return;
                }
            }
        } catch (RuntimeException e) {
            if (!closed) {
                fail(new MessagingException("message channel to " + peer + ": the connection failed", e));
            }
        }
    }

    /** Records the first failure and wakes every waiter with it; {@return the failure now in force} */
    MessagingException fail(MessagingException cause) {
        MessagingException standing = record(cause);
        wakeAll.accept(standing);
        return standing;
    }

    /** {@return the failure now in force: {@code cause} unless one came first} */
    private MessagingException record(MessagingException cause) {
        synchronized (lock) {
            if (failure == null) {
                failure = cause;
                if (!closed) {
                    LOG.debug("message channel to {} failed", peer, cause);
                }
            }
            return failure;
        }
    }

    /**
     * As {@link #fail}, for a failure found on this side (a failed completion, a protocol error):
     * also {@code rdma_disconnect}s, on a virtual thread, so that the peer learns of it now (its
     * channel fails with DISCONNECTED) rather than when this side is closed.
     */
    void failAndDisconnect(MessagingException cause) {
        boolean first = failure == null && !closed;
        fail(cause);
        if (first) {
            Thread.ofVirtual().name("message-channel-disconnect " + peer).start(this::disconnect);
        }
    }

    /**
     * As {@link #failAndDisconnect}, with the {@code rdma_disconnect} done first, on this thread:
     * for a large message whose DONE did not come in time, the peer may still READ its region, and
     * a local queue pair in the error state serves no more READs, so the registrations are only
     * released (by the wake-up) after it.
     */
    void failDisconnectingFirst(MessagingException cause) {
        boolean first = failure == null && !closed;
        MessagingException standing = record(cause);
        if (first) {
            disconnect();
        }
        wakeAll.accept(standing);
    }

    /**
     * The channel's {@link SharedReceivePool} is closing and will take the queue pair: fail now,
     * disconnected first, so the peer learns of it and no waiter meets a destroyed queue pair.
     */
    void poolClosed(String device) {
        failDisconnectingFirst(new MessagingException("message channel to " + peer + ": its shared receive pool on "
                + device + " was closed", null));
    }

    /** {@code rdma_disconnect} of a failed channel, without waiting; a refusal is only logged (DEBUG). */
    private void disconnect() {
        try {
            id.disconnect(Duration.ZERO);
        } catch (RuntimeException e) {
            LOG.debug("message channel to {}: rdma_disconnect after the failure", peer, e);
        }
    }

    /** @throws MessagingException naming {@code what} and the failure, once the channel failed or closed */
    void requireOpen(String what) {
        MessagingException failed = failure;
        if (failed != null) {
            throw new MessagingException(what + ": the channel to " + peer + " failed: " + failed.getMessage(), failed);
        }
    }

    /** {@return the failure, or null while the channel works} */
    MessagingException failure() {
        return failure;
    }

    /** The close began freeing: later failures are the close's own. */
    void markClosed() {
        closed = true;
    }

    boolean isClosed() {
        return closed;
    }
}
