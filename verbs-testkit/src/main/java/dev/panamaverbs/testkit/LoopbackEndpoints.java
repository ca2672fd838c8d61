package dev.panamaverbs.testkit;

import dev.panamaverbs.Context;
import dev.panamaverbs.values.Gid;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.PortAttributes;

/**
 * How two queue pairs on the same port address each other: by GID (RoCE: the configured GID
 * index, which must hold a valid entry) or by LID (InfiniBand).
 *
 * @param port           the local port
 * @param gidIndex       the source (and destination) GID index; meaningful when {@code gid} is set
 * @param gid            the port's GID at {@code gidIndex} on RoCE, else {@code null}
 * @param lid            the port's LID (0 on RoCE)
 * @param portAttributes the port as queried
 */
record LoopbackEndpoints(int port, int gidIndex, Gid gid, int lid, PortAttributes portAttributes) {

    static LoopbackEndpoints of(Context context, int port, int gidIndex) {
        PortAttributes attributes = context.queryPort(port);
        if (!attributes.isActive()) {
            throw new IllegalStateException("port " + port + " of " + context + " is " + attributes.state() + ", not ACTIVE");
        }
        if (attributes.grhRequired()) {
            GidEntry entry = context.queryGid(port, gidIndex).orElseThrow(() -> new IllegalStateException(
                    "GID index " + gidIndex + " of port " + port + " is empty"));
            return new LoopbackEndpoints(port, gidIndex, entry.gid(), 0, attributes);
        }
        return new LoopbackEndpoints(port, gidIndex, null, attributes.lid(), attributes);
    }
}
