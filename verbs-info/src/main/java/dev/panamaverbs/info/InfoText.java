package dev.panamaverbs.info;

import dev.panamaverbs.Capability;
import dev.panamaverbs.values.GidEntry;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What verbs-info prints beyond {@code ibv_devinfo}: the library section (version, availability,
 * capabilities), each device's GID table with types and netdevs, and each port's counters.
 */
final class InfoText {
    private InfoText() {}

    /** The library section: one {@code name:\tvalue} line each, no indentation. */
    static String library(LibraryInfo library) {
        StringBuilder out = new StringBuilder();
        out.append("panama-verbs:\t").append(library.version()).append('\n');
        if (library.available()) {
            out.append("libibverbs:\tavailable (").append(library.libraryPath().orElse("?")).append(")\n");
            out.append("capabilities:\t").append(names(library.capabilities())).append('\n');
            out.append("missing_capabilities:\t").append(names(library.missing())).append('\n');
        } else {
            out.append("libibverbs:\tNOT available: ").append(library.cause().orElse("?")).append('\n');
        }
        String librdmacm = library.librdmacmProblem();
        out.append("librdmacm:\t").append(librdmacm == null ? "loaded" : "NOT available: " + librdmacm).append('\n');
        out.append("rdma_cm device:\t").append(library.rdmaCmDeviceCause()
                .map(cause -> "NOT usable: " + cause).orElse(library.rdmaCmDevice() + " opens")).append('\n');
        out.append("rdma_cm:\t").append(library.rdmaCmAvailable() ? "available" : "NOT available").append('\n');
        return out.toString();
    }

    /**
     * One device's GID tables: per port a {@code gid_table port N:} header, then per valid entry
     * its index, address, type and network device.
     */
    static String gidTables(DeviceInfo info) {
        StringBuilder out = new StringBuilder();
        for (DeviceInfo.PortInfo port : info.ports()) {
            out.append(String.format(Locale.ROOT, "\tgid_table port %d:\t%d entries\n", port.attributes().port(), port.gids().size()));
            for (GidEntry gid : port.gids()) {
                out.append(String.format(Locale.ROOT, "\t\tGID[%3d]:\t%s\t%s\t%s\n", gid.index(), gid.gid().toAddressString(),
                        typeName(gid), netdev(gid)));
            }
        }
        return out.append('\n').toString();
    }

    /**
     * Each port's counters, for the ports that have them read: a {@code port_counters port N:}
     * header with the raw clock ({@code ibv_query_rt_values_ex}) or "not offered", then one
     * {@code counters/NAME} or {@code hw_counters/NAME} line per counter, values unsigned. Empty
     * when no port has counters read (no {@code --counters}).
     */
    static String portCounters(DeviceInfo info) {
        StringBuilder out = new StringBuilder();
        for (DeviceInfo.PortInfo port : info.ports()) {
            port.counters().ifPresent(taken -> {
                String clock = taken.rawClockNanos().isPresent()
                        ? Long.toUnsignedString(taken.rawClockNanos().getAsLong()) + " ns" : "not offered";
                out.append(String.format(Locale.ROOT, "\tport_counters port %d:\t%d counters, %d hw_counters, raw clock %s\n",
                        taken.port(), taken.counters().size(), taken.hardwareCounters().size(), clock));
                taken.counters().forEach((name, value) -> counterLine(out, "counters/" + name, value));
                taken.hardwareCounters().forEach((name, value) -> counterLine(out, "hw_counters/" + name, value));
            });
        }
        return out.isEmpty() ? "" : out.append('\n').toString();
    }

    private static void counterLine(StringBuilder out, String name, long value) {
        out.append("\t\t").append(name).append(":\t").append(Long.toUnsignedString(value)).append('\n');
    }

    /** The GID type as rdma-core names it: {@code IB}, {@code RoCE v1}, {@code RoCE v2}. */
    static String typeName(GidEntry gid) {
        return switch (gid.type()) {
            case IB -> "IB";
            case ROCE_V1 -> "RoCE v1";
            case ROCE_V2 -> "RoCE v2";
        };
    }

    /** The netdev's name, {@code #index} when only the index is known, {@code -} when none. */
    static String netdev(GidEntry gid) {
        return gid.netdevName().orElse(gid.netdevIndex() == 0 ? "-" : "#" + gid.netdevIndex());
    }

    private static String names(List<Capability> capabilities) {
        return capabilities.isEmpty() ? "-" : capabilities.stream().map(Enum::name).collect(Collectors.joining(" "));
    }
}
