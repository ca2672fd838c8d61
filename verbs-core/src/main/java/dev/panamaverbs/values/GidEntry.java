package dev.panamaverbs.values;

import java.util.Objects;
import java.util.Optional;

/**
 * One valid entry of a port's GID table (C {@code struct ibv_gid_entry}), as
 * {@link dev.panamaverbs.Context#gidTable(int)} returns it.
 *
 * @param port        the port number, from 1
 * @param index       the GID index: what an address handle's or QP's {@code sgid_index} takes
 * @param gid         the GID
 * @param type        IB, RoCE v1 or RoCE v2
 * @param netdevIndex the network interface the GID belongs to ({@code ndev_ifindex}), 0 if none
 * @param netdevName  that interface's name (e.g. {@code eth0}), when known
 */
public record GidEntry(int port, int index, Gid gid, GidType type, int netdevIndex, Optional<String> netdevName) {
    /** Checks the components. */
    public GidEntry {
        Objects.requireNonNull(gid, "gid");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(netdevName, "netdevName");
    }

    /**
     * True for a RoCE v2 GID holding an IPv4-mapped address: the one RoCE v2 over IPv4 uses.
     *
     * @return true for a RoCE v2 GID holding an IPv4-mapped address: the one RoCE v2 over IPv4 uses
     */
    public boolean isRoceV2Ipv4() {
        return type == GidType.ROCE_V2 && gid.isIpv4Mapped();
    }

    /** e.g. {@code GidEntry[port=1, index=1, gid=::ffff:10.0.2.15, type=ROCE_V2, netdev=eth0]}. */
    @Override
    public String toString() {
        return "GidEntry[port=" + port + ", index=" + index + ", gid=" + gid.toAddressString()
                + ", type=" + type + ", netdev=" + netdevName.orElse(netdevIndex == 0 ? "-" : "#" + netdevIndex) + "]";
    }
}
