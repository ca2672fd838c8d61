package dev.panamaverbs.cm;

/**
 * Where a {@link ConnectionId} is in librdmacm's order ({@link ConnectionId#state()}). librdmacm
 * itself does not check the order: several of its verbs read what an earlier step sets (the
 * device, {@code rdma_cm_id.verbs}) and crash the process when it is not set yet. So the
 * identifier refuses every call its state does not allow, with an {@link IllegalStateException}
 * naming the C verb and the step that must come first, and no such call reaches librdmacm.
 * docs/rdma-cm.md has the table: each verb, what must come first, what it throws.
 *
 * <p>Active side: CREATED, (BOUND,) RESOLVING_ADDRESS, ADDRESS_RESOLVED, RESOLVING_ROUTE,
 * ROUTE_RESOLVED, CONNECTING, CONNECTED, DISCONNECTING, DISCONNECTED. Passive side: CREATED,
 * BOUND, LISTENING for the listener; REQUEST, CONNECTING, CONNECTED ... for each request's
 * identifier. The RESOLVING and CONNECTING states last while a call waits for its event.
 */
public enum IdentifierState {
    /** Made by {@code rdma_create_id}: nothing done yet (the kernel's IDLE). */
    CREATED,
    /** {@code rdma_bind_addr} done; a device is chosen only when bound to an RDMA device's address. */
    BOUND,
    /** {@code rdma_resolve_addr} issued; a call waits for ADDR_RESOLVED. */
    RESOLVING_ADDRESS,
    /** ADDR_RESOLVED arrived: the device and the local address are known. */
    ADDRESS_RESOLVED,
    /** {@code rdma_resolve_route} issued; a call waits for ROUTE_RESOLVED. */
    RESOLVING_ROUTE,
    /** ROUTE_RESOLVED arrived: ready to connect. */
    ROUTE_RESOLVED,
    /** {@code rdma_listen} done: connection requests arrive ({@link ConnectionId#awaitRequest}). */
    LISTENING,
    /** A connection request's own identifier, not answered yet: accept or reject it. */
    REQUEST,
    /** {@code rdma_connect} or {@code rdma_accept} issued; a call waits for ESTABLISHED. */
    CONNECTING,
    /** ESTABLISHED arrived (a datagram identifier: the resolution answered or made). */
    CONNECTED,
    /** {@code rdma_disconnect} issued, DISCONNECTED not seen yet. */
    DISCONNECTING,
    /** DISCONNECTED arrived: the connection is over; only waits and close remain. */
    DISCONNECTED,
    /** The request was rejected ({@code rdma_reject}): only close remains. */
    REJECTED,
    /**
     * A step failed in a way librdmacm does not come back from (rejected, unreachable, a wait that
     * ended without its event, the device removed): only close remains.
     */
    FAILED,
    /** Closed ({@code rdma_destroy_id}). */
    CLOSED;

    /**
     * True while a call on the identifier waits for the event that ends this state (RESOLVING_ADDRESS,
     * RESOLVING_ROUTE, CONNECTING): a second waiter would take that event from it.
     *
     * @return true for the states a waiting call holds
     */
    public boolean isWaiting() {
        return this == RESOLVING_ADDRESS || this == RESOLVING_ROUTE || this == CONNECTING;
    }

    /**
     * True for the states only close leaves (REJECTED, FAILED, CLOSED).
     *
     * @return true for the states only close leaves
     */
    public boolean isFinal() {
        return this == REJECTED || this == FAILED || this == CLOSED;
    }
}
