package dev.panamaverbs.it.support;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.Context;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.Mtu;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.values.RemoteEndpoint;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.util.EnumSet;

/**
 * What many device tests open first: a context on the test device, a protection domain in it, and
 * an arena for buffers. Closing closes the arena, then the protection domain, then the context,
 * as the try-with-resources it replaces did.
 *
 * @param context the device's context
 * @param pd      a protection domain in {@code context}
 * @param arena   confined ({@link #open}) or shared ({@link #openShared}), for buffers
 */
public record DeviceScope(Context context, ProtectionDomain pd, Arena arena) implements AutoCloseable {

    /** A context on the test device. */
    public static Context openContext(TestDevice device) {
        return Verbs.device(device.name()).orElseThrow(() -> new AssertionError(device.name() + " is not listed")).open();
    }

    /** The RoCE v2 IPv4 source GID, chosen by type; the configured index when the port has none. */
    public static GidEntry sourceGid(Context context, TestDevice device) {
        return context.roceV2Ipv4Gid(device.port())
                .or(() -> context.queryGid(device.port(), device.gidIndex()))
                .orElseThrow(() -> new AssertionError("no GID at index " + device.gidIndex()));
    }

    /**
     * Connects two RC queue pairs of {@code context} to each other on the test device's port
     * (INIT with LOCAL_WRITE, RTR through the source GID at the port's active MTU, RTS). By hand,
     * without rdma_cm: a device without {@link DeviceCapability#CONNECT_WITHOUT_CM} skips the test.
     */
    public static void connectLoopback(Context context, TestDevice device, QueuePair first, QueuePair second) {
        DeviceCapability.CONNECT_WITHOUT_CM.require(context);
        GidEntry gid = sourceGid(context, device);
        Mtu mtu = context.queryPort(device.port()).activeMtu();
        first.toInit(device.port(), EnumSet.of(AccessFlag.LOCAL_WRITE));
        second.toInit(device.port(), EnumSet.of(AccessFlag.LOCAL_WRITE));
        first.toRtr(RemoteEndpoint.global(second.number(), 0, gid.gid(), gid.index(), mtu));
        second.toRtr(RemoteEndpoint.global(first.number(), 0, gid.gid(), gid.index(), mtu));
        first.toRts();
        second.toRts();
    }

    /** A scope whose arena is confined to this thread. */
    public static DeviceScope open(TestDevice device) {
        return open(device, false);
    }

    /** A scope whose arena other threads (a virtual waiter) may use too. */
    public static DeviceScope openShared(TestDevice device) {
        return open(device, true);
    }

    private static DeviceScope open(TestDevice device, boolean shared) {
        Context context = openContext(device);
        try {
            ProtectionDomain pd = context.allocateProtectionDomain();
            return new DeviceScope(context, pd, shared ? Arena.ofShared() : Arena.ofConfined());
        } catch (Throwable t) {
            closeAfterFailure(context, t); // closes the protection domain too
            throw t;
        }
    }

    /**
     * Closes {@code context} after {@code failure} while opening what needs it, as try-with-resources
     * would: a failure to close is suppressed into {@code failure}.
     */
    public static void closeAfterFailure(Context context, Throwable failure) {
        try {
            context.close();
        } catch (Throwable suppressed) {
            failure.addSuppressed(suppressed);
        }
    }

    @Override
    public void close() {
        try (context; pd; arena) {
            // closed in reverse order, later failures suppressed into the first
        }
    }
}
