package dev.panamaverbs.values;

import dev.panamaverbs.internal.Ranges;
import dev.panamaverbs.ffm.ibv_ah_attr;
import dev.panamaverbs.ffm.ibv_global_route;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The other end of a connected (RC or UC) queue pair, as {@link dev.panamaverbs.QueuePair#toRtr(RemoteEndpoint)}
 * writes it into {@code ibv_qp_attr}: {@code dest_qp_num}, {@code rq_psn}, {@code path_mtu} and
 * the address vector {@code ah_attr}.
 *
 * <p>With a GID the address vector is global ({@code is_global = 1}, a GRH carrying
 * {@code dgid}, {@code sgid_index}, {@code hop_limit}, {@code traffic_class},
 * {@code flow_label}). RoCE (an Ethernet link layer) always needs it: there are no LIDs, the GID
 * is the address, and {@code sgidIndex} picks the local GID, i.e. the RoCE version and IP
 * family. perftest sets the GRH the same way whenever the port's link layer is Ethernet.
 *
 * @param qpn          the remote queue pair number ({@code dest_qp_num}, 24 bits)
 * @param psn          the first packet sequence number expected from the remote side ({@code rq_psn}, 24 bits)
 * @param lid          the remote LID ({@code ah_attr.dlid}; 0 on RoCE)
 * @param gid          the remote GID ({@code ah_attr.grh.dgid}), or {@code null} for a subnet-local InfiniBand path
 * @param mtu          the path MTU ({@code path_mtu}); no larger than either port's active MTU
 * @param port         the local port ({@code ah_attr.port_num}); 0 means the port the queue pair was initialised on
 * @param sgidIndex    the local GID table index ({@code ah_attr.grh.sgid_index})
 * @param hopLimit     {@code ah_attr.grh.hop_limit} (the IP TTL on RoCE v2; 1..255 with a GID)
 * @param trafficClass {@code ah_attr.grh.traffic_class}
 * @param serviceLevel {@code ah_attr.sl} (0..15)
 * @param flowLabel    {@code ah_attr.grh.flow_label} (20 bits)
 */
public record RemoteEndpoint(
        int qpn, int psn, int lid, Gid gid, Mtu mtu, int port,
        int sgidIndex, int hopLimit, int trafficClass, int serviceLevel, int flowLabel) {

    /** The hop limit the factories use: enough for any routed RoCE v2 path. */
    public static final int DEFAULT_HOP_LIMIT = 64;

    /** Checks every field against its C width. */
    public RemoteEndpoint {
        Ranges.require("ibv_modify_qp", "dest_qp_num", qpn, 0, 0xFF_FFFF);
        Ranges.require("ibv_modify_qp", "rq_psn", psn, 0, 0xFF_FFFF);
        Ranges.require("ibv_modify_qp", "ah_attr.dlid", lid, 0, 0xFFFF);
        Objects.requireNonNull(mtu, "ibv_modify_qp: path_mtu");
        if (gid != null) {
            Ranges.require("ibv_modify_qp", "ah_attr.grh.hop_limit", hopLimit, 1, 255);
        } else {
            Ranges.require("ibv_modify_qp", "ah_attr.grh.hop_limit", hopLimit, 0, 255);
        }
        Ranges.require("ibv_modify_qp", "ah_attr.port_num", port, 0, 255);
        Ranges.require("ibv_modify_qp", "ah_attr.grh.sgid_index", sgidIndex, 0, 255);
        Ranges.require("ibv_modify_qp", "ah_attr.grh.traffic_class", trafficClass, 0, 255);
        Ranges.require("ibv_modify_qp", "ah_attr.sl", serviceLevel, 0, 15);
        Ranges.require("ibv_modify_qp", "ah_attr.grh.flow_label", flowLabel, 0, 0xF_FFFF);
    }

    /**
     * An endpoint reached through a GRH: every RoCE endpoint, and InfiniBand endpoints across
     * subnets. {@code sgidIndex} is the local GID entry to send from (on SoftRoCE in the test VM,
     * index 1, the RoCE v2 IPv4-mapped GID).
     *
     * @param qpn the queue pair number
     * @param psn the packet sequence number
     * @param gid the GID
     * @param sgidIndex the index of the local (source) GID
     * @param mtu the path MTU
     * @return an endpoint reached through a GRH: every RoCE endpoint, and InfiniBand endpoints across subnets
     */
    public static RemoteEndpoint global(int qpn, int psn, Gid gid, int sgidIndex, Mtu mtu) {
        Objects.requireNonNull(gid, "ibv_modify_qp: ah_attr.grh.dgid");
        return new RemoteEndpoint(qpn, psn, 0, gid, mtu, 0, sgidIndex, DEFAULT_HOP_LIMIT, 0, 0, 0);
    }

    /**
     * An InfiniBand endpoint in the same subnet, addressed by LID alone (no GRH).
     *
     * @param qpn the queue pair number
     * @param psn the packet sequence number
     * @param lid the local identifier (LID)
     * @param mtu the path MTU
     * @return an InfiniBand endpoint in the same subnet, addressed by LID alone (no GRH)
     */
    public static RemoteEndpoint local(int qpn, int psn, int lid, Mtu mtu) {
        return new RemoteEndpoint(qpn, psn, lid, null, mtu, 0, 0, 0, 0, 0, 0);
    }

    /**
     * Whether the address vector carries a GRH ({@code is_global}).
     *
     * @return whether the address vector carries a GRH ({@code is_global})
     */
    public boolean isGlobal() {
        return gid != null;
    }

    /**
     * This endpoint sending from local port {@code port}.
     *
     * @param port the port number (1-based)
     * @return this remote endpoint
     */
    public RemoteEndpoint withPort(int port) {
        return new RemoteEndpoint(qpn, psn, lid, gid, mtu, port, sgidIndex, hopLimit, trafficClass, serviceLevel, flowLabel);
    }

    /**
     * This endpoint with another LID.
     *
     * @param lid the local identifier (LID)
     * @return this remote endpoint
     */
    public RemoteEndpoint withLid(int lid) {
        return new RemoteEndpoint(qpn, psn, lid, gid, mtu, port, sgidIndex, hopLimit, trafficClass, serviceLevel, flowLabel);
    }

    /**
     * This endpoint with another hop limit.
     *
     * @param hopLimit the hop limit
     * @return this remote endpoint
     */
    public RemoteEndpoint withHopLimit(int hopLimit) {
        return new RemoteEndpoint(qpn, psn, lid, gid, mtu, port, sgidIndex, hopLimit, trafficClass, serviceLevel, flowLabel);
    }

    /**
     * This endpoint with another traffic class.
     *
     * @param trafficClass the traffic class
     * @return this remote endpoint
     */
    public RemoteEndpoint withTrafficClass(int trafficClass) {
        return new RemoteEndpoint(qpn, psn, lid, gid, mtu, port, sgidIndex, hopLimit, trafficClass, serviceLevel, flowLabel);
    }

    /**
     * This endpoint with another service level.
     *
     * @param serviceLevel the service level
     * @return this remote endpoint
     */
    public RemoteEndpoint withServiceLevel(int serviceLevel) {
        return new RemoteEndpoint(qpn, psn, lid, gid, mtu, port, sgidIndex, hopLimit, trafficClass, serviceLevel, flowLabel);
    }

    /**
     * This endpoint with another flow label.
     *
     * @param flowLabel the flow label
     * @return this remote endpoint
     */
    public RemoteEndpoint withFlowLabel(int flowLabel) {
        return new RemoteEndpoint(qpn, psn, lid, gid, mtu, port, sgidIndex, hopLimit, trafficClass, serviceLevel, flowLabel);
    }

    /**
     * Writes the address vector into an {@code ibv_ah_attr} (zeroed by the caller), using
     * {@code defaultPort} when {@link #port()} is 0.
     *
     * @param ahAttr      a zeroed {@code struct ibv_ah_attr}
     * @param defaultPort the port to use when {@link #port()} is 0
     */
    public void writeAddressVector(MemorySegment ahAttr, int defaultPort) {
        ibv_ah_attr.dlid(ahAttr, (short) lid);
        ibv_ah_attr.sl(ahAttr, (byte) serviceLevel);
        ibv_ah_attr.port_num(ahAttr, (byte) (port != 0 ? port : defaultPort));
        if (gid != null) {
            ibv_ah_attr.is_global(ahAttr, (byte) 1);
            MemorySegment grh = ibv_ah_attr.grh(ahAttr);
            gid.write(ibv_global_route.dgid(grh));
            ibv_global_route.sgid_index(grh, (byte) sgidIndex);
            ibv_global_route.hop_limit(grh, (byte) hopLimit);
            ibv_global_route.traffic_class(grh, (byte) trafficClass);
            ibv_global_route.flow_label(grh, flowLabel);
        }
    }

}
