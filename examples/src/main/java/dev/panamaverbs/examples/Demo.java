package dev.panamaverbs.examples;

import dev.panamaverbs.Context;
import dev.panamaverbs.Device;
import dev.panamaverbs.values.DeviceAttributes;
import dev.panamaverbs.values.GidEntry;
import dev.panamaverbs.values.PortAttributes;
import dev.panamaverbs.Verbs;
import java.util.List;
import java.util.Optional;

/**
 * {@code ./verbs demo}: what a new user wants to see first. Is libibverbs usable here, which
 * devices are there, and does data really move: an RC exchange (SEND, RDMA WRITE, RDMA READ,
 * atomics) between two queue pairs on the first device (or the one named by the first argument
 * or {@code VERBS_DEMO_DEVICE}), verified byte for byte. Exit status 0 when all of that worked
 * or there is simply no device; 1 when libibverbs is unusable or a step failed.
 */
public final class Demo {
    private Demo() {}

    public static void main(String[] args) {
        System.exit(run(args.length > 0 ? args[0] : System.getenv("VERBS_DEMO_DEVICE")));
    }

    static int run(String wantedDevice) {
        if (!Verbs.isAvailable()) {
            System.out.println("libibverbs: NOT available: " + Verbs.unavailabilityCause().orElse("?"));
            return 1;
        }
        System.out.println("libibverbs: available at " + Verbs.libraryPath());
        System.out.println("capabilities: " + Verbs.capabilities());
        List<Device> devices = Verbs.devices();
        System.out.println("devices: " + devices.size());
        for (Device device : devices) {
            System.out.printf("  %-10s node GUID %s, %s, transport %s%n", device.name(),
                    device.nodeGuidString(), device.nodeType(), device.transportType());
        }
        if (devices.isEmpty()) {
            System.out.println("no RDMA device on this host: nothing to exchange. On a kernel with rdma_rxe:"
                    + " rdma link add rxe0 type rxe netdev <iface>; or run ./verbs demo --vm");
            return 0;
        }
        Optional<Device> chosen = wantedDevice == null || wantedDevice.isBlank()
                ? Optional.of(devices.getFirst()) : Verbs.device(wantedDevice);
        if (chosen.isEmpty()) {
            System.out.println("no device named " + wantedDevice);
            return 1;
        }
        try (Context context = chosen.get().open()) {
            describe(context);
            LoopbackExchange.run(context, 1, System.out);
        } catch (RuntimeException e) {
            System.out.println("FAILED: " + e);
            e.printStackTrace(System.out);
            return 1;
        }
        System.out.println("closed: every verbs object of the demo was destroyed");
        return 0;
    }

    private static void describe(Context context) {
        DeviceAttributes attributes = context.queryDevice();
        System.out.printf("%s: firmware %s, %d port(s), max QPs %d, max CQE %d, max MR size %s, atomics %s%n",
                context.device().name(), attributes.firmwareVersion(), context.portCount(), attributes.maxQp(),
                attributes.maxCqe(), Long.toUnsignedString(attributes.maxMrSize()), attributes.atomicCapability());
        PortAttributes port = context.queryPort(1);
        System.out.printf("port 1: %s, link layer %s, active MTU %s, GID table %d entries%n",
                port.state(), port.linkLayer(), port.activeMtu(), port.gidTableLength());
        for (GidEntry entry : context.gidTable(1)) {
            System.out.println("  " + entry);
        }
    }
}
