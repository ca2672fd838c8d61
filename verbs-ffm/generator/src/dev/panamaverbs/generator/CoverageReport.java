package dev.panamaverbs.generator;

import dev.panamaverbs.generator.Model.Record;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the header holds versus what was emitted, and why anything was left out. Every category
 * pairs "found" (what libclang's scan of the header, or the text of its inactive preprocessor
 * branches, saw) with "emitted" (what the emitters report they wrote). A name found but not
 * emitted needs a reason; one without (or one emitted but never found) is a coverage error and
 * the generator exits non-zero.
 *
 * <p>The report starts with a summary block (title, one line per category, the verdict) that
 * ends at the first empty line; ./verbs generate --check and GeneratorDriftTest print that block.
 */
final class CoverageReport {
    private CoverageReport() {}

    /** One kind of declaration: the names found, the names emitted, reasons for the difference. */
    static final class Category {
        final String title;
        /** Print the emitted names in the report (exported functions, structs, unions). */
        final boolean listEmitted;
        final Set<String> found = new LinkedHashSet<>();
        final Set<String> emitted = new LinkedHashSet<>();
        final Map<String, String> reasons = new LinkedHashMap<>();

        Category(String title, boolean listEmitted) {
            this.title = title;
            this.listEmitted = listEmitted;
        }

        Category found(Collection<String> names) {
            found.addAll(names);
            return this;
        }

        Category emitted(Collection<String> names) {
            emitted.addAll(names);
            return this;
        }

        Category skip(String name, String reason) {
            reasons.putIfAbsent(name, reason);
            return this;
        }

        /** Found, not emitted, with a reason. */
        List<String> skipped() {
            return found.stream().filter(n -> !emitted.contains(n) && reasons.containsKey(n)).toList();
        }

        /** Found, not emitted, and no reason: silently dropped. */
        List<String> unexplained() {
            return found.stream().filter(n -> !emitted.contains(n) && !reasons.containsKey(n)).toList();
        }

        /** Emitted but not found by the scan: the two sides disagree. */
        List<String> unfound() {
            return emitted.stream().filter(n -> !found.contains(n)).toList();
        }
    }

    /** Every coverage error: names dropped without a reason, names emitted without being found. */
    static List<String> problems(List<Category> categories) {
        List<String> out = new ArrayList<>();
        for (Category c : categories) {
            for (String n : c.unexplained()) {
                out.add(c.title + ": " + n + " found but not emitted, and no reason recorded");
            }
            for (String n : c.unfound()) {
                out.add(c.title + ": " + n + " emitted but not found by the header scan");
            }
        }
        return out;
    }

    /**
     * The summary block of one run: title, one line per category, the invoker lines, the verdict.
     * No empty line: the blocks of all runs form the report's first block.
     */
    static String summary(Target target, List<Category> categories, Generation.Coverage invokers,
                          List<String> problems) {
        StringBuilder r = new StringBuilder();
        r.append("panama-verbs generator coverage: ").append(target.headerName())
                .append(" against ").append(target.soname()).append(" (package ").append(target.packageName())
                .append(")\n");
        r.append(String.format("  %-44s %6s %8s %8s%n", "category", "found", "emitted", "skipped"));
        for (Category c : categories) {
            r.append(String.format("  %-44s %6d %8d %8d%n", c.title, c.found.size(), c.emitted.size(),
                    c.skipped().size()));
        }
        r.append("  exported functions with an invoker: ").append(invokers.exportedInvoked()).append(" of ")
                .append(invokers.exported()).append(" (").append(Target.INVOKE_PACKAGE).append('.')
                .append(target.invokerClass()).append(")\n");
        r.append("  function-pointer fields with an invoker: ").append(invokers.pointerFieldsInvoked())
                .append(" of ").append(invokers.pointerFields()).append(" (").append(Target.INVOKE_PACKAGE)
                .append(".<struct>$calls)\n");
        r.append(problems.isEmpty()
                ? "  OK: found = emitted + skipped (with a reason) in every category\n"
                : "  FAILED: " + problems.size() + " coverage error(s), listed at the end\n");
        return r.toString();
    }

    /** The details of one run: names emitted, records from elsewhere, skips with reasons, errors. */
    static String details(Target target, List<Category> categories, List<String> undeclared,
                          Collection<Record> foreign, Map<String, String> referenced, List<String> problems) {
        StringBuilder r = new StringBuilder();
        r.append("details: ").append(target.headerName()).append('\n');
        for (Category c : categories) {
            if (c.listEmitted) {
                r.append(c.title).append(", emitted (").append(c.emitted.size()).append("):\n");
                wrap(r, c.emitted);
            }
        }
        r.append("records from other headers, details:\n");
        for (Record f : foreign) {
            r.append("  ").append(f.cName()).append(" from ").append(f.header()).append(" (size ")
                    .append(f.size()).append(", align ").append(f.align()).append(f.opaque() ? ", opaque" : "")
                    .append(")\n");
        }
        r.append("records of other runs' headers embedded by value, referenced (").append(referenced.size())
                .append("):\n");
        referenced.forEach((c, java) -> r.append("  ").append(c).append(" -> ").append(java).append('\n'));
        int skippedTotal = categories.stream().mapToInt(c -> c.skipped().size()).sum();
        r.append("not emitted, with the reason (").append(skippedTotal).append("):\n");
        for (Category c : categories) {
            for (String n : c.skipped()) {
                r.append("  ").append(c.title).append(": ").append(n).append(": ").append(c.reasons.get(n)).append('\n');
            }
        }
        r.append("exported ").append(target.symbolPrefix()).append("* symbols ").append(target.headerName())
                .append(" does not declare (").append(undeclared.size()).append("):\n");
        wrap(r, undeclared);
        if (!problems.isEmpty()) {
            r.append("coverage errors (").append(problems.size()).append("):\n");
            for (String p : problems) {
                r.append("  ").append(p).append('\n');
            }
        }
        return r.toString();
    }

    /** Names separated by spaces, in lines of at most about 100 characters. */
    private static void wrap(StringBuilder r, Collection<String> names) {
        StringBuilder line = new StringBuilder(" ");
        for (String n : names) {
            if (line.length() > 1 && line.length() + 1 + n.length() > 100) {
                r.append(line).append('\n');
                line = new StringBuilder(" ");
            }
            line.append(' ').append(n);
        }
        if (line.length() > 1) {
            r.append(line).append('\n');
        }
    }
}
