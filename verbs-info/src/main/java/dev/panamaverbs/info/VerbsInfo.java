package dev.panamaverbs.info;

import dev.panamaverbs.Device;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.VerbsException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code verbs-info [--json] [-d DEV] [-v] [-c]}: the library section, then for each device what
 * {@code ibv_devinfo [-v]} prints (same lines) followed by its GID tables with types and netdevs
 * and, with {@code -c}, each port's counters; or all of it as JSON. Exit status 0 when everything was read (also when there is no device),
 * 1 when libibverbs is unavailable, the named device is missing or a query failed, 2 for a bad
 * command line.
 */
public final class VerbsInfo {
    /** The hint printed when libibverbs lists no device. */
    static final String NO_DEVICE = "no RDMA device on this host; SoftRoCE: rdma link add rxe0 type rxe netdev <iface>"
            + " (./verbs info --vm asks the project's rxe VM)\n";

    private VerbsInfo() {}

    /**
     * Runs verbs-info and exits with its status.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(run(List.of(args), System.out, System.err));
    }

    /** Runs verbs-info, printing to {@code out} and {@code err}; returns the exit status. */
    static int run(List<String> args, PrintStream out, PrintStream err) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.print("verbs-info: " + e.getMessage() + "\n" + Options.USAGE);
            return 2;
        }
        if (options.help()) {
            out.print(Options.USAGE);
            return 0;
        }
        LibraryInfo library = LibraryInfo.current();
        List<DeviceInfo> devices = new ArrayList<>();
        int status = 0;
        if (!library.available()) {
            status = 1;
        } else {
            try {
                for (Device device : selected(options)) {
                    devices.add(InfoCollector.collect(device, options.counters()));
                }
            } catch (IllegalArgumentException | IllegalStateException | VerbsException e) {
                err.println("verbs-info: " + e.getMessage());
                status = 1;
            }
        }
        if (options.json()) {
            out.print(JsonReport.format(library, devices));
        } else {
            out.print(text(library, devices, options.verbose()));
            if (library.available() && status == 0 && devices.isEmpty()) {
                out.print(NO_DEVICE);
            }
        }
        out.flush();
        return status;
    }

    /** The text report: the library section, then each device's ibv_devinfo block, GID tables and counters (when read). */
    static String text(LibraryInfo library, List<DeviceInfo> devices, boolean verbose) {
        StringBuilder text = new StringBuilder(InfoText.library(library));
        if (library.available()) {
            text.append("devices:\t").append(devices.size()).append("\n\n");
        }
        for (DeviceInfo device : devices) {
            text.append(DevinfoText.format(device, verbose)).append(InfoText.gidTables(device))
                    .append(InfoText.portCounters(device));
        }
        return text.toString();
    }

    private static List<Device> selected(Options options) {
        if (options.device().isEmpty()) {
            return Verbs.devices();
        }
        String name = options.device().get();
        return List.of(Verbs.device(name).orElseThrow(() -> new IllegalArgumentException("IB device '" + name + "' wasn't found")));
    }
}
