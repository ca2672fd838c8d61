package dev.panamaverbs.generator;

import dev.panamaverbs.generator.Model.Record;
import dev.panamaverbs.generator.Model.Skipped;

import java.util.Collection;
import java.util.List;

/** What the header holds versus what was emitted, and why anything was left out. */
final class CoverageReport {
    private CoverageReport() {}

    record Counts(int structsFound, long structsEmitted, int unionsFound, long unionsEmitted,
                  int foreignRecords, int enums, int enumConstants,
                  int objectMacros, int integerMacros, int constantsEmitted,
                  int functionsDeclared, int functionsExported, int staticInline, int functionMacros) {}

    static String render(String header, String library, Counts c, List<Skipped> skipped,
                         List<String> undeclared, Collection<Record> foreign) {
        StringBuilder r = new StringBuilder();
        r.append("panama-verbs generator coverage: ").append(Names.headerName(header))
                .append(" against ").append(library.substring(library.lastIndexOf('/') + 1)).append('\n');
        line(r, "structs (found / emitted)", c.structsFound() + " / " + c.structsEmitted());
        line(r, "unions (found / emitted)", c.unionsFound() + " / " + c.unionsEmitted());
        line(r, "records from other headers, embedded by value", String.valueOf(c.foreignRecords()));
        line(r, "enums", String.valueOf(c.enums()));
        line(r, "enum constants (found / emitted)", c.enumConstants() + " / " + c.enumConstants());
        line(r, "object-like #defines (found / integer, emitted)", c.objectMacros() + " / " + c.integerMacros());
        line(r, "VerbsConstants fields", String.valueOf(c.constantsEmitted()));
        line(r, "functions declared non-inline / exported, emitted", c.functionsDeclared() + " / " + c.functionsExported());
        line(r, "static inline functions (listed in INLINE)", String.valueOf(c.staticInline()));
        line(r, "function-like macros (listed in INLINE)", String.valueOf(c.functionMacros()));
        for (Record f : foreign) {
            r.append("  ").append(f.cName()).append(" from ").append(f.header()).append(" (size ")
                    .append(f.size()).append(", align ").append(f.align()).append(f.opaque() ? ", opaque" : "")
                    .append(")\n");
        }
        r.append("skipped (").append(skipped.size()).append("):\n");
        for (Skipped s : skipped) {
            r.append("  ").append(s.what()).append(": ").append(s.reason()).append('\n');
        }
        r.append("exported ibv_* symbols verbs.h does not declare (").append(undeclared.size()).append("):\n");
        for (String u : undeclared) {
            r.append("  ").append(u).append('\n');
        }
        return r.toString();
    }

    private static void line(StringBuilder r, String what, String value) {
        r.append(String.format("  %-52s %s%n", what, value));
    }
}
