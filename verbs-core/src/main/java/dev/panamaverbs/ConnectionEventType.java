package dev.panamaverbs;

import dev.panamaverbs.ffm.rdmacm.RdmaCmConstants;

/** What happened to a connection identifier: C {@code enum rdma_cm_event_type} ({@code rdma/rdma_cma.h}). */
public enum ConnectionEventType implements NativeEnum {
    ADDR_RESOLVED(RdmaCmConstants.RDMA_CM_EVENT_ADDR_RESOLVED),
    ADDR_ERROR(RdmaCmConstants.RDMA_CM_EVENT_ADDR_ERROR),
    ROUTE_RESOLVED(RdmaCmConstants.RDMA_CM_EVENT_ROUTE_RESOLVED),
    ROUTE_ERROR(RdmaCmConstants.RDMA_CM_EVENT_ROUTE_ERROR),
    CONNECT_REQUEST(RdmaCmConstants.RDMA_CM_EVENT_CONNECT_REQUEST),
    CONNECT_RESPONSE(RdmaCmConstants.RDMA_CM_EVENT_CONNECT_RESPONSE),
    CONNECT_ERROR(RdmaCmConstants.RDMA_CM_EVENT_CONNECT_ERROR),
    UNREACHABLE(RdmaCmConstants.RDMA_CM_EVENT_UNREACHABLE),
    REJECTED(RdmaCmConstants.RDMA_CM_EVENT_REJECTED),
    ESTABLISHED(RdmaCmConstants.RDMA_CM_EVENT_ESTABLISHED),
    DISCONNECTED(RdmaCmConstants.RDMA_CM_EVENT_DISCONNECTED),
    DEVICE_REMOVAL(RdmaCmConstants.RDMA_CM_EVENT_DEVICE_REMOVAL),
    MULTICAST_JOIN(RdmaCmConstants.RDMA_CM_EVENT_MULTICAST_JOIN),
    MULTICAST_ERROR(RdmaCmConstants.RDMA_CM_EVENT_MULTICAST_ERROR),
    ADDR_CHANGE(RdmaCmConstants.RDMA_CM_EVENT_ADDR_CHANGE),
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

    /** The constant for a C value, or null when this library does not know it. */
    public static ConnectionEventType orNull(int value) {
        return TABLE.orNull(value);
    }

    /**
     * True for the events that end a pending operation with a failure: address or route
     * resolution failed, the connect was refused, unreachable or failed, or the device went away.
     */
    public boolean isFailure() {
        return switch (this) {
            case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED, DEVICE_REMOVAL, MULTICAST_ERROR -> true;
            default -> false;
        };
    }
}
