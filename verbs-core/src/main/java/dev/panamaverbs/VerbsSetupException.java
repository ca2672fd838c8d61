package dev.panamaverbs;

import dev.panamaverbs.loader.internal.LibIbverbs;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.PortAttributes;
import java.util.List;
import java.util.stream.Collectors;

/**
 * libibverbs works, but this host lacks what the caller asked for: no RDMA device at all, or no
 * RoCE v2 GID with an IPv4 address on a port. The message names what is missing and how it is
 * usually provided; it is meant to be shown to a person as is.
 *
 * @see Verbs#firstDevice()
 * @see Context#requireRoceV2Ipv4Gid(int)
 */
public class VerbsSetupException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /**
     * This host lacks something, as {@code message} says.
     *
     * @param message what is missing, and how it is usually provided
     */
    public VerbsSetupException(String message) {
        super(message, null);
    }

    /** The message when {@code ibv_get_device_list} lists no device. */
    static VerbsSetupException noDevice() {
        return new VerbsSetupException("no RDMA device: libibverbs (" + LibIbverbs.LIBRARY.libraryPath() + ") lists none."
                + " Load the driver of your NIC, or create a SoftRoCE device on an Ethernet interface:"
                + " modprobe rdma_rxe && rdma link add rxe0 type rxe netdev eth0 (devices appear in"
                + " /sys/class/infiniband; `rdma link` lists them)");
    }

    /** The message when a port has no RoCE v2 GID holding an IPv4 address. */
    static VerbsSetupException noRoceV2Ipv4Gid(String device, int port, PortAttributes attributes, List<GidEntry> gids) {
        String table = gids.isEmpty() ? "the GID table is empty"
                : "its GIDs: " + gids.stream().map(GidEntry::toString).collect(Collectors.joining(", "));
        String hint = attributes.isEthernet()
                ? " Give the port's network interface an IPv4 address (e.g. ip addr add 192.0.2.1/24 dev eth0)"
                        + " and bring it up; the kernel then adds the RoCE v2 GID ::ffff:a.b.c.d."
                : " This is not a RoCE port (link layer " + attributes.linkLayer() + "): address peers by LID"
                        + " (RemoteEndpoint.local), not by an IPv4-mapped GID.";
        return new VerbsSetupException(device + " port " + port + " has no RoCE v2 GID with an IPv4 address ("
                + table + ")." + hint);
    }
}
