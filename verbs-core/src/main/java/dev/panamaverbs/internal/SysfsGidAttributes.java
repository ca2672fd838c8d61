package dev.panamaverbs.internal;

import dev.panamaverbs.values.GidType;
import dev.panamaverbs.values.LinkLayer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A GID's type and network device from sysfs, for libibverbs older than 1.11 (no
 * {@code ibv_query_gid_ex}): {@code /sys/class/infiniband/<dev>/ports/<port>/gid_attrs/types/<index>}
 * holds {@code "IB/RoCE v1"} or {@code "RoCE v2"}, and {@code .../ndevs/<index>} the netdev name.
 * The kernel answers EINVAL for unused indexes, which reads as "empty" here.
 */
public final class SysfsGidAttributes {
    private static final Path ROOT = Path.of("/sys/class/infiniband");

    private SysfsGidAttributes() {}

    /** The GID type at {@code index}, or empty when sysfs has no answer. */
    public static Optional<GidType> type(String device, int port, int index, LinkLayer linkLayer) {
        return read(device, port, "types", index).map(text -> parseType(text, linkLayer));
    }

    /** The netdev name at {@code index}, or empty. */
    public static Optional<String> netdev(String device, int port, int index) {
        return read(device, port, "ndevs", index).filter(name -> !name.isEmpty());
    }

    /**
     * The type for sysfs' text: {@code "RoCE v2"} is RoCE v2; {@code "IB/RoCE v1"} is RoCE v1 on
     * Ethernet ports and IB otherwise (the kernel uses one name for both, as rdma-core does).
     */
    public static GidType parseType(String text, LinkLayer linkLayer) {
        String trimmed = text.strip();
        if (trimmed.equalsIgnoreCase("RoCE v2")) {
            return GidType.ROCE_V2;
        }
        if (trimmed.equalsIgnoreCase("IB/RoCE v1") || trimmed.equalsIgnoreCase("RoCE v1") || trimmed.equalsIgnoreCase("IB")) {
            return linkLayer == LinkLayer.ETHERNET ? GidType.ROCE_V1 : GidType.IB;
        }
        throw new IllegalArgumentException("unknown GID type in sysfs: '" + text + "'");
    }

    private static Optional<String> read(String device, int port, String attribute, int index) {
        Path file = ROOT.resolve(device).resolve("ports").resolve(Integer.toString(port))
                .resolve("gid_attrs").resolve(attribute).resolve(Integer.toString(index));
        try {
            return Optional.of(Files.readString(file).strip());
        } catch (IOException | SecurityException unreadable) {
            return Optional.empty();
        }
    }
}
