package dev.panamaverbs.generator;

import dev.panamaverbs.generator.Model.Record;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/** module-info.java and VerbsLayouts, the index of every generated record layout. */
final class IndexEmitter {
    private IndexEmitter() {}

    static String moduleInfo() {
        return Main.BANNER
                + "/** Layouts, constants and function descriptors generated from infiniband/verbs.h. */\n"
                + "module dev.panamaverbs.ffm {\n"
                + "    exports dev.panamaverbs.ffm;\n"
                + "}\n";
    }

    static String layouts(Collection<Record> records) {
        Map<String, String> byCName = new TreeMap<>();
        for (Record r : records) {
            byCName.put(r.cName(), r.javaName());
        }
        StringBuilder out = new StringBuilder(Main.BANNER);
        out.append("package ").append(Main.PACKAGE).append(";\n\n");
        out.append("import java.lang.foreign.GroupLayout;\n");
        out.append("import java.util.Collections;\n");
        out.append("import java.util.Map;\n");
        out.append("import java.util.TreeMap;\n\n");
        out.append("/** Every generated struct and union layout, by the C spelling of its type. */\n");
        out.append("public final class VerbsLayouts {\n");
        out.append("    private VerbsLayouts() {}\n\n");
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
