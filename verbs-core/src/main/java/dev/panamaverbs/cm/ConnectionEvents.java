package dev.panamaverbs.cm;

import dev.panamaverbs.AddressHandleAttributes;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.GlobalRoute;
import dev.panamaverbs.ffm.ibv_ah_attr;
import dev.panamaverbs.ffm.ibv_global_route;
import dev.panamaverbs.ffm.rdmacm.rdma_cm_event;
import dev.panamaverbs.ffm.rdmacm.rdma_cm_id;
import dev.panamaverbs.ffm.rdmacm.rdma_conn_param;
import dev.panamaverbs.ffm.rdmacm.rdma_ud_param;
import dev.panamaverbs.gateway.Pointers;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Copies a {@code struct rdma_cm_event} into a {@link ConnectionEvent} before it is acknowledged
 * ({@code rdma_ack_cm_event} frees it and the private data it points to).
 */
final class ConnectionEvents {
    private ConnectionEvents() {}

    /** The copy of {@code event} (sized to {@code rdma_cm_event}); reads the identifier's port space for the union. */
    static ConnectionEvent copy(MemorySegment event) {
        int rawType = rdma_cm_event.event(event);
        int status = rdma_cm_event.status(event);
        long id = rdma_cm_event.id(event).address();
        long listenId = rdma_cm_event.listen_id(event).address();
        MemorySegment param = rdma_cm_event.param(event);
        boolean datagram = id != 0 && isDatagram(rdma_cm_id.ps(Pointers.sized(id, rdma_cm_id.SIZE)));
        ConnectionEventType type = ConnectionEventType.orNull(rawType);
        if (datagram) {
            byte[] data = privateData(rdma_ud_param.private_data(param), rdma_ud_param.private_data_len(param));
            DatagramParameters parameters = null;
            if (type == ConnectionEventType.ESTABLISHED) {
                parameters = new DatagramParameters(rdma_ud_param.qp_num(param), rdma_ud_param.qkey(param),
                        addressOf(rdma_ud_param.ah_attr(param)));
            }
            return new ConnectionEvent(rawType, status, data, 0, 0, rdma_ud_param.qp_num(param), parameters, id, listenId);
        }
        byte[] data = privateData(rdma_conn_param.private_data(param), rdma_conn_param.private_data_len(param));
        return new ConnectionEvent(rawType, status, data,
                Byte.toUnsignedInt(rdma_conn_param.responder_resources(param)),
                Byte.toUnsignedInt(rdma_conn_param.initiator_depth(param)),
                rdma_conn_param.qp_num(param), null, id, listenId);
    }

    private static boolean isDatagram(int portSpace) {
        PortSpace space = PortSpace.orNull(portSpace);
        return space != null && space.isDatagram();
    }

    private static byte[] privateData(MemorySegment pointer, byte length) {
        int bytes = Byte.toUnsignedInt(length);
        if (bytes == 0 || pointer.address() == 0) {
            return new byte[0];
        }
        return Pointers.sized(pointer, bytes).toArray(ValueLayout.JAVA_BYTE);
    }

    /** {@code struct ibv_ah_attr} as the record the API creates address handles from; null if unusable. */
    static AddressHandleAttributes addressOf(MemorySegment ahAttr) {
        int port = Byte.toUnsignedInt(ibv_ah_attr.port_num(ahAttr));
        if (port == 0) {
            return null;
        }
        GlobalRoute route = null;
        if (ibv_ah_attr.is_global(ahAttr) != 0) {
            MemorySegment grh = ibv_ah_attr.grh(ahAttr);
            route = new GlobalRoute(Gid.read(ibv_global_route.dgid(grh)), ibv_global_route.flow_label(grh) & 0xF_FFFF,
                    Byte.toUnsignedInt(ibv_global_route.sgid_index(grh)),
                    Byte.toUnsignedInt(ibv_global_route.hop_limit(grh)),
                    Byte.toUnsignedInt(ibv_global_route.traffic_class(grh)));
        }
        return new AddressHandleAttributes(port, Short.toUnsignedInt(ibv_ah_attr.dlid(ahAttr)),
                ibv_ah_attr.sl(ahAttr) & 0xF, ibv_ah_attr.src_path_bits(ahAttr) & 0x7F,
                Byte.toUnsignedInt(ibv_ah_attr.static_rate(ahAttr)), route);
    }
}
