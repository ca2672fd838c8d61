package dev.panamaverbs.it.support;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.cm.ConnectionEventChannel;
import dev.panamaverbs.cm.ConnectionId;
import dev.panamaverbs.cm.PortSpace;
import dev.panamaverbs.cm.RdmaCm;
import dev.panamaverbs.testkit.TestDevice;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What the rdma_cm device tests share: the precondition (librdmacm and /dev/infiniband/rdma_cm;
 * a skip with the reason, but a failure in CI or inside the project's VM, where both must be
 * there), the device's own IPv4 address (rxe0's or siw0's, 10.0.2.15 in the VM: no traffic leaves it), and
 * a bounded completion wait.
 */
public final class RdmaCmSupport {
    /** An address in RFC 2544's benchmarking range with no host behind it, probed only inside the VM. */
    public static final String UNREACHABLE = "198.18.255.254";

    /** How long the rdma_cm device tests wait for a request, an event or the other side. */
    public static final Duration WAIT = Duration.ofSeconds(20);

    private RdmaCmSupport() {}

    /**
     * Fails, never skips, unless rdma_cm can run here: for the two-host tests, which run only
     * where it must work.
     *
     * @param host the host named in the failure (e.g. "host A")
     */
    public static void failWithoutRdmaCm(String host) {
        if (!RdmaCm.isAvailable()) {
            fail("rdma_cm unavailable on " + host + ": " + RdmaCm.unavailabilityCause().orElse("?"));
        }
    }

    /** Skips (or in CI / the VM fails) unless rdma_cm can run here. */
    public static void requireRdmaCm() {
        if (!RdmaCm.isAvailable()) { // the libraries and /dev/infiniband/rdma_cm
            String missing = "rdma_cm unavailable: " + RdmaCm.unavailabilityCause().orElse("?");
            if ("true".equals(System.getenv("CI")) || "1".equals(System.getenv("VERBS_IN_VM"))) {
                fail(missing + " (in CI and in the project's VM the rdma_cm tests must run)");
            }
            assumeTrue(false, missing);
        }
    }

    /**
     * Resolves {@code peer} once through rdma_cm ({@code rdma_resolve_addr}), waiting up to a
     * minute, so that this host's kernel holds a neighbour entry for it. The first ARP over the
     * two VMs' link can take seconds on a loaded host (one CI run timed out a 10 s resolve there);
     * a test that gives its peer process a tight timeout, to see a dead peer noticed quickly,
     * must not spend that timeout on the first ARP.
     *
     * @param peer the other host's address on the link
     */
    public static void resolveOnce(InetAddress peer) {
        try (ConnectionEventChannel events = ConnectionEventChannel.create();
             ConnectionId id = events.createIdentifier(PortSpace.TCP)) {
            id.resolveAddress(new InetSocketAddress(peer, 0), Duration.ofMinutes(1));
        }
    }

    /**
     * {@link #requireRdmaCm()}, then {@code device}'s IPv4 address ({@link #deviceAddress}).
     *
     * @param device the device under test
     * @return the device's IPv4 address
     */
    public static InetAddress requireRdmaCm(TestDevice device) {
        requireRdmaCm();
        return deviceAddress(device);
    }

    /** True inside the project's VM, the only place the unreachable probe may be sent. */
    public static boolean insideProjectVm() {
        return "1".equals(System.getenv("VERBS_IN_VM"));
    }

    /**
     * The device's IPv4 address: from its RoCE v2 IPv4-mapped GID (RoCE), else the first IPv4
     * address of the network interface a GID entry names, or whose MAC a GID begins with (iWARP,
     * e.g. siw: its GIDs are MAC-based and, in Linux 6.1, name no netdev). Skips when it has none.
     */
    public static InetAddress deviceAddress(TestDevice device) {
        try (Context context = DeviceScope.openContext(device)) {
            Optional<GidEntry> roce = context.roceV2Ipv4Gid(device.port());
            if (roce.isPresent()) {
                byte[] raw = roce.get().gid().toByteArray();
                return InetAddress.getByAddress(Arrays.copyOfRange(raw, 12, 16));
            }
            List<GidEntry> gids = context.gidTable(device.port());
            Optional<NetworkInterface> nic = Optional.empty();
            for (GidEntry entry : gids) {
                nic = entry.netdevName().isPresent()
                        ? Optional.ofNullable(NetworkInterface.getByName(entry.netdevName().get()))
                        : interfaceWithMacOf(entry.gid().toByteArray()); // siw's GIDs begin with its netdev's MAC
                if (nic.isPresent()) {
                    break;
                }
            }
            assumeTrue(nic.isPresent(), device.name() + " has neither a RoCE v2 IPv4 GID nor a GID naming (or starting"
                    + " with the MAC of) a netdev: no IP address for rdma_cm");
            Optional<InetAddress> ipv4 = nic.get().inetAddresses().filter(Inet4Address.class::isInstance).findFirst();
            assumeTrue(ipv4.isPresent(), device.name() + "'s netdev " + nic.get().getName() + " has no IPv4 address for rdma_cm");
            return ipv4.get();
        } catch (UnknownHostException | SocketException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The network interface whose MAC address the first six bytes of {@code gid} are, if any. */
    private static Optional<NetworkInterface> interfaceWithMacOf(byte[] gid) throws SocketException {
        byte[] mac = Arrays.copyOf(gid, 6);
        return NetworkInterface.networkInterfaces().filter(nic -> {
            try {
                return Arrays.equals(mac, nic.getHardwareAddress());
            } catch (SocketException e) {
                return false;
            }
        }).findFirst();
    }

        /** {@code address}:0, a port the listener picks. */
    public static InetSocketAddress anyPort(InetAddress address) {
        return new InetSocketAddress(address, 0);
    }

    /**
     * Polls {@code cq} until one completion arrives (10 s at most) and fails on an error status.
     * Takes at most one, so a second completion already queued (a slow thread under TCG can find
     * the SEND's and the RECV's together) is left for the next call instead of being dropped.
     */
    public static void awaitOne(CompletionQueue cq, Completions wc, String what) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (cq.poll(wc, 1) == 0) {
            if (System.nanoTime() > deadline) {
                fail("no completion for " + what + " within 10 s");
            }
            Thread.onSpinWait();
        }
        wc.throwIfFailed(0);
    }
}
