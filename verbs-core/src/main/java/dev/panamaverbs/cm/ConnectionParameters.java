package dev.panamaverbs.cm;

import dev.panamaverbs.values.DeviceAttributes;
import dev.panamaverbs.ffm.rdmacm.rdma_conn_param;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Fills C {@code struct rdma_conn_param} from {@link ConnectionOptions}, checked against the device. */
final class ConnectionParameters {
    private ConnectionParameters() {}

    /**
     * A zeroed {@code rdma_conn_param} in {@code arena} with the options' values; {@code qpNumber}
     * is used only when the identifier has no queue pair. {@code device} is the identifier's
     * device's limits, to check the depths against; null for a datagram identifier (no depths).
     *
     * @throws IllegalArgumentException when responder resources or initiator depth exceed the device's limits
     */
    static MemorySegment write(Arena arena, String verb, ConnectionOptions options, DeviceAttributes device, int qpNumber) {
        if (device != null) {
            checkDepth(verb, "responder_resources", options.responderResources(), "max_qp_rd_atom", device.maxQpRdAtom());
            checkDepth(verb, "initiator_depth", options.initiatorDepth(), "max_qp_init_rd_atom", device.maxQpInitRdAtom());
        }
        MemorySegment param = arena.allocate(rdma_conn_param.LAYOUT);
        byte[] data = options.privateDataUnsafe();
        if (data.length > 0) {
            rdma_conn_param.private_data(param, arena.allocateFrom(ValueLayout.JAVA_BYTE, data));
            rdma_conn_param.private_data_len(param, (byte) data.length);
        }
        rdma_conn_param.responder_resources(param, (byte) options.responderResources());
        rdma_conn_param.initiator_depth(param, (byte) options.initiatorDepth());
        rdma_conn_param.retry_count(param, (byte) options.retryCount());
        rdma_conn_param.rnr_retry_count(param, (byte) options.rnrRetryCount());
        rdma_conn_param.qp_num(param, qpNumber);
        return param;
    }

    static void checkDepth(String verb, String field, int value, String limitName, int limit) {
        if (value > limit) {
            throw new IllegalArgumentException(verb + ": " + field + " must be at most " + limit + " (device "
                    + limitName + "), got " + value);
        }
    }
}
