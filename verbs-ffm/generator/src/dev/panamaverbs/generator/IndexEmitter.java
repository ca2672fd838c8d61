package dev.panamaverbs.generator;

import dev.panamaverbs.generator.Model.Record;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** module-info.java and VerbsLayouts (RdmaCmLayouts ...), the index of every generated record layout. */
final class IndexEmitter {
    private IndexEmitter() {}

    /** Modules the invokers are exported to: the loader, core and the benchmarks, no one else. */
    static final List<String> INVOKE_READERS = List.of("dev.panamaverbs.loader", "dev.panamaverbs.core",
            "dev.panamaverbs.benchmarks");

    static String moduleInfo(List<Target> targets) {
        StringBuilder out = new StringBuilder(Main.BANNER);
        List<String> headers = targets.stream().map(Target::headerName).toList();
        out.append("/**\n")
                .append(" * Layouts, constants, function descriptors and invokers generated from ")
                .append(String.join(", ", headers)).append(".\n")
                .append(" * The invokers make downcall handles: this module needs native access.\n")
                .append(" */\n");
        // "module": a qualified export may name a module absent from the build (the benchmarks).
        out.append("@SuppressWarnings(\"module\")\n");
        out.append("module dev.panamaverbs.ffm {\n");
        for (String p : new TreeSet<>(targets.stream().map(Target::packageName).toList())) {
            out.append("    exports ").append(p).append(";\n");
        }
        out.append("    exports ").append(Target.INVOKE_PACKAGE).append(" to\n        ")
                .append(String.join(",\n        ", INVOKE_READERS)).append(";\n");
        out.append("}\n");
        return out.toString();
    }

    static String layouts(Target target, Collection<Record> records) {
        Map<String, String> byCName = new TreeMap<>();
        for (Record r : records) {
            byCName.put(r.cName(), r.javaName());
        }
        StringBuilder out = JavaFile.start(target, target.packageName(), List.of(),
                List.of("java.lang.foreign.GroupLayout", "java.util.Collections", "java.util.Map", "java.util.TreeMap"));
        out.append("/** Every generated struct and union layout, by the C spelling of its type. */\n");
        String name = target.classPrefix() + "Layouts";
        out.append("public final class ").append(name).append(" {\n");
        out.append("    private ").append(name).append("() {}\n\n");
        out.append("    /**\n")
                .append("     * C type as written in C ({@code \"struct ibv_qp\"}, {@code \"union ibv_gid\"},\n")
                .append("     * {@code \"pthread_mutex_t\"}) to the {@code LAYOUT} of its generated class, sorted by name.\n")
                .append("     * Touching this map initialises every record class.\n")
                .append("     */\n");
        out.append("    public static final Map<String, GroupLayout> ALL;\n\n");
        out.append("    static {\n");
        out.append("        Map<String, GroupLayout> all = new TreeMap<>();\n");
        for (Map.Entry<String, String> e : byCName.entrySet()) {
            out.append("        all.put(\"").append(e.getKey()).append("\", ").append(e.getValue()).append(".LAYOUT);\n");
        }
        out.append("        ALL = Collections.unmodifiableMap(all);\n");
        out.append("    }\n}\n");
        return out.toString();
    }
}
