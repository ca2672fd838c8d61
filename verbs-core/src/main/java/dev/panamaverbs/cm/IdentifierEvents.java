package dev.panamaverbs.cm;

import dev.panamaverbs.QueuePair;
import dev.panamaverbs.internal.CoreAccess;
import dev.panamaverbs.jfr.FlightEvents;
import dev.panamaverbs.internal.Deadline;
import dev.panamaverbs.values.Errno;
import dev.panamaverbs.values.QueuePairState;
import java.time.Duration;
import java.util.Optional;

/**
 * The event side of one {@link ConnectionId}: its waits on the channel (for the event a verb
 * expects, for the next event, for DISCONNECTED, for a connection request) and what each event
 * it takes does to its state ({@link #observe}). Every wait ends by a {@link Deadline}.
 */
record IdentifierEvents(ConnectionId id, ConnectionEventChannel channel, IdentifierOrder order) {

    /** The next event for the identifier before {@code deadline} ({@link Deadline}), or null. */
    ConnectionEvent next(long deadline) {
        return observe(channel.awaitUntil(id, false, deadline, "rdma_get_cm_event", "for " + id));
    }

    /** Takes events until DISCONNECTED, a final state or the deadline; true once DISCONNECTED. */
    boolean awaitDisconnected(long deadline) {
        while (order.state() != IdentifierState.DISCONNECTED && !order.state().isFinal()) {
            if (next(deadline) == null) {
                break;
            }
        }
        return order.state() == IdentifierState.DISCONNECTED;
    }

    /** Waits for {@code wanted} until {@code deadline}; any failure event, another event, or the deadline throws. */
    ConnectionEvent expect(String verb, String where, ConnectionEventType wanted, long deadline, Duration timeout) {
        while (true) {
            ConnectionEvent event = observe(channel.awaitUntil(id, false, deadline, verb, where + " on " + id));
            if (event == null) {
                throw new ConnectionException(verb, where + " on " + id, Errno.ETIMEDOUT, null,
                        "no " + wanted + " within " + timeout);
            }
            if (event.type() == wanted) {
                return event;
            }
            if (event.type() == ConnectionEventType.REJECTED) {
                throw new ConnectionRejectedException(verb, where + " on " + id, event, id.transportType());
            }
            if (event.type() == null || event.type().isFailure() || event.type() == ConnectionEventType.DISCONNECTED) {
                int errno = event.status() < 0 ? -event.status() : Errno.EIO;
                throw new ConnectionException(verb, where + " on " + id, errno, event, null);
            }
            // anything else (e.g. a late TIMEWAIT_EXIT) does not end this wait
        }
    }

    /**
     * The next connection request to the listening identifier, its new identifier moved to
     * {@code target} ({@code rdma_migrate_id}) when that is another channel; empty after the timeout.
     */
    Optional<ConnectionRequest> awaitRequest(Duration timeout, ConnectionEventChannel target, ConnectionOptions options) {
        long deadline = Deadline.start("rdma_get_request", timeout);
        order.require(IdentifierOrder.Step.AWAIT_REQUEST, false);
        ConnectionEvent request = channel.awaitUntil(id, true, deadline, "rdma_get_request",
                "on " + SocketAddresses.format(id.localAddress()));
        if (request == null) {
            return Optional.empty();
        }
        if (target != channel) {
            IdentifierCalls.migrate(request.idAddress(), target);
        }
        ConnectionId requested = ConnectionId.adopt(target, request.idAddress(), id.portSpace(), IdentifierState.REQUEST);
        return Optional.of(new ConnectionRequest(requested, request, options));
    }

    /**
     * Moves the state by what an event means ({@link IdentifierOrder#afterEvent}). The peer's
     * DISCONNECTED is answered with our own rdma_disconnect at once (the DREP its rdma_disconnect
     * waits for), so the peer learns within a round trip instead of after the CM's DREQ timeout.
     */
    ConnectionEvent observe(ConnectionEvent event) {
        if (event == null) {
            return null;
        }
        IdentifierState before = order.observe(event.type());
        record(event);
        if (event.type() == ConnectionEventType.DISCONNECTED) {
            id.queuePair().ifPresent(qp -> CoreAccess.get().assumeState(qp, QueuePairState.ERROR));
            if (before == IdentifierState.CONNECTED || before == IdentifierState.CONNECTING) {
                try {
                    id.answerDisconnect();
                } catch (IllegalStateException closedMeanwhile) {
                    // the identifier or its queue pair closed under us: nothing left to answer for
                }
            }
        }
        return event;
    }

    /**
     * Records ESTABLISHED, REJECTED and DISCONNECTED as the JFR events
     * {@code dev.panamaverbs.Connection*} ({@link FlightEvents#connection}), with the device,
     * queue pair and both addresses as far as the identifier still knows them.
     */
    private void record(ConnectionEvent event) {
        FlightEvents.ConnectionOutcome outcome;
        if (event.type() == ConnectionEventType.ESTABLISHED) {
            outcome = FlightEvents.ConnectionOutcome.ESTABLISHED;
        } else if (event.type() == ConnectionEventType.REJECTED) {
            outcome = FlightEvents.ConnectionOutcome.REJECTED;
        } else if (event.type() == ConnectionEventType.DISCONNECTED) {
            outcome = FlightEvents.ConnectionOutcome.DISCONNECTED;
        } else {
            return;
        }
        String local = "";
        String peer = "";
        try {
            peer = SocketAddresses.format(id.remoteAddress());
            local = SocketAddresses.format(id.localAddress());
        } catch (IllegalStateException closed) {
            // the identifier closed meanwhile: record what is known
        }
        int queuePairNumber = id.queuePair().map(QueuePair::number).orElse(0);
        FlightEvents.connection(outcome, id.knownDeviceName(), queuePairNumber, local, peer, event.status(), event.statusDescription());
    }
}
