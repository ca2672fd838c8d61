package dev.panamaverbs.values;

import dev.panamaverbs.internal.Ranges;
import dev.panamaverbs.ffm.ibv_global_route;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The global routing header of an address (C {@code struct ibv_global_route}, the {@code grh} of
 * {@code ibv_ah_attr}): the destination GID and the IPv6/GRH fields sent with every packet. RoCE
 * always needs one, since a GID is the only address there; InfiniBand only across subnets.
 *
 * @param destinationGid the destination GID ({@code dgid})
 * @param flowLabel      {@code flow_label}, 20 bits
 * @param sourceGidIndex the local GID table index to send from ({@code sgid_index}); on RoCE it
 *                       picks the RoCE version and IP family (choose by {@link GidEntry#type()})
 * @param hopLimit       {@code hop_limit}: the IP TTL on RoCE v2
 * @param trafficClass   {@code traffic_class}: the IP DSCP/ECN byte on RoCE v2
 */
public record GlobalRoute(Gid destinationGid, int flowLabel, int sourceGidIndex, int hopLimit, int trafficClass) {
    /** The hop limit the factories use: enough for any routed RoCE v2 path. */
    public static final int DEFAULT_HOP_LIMIT = 64;

    /** Checks every field against its C width. */
    public GlobalRoute {
        Objects.requireNonNull(destinationGid, "ibv_create_ah: grh.dgid is null");
        Ranges.require("ibv_create_ah", "grh.flow_label", flowLabel, 0, 0xF_FFFF);
        Ranges.require("ibv_create_ah", "grh.sgid_index", sourceGidIndex, 0, 255);
        Ranges.require("ibv_create_ah", "grh.hop_limit", hopLimit, 0, 255);
        Ranges.require("ibv_create_ah", "grh.traffic_class", trafficClass, 0, 255);
    }

    /** {@code IB_ROCE_UDP_ENCAP_VALID_PORT_MIN}: the lowest UDP source port RoCE v2 derives from a flow label. */
    public static final int ROCE_UDP_SOURCE_PORT_MIN = 0xC000;

    /**
     * The UDP source port RoCE v2 uses for a flow label ({@code ibv_flow_label_to_udp_sport}, a
     * {@code static inline} of verbs.h, computed here as it does): the label's low 14 bits XOR its
     * high 6 bits, in the range {@code 0xC000..0xFFFF}. Useful to pick a flow label that spreads
     * traffic over ECMP paths.
     *
     * @param flowLabel a 20-bit flow label
     * @return the UDP source port, 0xC000..0xFFFF
     * @throws IllegalArgumentException if {@code flowLabel} is not in 0..0xFFFFF
     */
    public static int udpSourcePort(int flowLabel) {
        if (flowLabel < 0 || flowLabel > 0xF_FFFF) {
            throw new IllegalArgumentException("ibv_flow_label_to_udp_sport: the flow label must be in 0..0xfffff, got "
                    + flowLabel);
        }
        int low = flowLabel & 0x03FFF;
        int high = flowLabel & 0xFC000;
        low ^= high >>> 14;
        return (low | ROCE_UDP_SOURCE_PORT_MIN) & 0xFFFF;
    }

    /**
     * {@link #udpSourcePort(int)} of this route's {@link #flowLabel()}.
     *
     * @return the UDP source port RoCE v2 uses for this route's flow label
     */
    public int udpSourcePort() {
        return udpSourcePort(flowLabel);
    }

    /**
     * A route to {@code destinationGid} from local GID {@code sourceGidIndex}, hop limit 64, class and label 0.
     *
     * @param destinationGid the destination GID
     * @param sourceGidIndex the index of the local (source) GID
     * @return a route to {@code destinationGid} from local GID {@code sourceGidIndex}, hop limit 64, class and label 0
     */
    public static GlobalRoute to(Gid destinationGid, int sourceGidIndex) {
        return new GlobalRoute(destinationGid, 0, sourceGidIndex, DEFAULT_HOP_LIMIT, 0);
    }

    /**
     * As {@link #to(Gid, int)} from the GID's 16 bytes (network byte order).
     *
     * @throws IllegalArgumentException unless {@code destinationGid} has 16 bytes
     * @param destinationGid the destination GID
     * @param sourceGidIndex the index of the local (source) GID
     * @return this global route
     */
    public static GlobalRoute to(byte[] destinationGid, int sourceGidIndex) {
        Objects.requireNonNull(destinationGid, "ibv_create_ah: grh.dgid is null");
        if (destinationGid.length != Gid.SIZE) {
            throw new IllegalArgumentException("ibv_create_ah: grh.dgid must be " + Gid.SIZE + " bytes, got "
                    + destinationGid.length);
        }
        return to(Gid.of(destinationGid), sourceGidIndex);
    }

    /**
     * This route with another hop limit.
     *
     * @param hopLimit the hop limit
     * @return this global route
     */
    public GlobalRoute withHopLimit(int hopLimit) {
        return new GlobalRoute(destinationGid, flowLabel, sourceGidIndex, hopLimit, trafficClass);
    }

    /**
     * This route with another traffic class.
     *
     * @param trafficClass the traffic class
     * @return this global route
     */
    public GlobalRoute withTrafficClass(int trafficClass) {
        return new GlobalRoute(destinationGid, flowLabel, sourceGidIndex, hopLimit, trafficClass);
    }

    /**
     * This route with another flow label.
     *
     * @param flowLabel the flow label
     * @return this global route
     */
    public GlobalRoute withFlowLabel(int flowLabel) {
        return new GlobalRoute(destinationGid, flowLabel, sourceGidIndex, hopLimit, trafficClass);
    }

    /**
     * Writes the fields into a {@code struct ibv_global_route}.
     *
     * @param grh a {@code struct ibv_global_route}
     */
    public void writeTo(MemorySegment grh) {
        destinationGid.write(ibv_global_route.dgid(grh));
        ibv_global_route.flow_label(grh, flowLabel);
        ibv_global_route.sgid_index(grh, (byte) sourceGidIndex);
        ibv_global_route.hop_limit(grh, (byte) hopLimit);
        ibv_global_route.traffic_class(grh, (byte) trafficClass);
    }
}
