package dev.panamaverbs.cm;

import dev.panamaverbs.AddressHandleAttributes;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.RemoteRegion;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.Mtu;
import dev.panamaverbs.values.ReadyToSendOptions;
import dev.panamaverbs.values.RemoteEndpoint;
import java.util.Objects;
import java.util.Optional;

/**
 * What one side of a connection tells the other so that both can connect their queue pairs
 * without rdma_cm: the queue pair number, the first packet sequence number it will send, its LID
 * and GID, the path MTU, for UD the Q_Key, and optionally a memory region the peer may access.
 * {@link EndpointExchange} carries it over a socket; {@link #toRemoteEndpoint(int)} turns the
 * peer's into what {@link QueuePair#toRtr(RemoteEndpoint)} takes.
 *
 * <pre>{@code
 * EndpointInfo mine = EndpointInfo.of(qp, psn, gid.gid(), Mtu.MTU_1024).withRegion(mr);
 * EndpointInfo theirs = EndpointExchange.connect(serverAddress, mine, Duration.ofSeconds(10));
 * qp.toRtr(theirs.toRemoteEndpoint(gid.index()));
 * qp.toRts(ReadyToSendOptions.withPsn(psn).withRetryCount(6));
 * }</pre>
 *
 * @param qpn    the queue pair number (24 bits)
 * @param psn    the first packet sequence number this side sends (24 bits): the peer's {@code rq_psn}
 * @param lid    the port's LID (16 bits; 0 on RoCE)
 * @param gid    the GID this side sends from, or {@code null} (InfiniBand within a subnet, by LID)
 * @param mtu    the path MTU this side proposes (its port's active MTU, say); each side should
 *               use the smaller of the two ({@link #commonMtu(EndpointInfo)})
 * @param qkey   the Q_Key a UD queue pair was given (0 when unused)
 * @param region a memory region the peer may access with RDMA READ, WRITE or atomics, if any
 */
public record EndpointInfo(int qpn, int psn, int lid, Gid gid, Mtu mtu, int qkey, Optional<RemoteRegion> region) {
    /** Checks every field against its width on the wire. */
    public EndpointInfo {
        requireRange("qpn", qpn, 0xFF_FFFF);
        requireRange("psn", psn, 0xFF_FFFF);
        requireRange("lid", lid, 0xFFFF);
        Objects.requireNonNull(mtu, "mtu");
        Objects.requireNonNull(region, "region (Optional.empty() for none)");
    }

    /**
     * A RoCE (or routed InfiniBand) endpoint: {@code qp}'s number, the PSN it will send first, its GID.
     *
     * @param qp the local queue pair whose number is advertised
     * @param psn the packet sequence number it will send first
     * @param gid its port's GID (RoCE: the RoCE v2 IPv4-mapped one)
     * @param mtu its path MTU
     * @return the endpoint
     */
    public static EndpointInfo of(QueuePair qp, int psn, Gid gid, Mtu mtu) {
        Objects.requireNonNull(gid, "gid");
        return new EndpointInfo(qp.number(), psn, 0, gid, mtu, 0, Optional.empty());
    }

    /**
     * This endpoint with a LID (InfiniBand).
     *
     * @param lid its port's LID
     * @return a copy with {@code lid}
     */
    public EndpointInfo withLid(int lid) {
        return new EndpointInfo(qpn, psn, lid, gid, mtu, qkey, region);
    }

    /**
     * This endpoint with a Q_Key (UD).
     *
     * @param qkey the Q_Key its UD queue pair accepts
     * @return a copy with {@code qkey}
     */
    public EndpointInfo withQkey(int qkey) {
        return new EndpointInfo(qpn, psn, lid, gid, mtu, qkey, region);
    }

    /**
     * This endpoint advertising {@code region} (its iova, rkey and length) to the peer.
     *
     * @param region the region the peer may read or write
     * @return a copy advertising {@code region}
     */
    public EndpointInfo withRegion(MemoryRegion region) {
        return withRegion(RemoteRegion.of(region));
    }

    /**
     * This endpoint advertising {@code region} to the peer.
     *
     * @param region the region the peer may read or write
     * @return a copy advertising {@code region}
     */
    public EndpointInfo withRegion(RemoteRegion region) {
        return new EndpointInfo(qpn, psn, lid, gid, mtu, qkey, Optional.of(region));
    }

    /**
     * The smaller of this endpoint's MTU and {@code other}'s: what both sides should use as the path MTU.
     *
     * @param other the peer's endpoint
     * @return the smaller MTU of the two
     */
    public Mtu commonMtu(EndpointInfo other) {
        return mtu.value() <= other.mtu.value() ? mtu : other.mtu;
    }

    /**
     * This (the peer's) endpoint as the remote end of a local RC or UC queue pair: through a GRH
     * when it has a GID ({@code sgidIndex} picks the local GID to send from), else by LID.
     * @param sgidIndex the index of the local GID to send from
     * @return the remote end to connect a local RC or UC queue pair to
     */
    public RemoteEndpoint toRemoteEndpoint(int sgidIndex) {
        return gid != null
                ? RemoteEndpoint.global(qpn, psn, gid, sgidIndex, mtu).withLid(lid)
                : RemoteEndpoint.local(qpn, psn, lid, mtu);
    }

    /**
     * An address handle's attributes that reach this (the peer's) endpoint from local {@code port} (UD).
     *
     * @param port the local port number (from 1)
     * @param sgidIndex the index of the local GID to send from
     * @return the address handle attributes
     */
    public AddressHandleAttributes toAddressHandleAttributes(int port, int sgidIndex) {
        return gid != null
                ? AddressHandleAttributes.global(port, sgidIndex, gid)
                : AddressHandleAttributes.local(port, lid);
    }

    private static void requireRange(String field, int value, int max) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException("endpoint " + field + " must be in 0.." + max + ", got " + value);
        }
    }
}
