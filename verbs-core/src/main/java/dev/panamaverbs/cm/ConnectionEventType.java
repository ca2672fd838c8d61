package dev.panamaverbs.cm;

import dev.panamaverbs.values.NativeEnum;
import dev.panamaverbs.ffm.rdmacm.RdmaCmConstants;

/** What happened to a connection identifier: C {@code enum rdma_cm_event_type} ({@code rdma/rdma_cma.h}). */
public enum ConnectionEventType implements NativeEnum {
    /** {@code rdma_resolve_addr} found the local device for the destination. */
    ADDR_RESOLVED(RdmaCmConstants.RDMA_CM_EVENT_ADDR_RESOLVED),
    /** {@code rdma_resolve_addr} failed (no route, timeout). */
    ADDR_ERROR(RdmaCmConstants.RDMA_CM_EVENT_ADDR_ERROR),
    /** {@code rdma_resolve_route} found a path to the destination. */
    ROUTE_RESOLVED(RdmaCmConstants.RDMA_CM_EVENT_ROUTE_RESOLVED),
    /** {@code rdma_resolve_route} failed. */
    ROUTE_ERROR(RdmaCmConstants.RDMA_CM_EVENT_ROUTE_ERROR),
    /** A peer asks a listening identifier to connect: accept or reject it. */
    CONNECT_REQUEST(RdmaCmConstants.RDMA_CM_EVENT_CONNECT_REQUEST),
    /** The peer replied to a connect made without a queue pair of librdmacm's. */
    CONNECT_RESPONSE(RdmaCmConstants.RDMA_CM_EVENT_CONNECT_RESPONSE),
    /** Establishing the connection failed. */
    CONNECT_ERROR(RdmaCmConstants.RDMA_CM_EVENT_CONNECT_ERROR),
    /** The peer did not answer, or answered that it cannot be reached. */
    UNREACHABLE(RdmaCmConstants.RDMA_CM_EVENT_UNREACHABLE),
    /** The peer (or the CM, when nothing listens) rejected the connection; carries its private data. */
    REJECTED(RdmaCmConstants.RDMA_CM_EVENT_REJECTED),
    /** The connection is up: the queue pair can send. */
    ESTABLISHED(RdmaCmConstants.RDMA_CM_EVENT_ESTABLISHED),
    /** The connection is over: the peer disconnected, or stopped answering. */
    DISCONNECTED(RdmaCmConstants.RDMA_CM_EVENT_DISCONNECTED),
    /** The RDMA device under the identifier went away. */
    DEVICE_REMOVAL(RdmaCmConstants.RDMA_CM_EVENT_DEVICE_REMOVAL),
    /** A multicast join completed. */
    MULTICAST_JOIN(RdmaCmConstants.RDMA_CM_EVENT_MULTICAST_JOIN),
    /** A multicast group reported an error. */
    MULTICAST_ERROR(RdmaCmConstants.RDMA_CM_EVENT_MULTICAST_ERROR),
    /** The network address behind the identifier changed. */
    ADDR_CHANGE(RdmaCmConstants.RDMA_CM_EVENT_ADDR_CHANGE),
    /** The queue pair left the CM's time-wait state and can be reused. */
    TIMEWAIT_EXIT(RdmaCmConstants.RDMA_CM_EVENT_TIMEWAIT_EXIT);

    private static final Table<ConnectionEventType> TABLE = new Table<>(ConnectionEventType.class, "rdma_cm_event_type");

    private final int value;

    ConnectionEventType(int value) {
        this.value = value;
    }

    @Override
    public int value() {
        return value;
    }

    /**
     * The constant for a C value, or null when this library does not know it.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value, or null when this library does not know it.
     */
    public static ConnectionEventType orNull(int value) {
        return TABLE.orNull(value);
    }

    /**
     * True for the events that end a pending operation with a failure: address or route
     * resolution failed, the connect was refused, unreachable or failed, or the device went away.
     *
     * @return true for the events that end a pending operation with a failure: address or route resolution failed, the connect was refused, unreachable or failed, or the device went away.
     */
    public boolean isFailure() {
        return switch (this) {
            case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED, DEVICE_REMOVAL, MULTICAST_ERROR -> true;
            default -> false;
        };
    }
}
