package dev.panamaverbs.ffm;

import java.io.IOException;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.UnionLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Turns generated layouts into facts, each keyed by the C expression that states it
 * ({@code sizeof(struct ibv_qp)}, {@code offsetof(struct ibv_send_wr, wr.rdma.rkey)} ...), and
 * asks gcc for the values of the same expressions.
 */
final class CLayoutProbe {
    private CLayoutProbe() {}

    static final Path HEADER = Path.of("/usr/include/infiniband/verbs.h");
    static final Path RDMA_CMA_HEADER = Path.of("/usr/include/rdma/rdma_cma.h");

    /** Every fact the generated layouts state, keyed by the C expression that checks it. */
    static Map<String, Long> javaFacts(Map<String, GroupLayout> layouts) {
        Map<String, Long> facts = new LinkedHashMap<>();
        layouts.forEach((cType, layout) -> {
            facts.put("sizeof(" + cType + ")", layout.byteSize());
            facts.put("_Alignof(" + cType + ")", layout.byteAlignment());
            members(cType, layout, "", 0, facts);
        });
        return facts;
    }

    /**
     * Offsets and sizes of every named member, nested ones by their C path (wr.rdma.rkey);
     * members of anonymous structs/unions ($anonN) are addressed as C does, without a name.
     */
    private static void members(String cType, GroupLayout group, String prefix, long base, Map<String, Long> facts) {
        long offset = 0;
        for (MemoryLayout m : group.memberLayouts()) {
            long at = base + (group instanceof UnionLayout ? 0 : offset);
            offset += m.byteSize();
            if (m instanceof PaddingLayout) {
                continue;
            }
            String name = m.name().orElseThrow(() -> new AssertionError("unnamed member in " + cType));
            if (name.startsWith("$anon")) {
                members(cType, (GroupLayout) m, prefix, at, facts);
                continue;
            }
            if (name.startsWith("$")) {
                continue; // $opaque: the bytes of a type whose members are private to its header
            }
            String path = prefix + name;
            facts.put("offsetof(" + cType + ", " + path + ")", at);
            MemoryLayout element = m;
            String elementPath = path;
            boolean flexible = false;
            while (element instanceof SequenceLayout s) {
                flexible |= s.elementCount() == 0;
                element = s.elementLayout();
                elementPath += "[0]";
            }
            if (!flexible) {
                facts.put("sizeof(((" + cType + " *) 0)->" + path + ")", m.byteSize());
            }
            if (element instanceof GroupLayout g) {
                members(cType, g, elementPath + ".", at, facts);
            }
        }
    }

    /** Compiles and runs a C program including {@code <include>} and printing every fact's C value, in order. */
    static Map<String, Long> cFacts(String include, List<String> expressions, Path workDir)
            throws IOException, InterruptedException {
        StringBuilder c = new StringBuilder("#include <stddef.h>\n#include <stdio.h>\n#include <" + include + ">\n\n")
                .append("int main(void) {\n");
        for (String e : expressions) {
            c.append("    printf(\"%zu\\n\", (size_t) ").append(e).append(");\n");
        }
        List<String> lines = compileAndRun(c, "layouts", expressions.size(), workDir);
        Map<String, Long> facts = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            facts.put(expressions.get(i), Long.parseLong(lines.get(i).trim()));
        }
        return facts;
    }

    /**
     * Every public static int / long field of {@code constants} ({@link VerbsConstants}: enum
     * constants and integer #defines) as a 64-bit pattern: an int is sign-extended, as C converts
     * it to long long.
     */
    static Map<String, Long> javaConstants(Class<?> constants) throws IllegalAccessException {
        Map<String, Long> out = new LinkedHashMap<>();
        for (java.lang.reflect.Field f : constants.getFields()) {
            if (f.getType() == int.class) {
                out.put(f.getName(), (long) f.getInt(null));
            } else if (f.getType() == long.class) {
                out.put(f.getName(), f.getLong(null));
            } else {
                throw new AssertionError(constants.getSimpleName() + "." + f.getName() + " is a " + f.getType());
            }
        }
        return out;
    }

    /**
     * gcc's value of every named constant, as the 64-bit pattern of {@code (unsigned long long)
     * (NAME)}: printed with %llu so values above INT_MAX / LLONG_MAX (unsigned enums, 1ULL << 63
     * flags) survive, and negative ones wrap exactly as Java's long does. Plus whether C sees the
     * value as negative, so a positive C value stored as a negative Java int is caught too.
     */
    static Map<String, Long> cConstants(String include, List<String> names, Path workDir, Map<String, Boolean> negative)
            throws IOException, InterruptedException {
        StringBuilder c = new StringBuilder("#include <stdio.h>\n#include <" + include + ">\n\n")
                .append("#pragma GCC diagnostic ignored \"-Wtype-limits\"\n")
                .append("#pragma GCC diagnostic ignored \"-Wsign-compare\"\n")
                .append("int main(void) {\n");
        for (String n : names) {
            c.append("    printf(\"%d %llu\\n\", (").append(n).append(") < 0, (unsigned long long) (").append(n)
                    .append("));\n");
        }
        List<String> lines = compileAndRun(c, "constants", names.size(), workDir);
        Map<String, Long> values = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String[] parts = lines.get(i).trim().split(" ");
            negative.put(names.get(i), parts[0].equals("1"));
            values.put(names.get(i), Long.parseUnsignedLong(parts[1]));
        }
        return values;
    }

    /**
     * Ends {@code main} in {@code c}, builds it as {@code name} in {@code workDir} with gcc, runs it,
     * and returns its output lines, checked to be {@code expectedLines} (one per value asked).
     */
    private static List<String> compileAndRun(StringBuilder c, String name, int expectedLines, Path workDir)
            throws IOException, InterruptedException {
        c.append("    return 0;\n}\n");
        Path source = workDir.resolve(name + ".c");
        Path exe = workDir.resolve(name);
        Files.writeString(source, c);
        run(List.of("gcc", "-std=gnu11", "-o", exe.toString(), source.toString()), workDir);
        List<String> lines = run(List.of(exe.toString()), workDir).lines().toList();
        if (lines.size() != expectedLines) {
            throw new AssertionError("expected " + expectedLines + " values from the C probe, got " + lines.size());
        }
        return lines;
    }

    private static String run(List<String> command, Path dir) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed:\n" + out);
        }
        return out;
    }

    static boolean gccAvailable() {
        try {
            Process p = new ProcessBuilder("gcc", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
