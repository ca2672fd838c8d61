package dev.panamaverbs.ffm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.GroupLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The generated layouts against gcc's view of infiniband/verbs.h, member by member. */
class LayoutsMatchCTest {

    @Test
    void everyLayoutMatchesGcc(@TempDir Path work) throws Exception {
        assumeTrue(Files.isRegularFile(CLayoutProbe.HEADER), "no " + CLayoutProbe.HEADER);
        assumeTrue(CLayoutProbe.gccAvailable(), "no gcc");

        Map<String, Long> expected = CLayoutProbe.javaFacts(VerbsLayouts.ALL);
        // The walk must reach nested anonymous members, or the comparison proves little.
        assertTrue(expected.containsKey("offsetof(struct ibv_send_wr, wr.rdma.remote_addr)"));
        assertTrue(expected.containsKey("offsetof(struct ibv_wc, imm_data)"));
        assertTrue(expected.containsKey("offsetof(union ibv_gid, global.interface_id)"));
        assertTrue(expected.containsKey("offsetof(struct ibv_context, mutex)"));

        Map<String, Long> actual = CLayoutProbe.cFacts(new ArrayList<>(expected.keySet()), work);
        List<String> mismatches = new ArrayList<>();
        expected.forEach((expr, value) -> {
            if (!value.equals(actual.get(expr))) {
                mismatches.add(expr + ": generated " + value + ", gcc " + actual.get(expr));
            }
        });
        assertTrue(mismatches.isEmpty(), mismatches.size() + " of " + expected.size()
                + " layout facts differ from gcc:\n  " + String.join("\n  ", mismatches));
    }

    @Test
    void everyStructAndUnionOfTheHeadersHasALayout() throws Exception {
        assumeTrue(Files.isRegularFile(CLayoutProbe.HEADER), "no " + CLayoutProbe.HEADER);
        Pattern definition = Pattern.compile("^\\s*(struct|union)\\s+(\\w+)\\s*\\{", Pattern.MULTILINE);
        TreeSet<String> declared = new TreeSet<>();
        for (String header : List.of("verbs.h", "verbs_api.h")) {
            Path p = CLayoutProbe.HEADER.resolveSibling(header);
            if (Files.isRegularFile(p)) {
                Matcher m = definition.matcher(Files.readString(p));
                while (m.find()) {
                    declared.add(m.group(1) + " " + m.group(2));
                }
            }
        }
        assertTrue(declared.size() > 50, "the header scan found only " + declared);
        TreeSet<String> missing = new TreeSet<>(declared);
        missing.removeAll(VerbsLayouts.ALL.keySet());
        assertTrue(missing.isEmpty(), "no generated layout for " + missing);
    }

    @Test
    void everyConstantMatchesGcc(@TempDir Path work) throws Exception {
        assumeTrue(Files.isRegularFile(CLayoutProbe.HEADER), "no " + CLayoutProbe.HEADER);
        assumeTrue(CLayoutProbe.gccAvailable(), "no gcc");

        Map<String, Long> java = CLayoutProbe.javaConstants();
        assertTrue(java.size() > 400, "only " + java.size() + " constants in VerbsConstants");
        Map<String, Boolean> negative = new HashMap<>();
        Map<String, Long> c = CLayoutProbe.cConstants(new ArrayList<>(java.keySet()), work, negative);
        List<String> mismatches = new ArrayList<>();
        java.forEach((name, value) -> {
            Long cValue = c.get(name);
            boolean cNegative = negative.get(name);
            // A Java value below zero is either a negative C value or (long only) an unsigned one above
            // Long.MAX_VALUE; a negative Java int is always a negative C value.
            boolean javaInt = isInt(name);
            if (!value.equals(cValue) || (javaInt && (value < 0) != cNegative) || (!javaInt && value >= 0 && cNegative)) {
                mismatches.add(name + ": generated " + value + ", gcc " + (cNegative ? cValue : Long.toUnsignedString(cValue)));
            }
        });
        assertTrue(mismatches.isEmpty(), mismatches.size() + " of " + java.size()
                + " constants differ from gcc:\n  " + String.join("\n  ", mismatches));
    }

    private static boolean isInt(String constant) {
        try {
            return VerbsConstants.class.getField(constant).getType() == int.class;
        } catch (NoSuchFieldException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void everyGeneratedRecordClassIsInVerbsLayoutsAll() throws Exception {
        assumeTrue(Files.isDirectory(GeneratorProcess.GENERATED_TREE.resolve("dev/panamaverbs/ffm")),
                "no generated sources at " + GeneratorProcess.GENERATED_TREE);
        TreeSet<String> missing = new TreeSet<>();
        int records = 0;
        try (Stream<Path> files = Files.list(GeneratorProcess.GENERATED_TREE.resolve("dev/panamaverbs/ffm"))) {
            for (Path p : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String name = p.getFileName().toString().replace(".java", "");
                if (name.equals("module-info") || name.equals("package-info")) {
                    continue;
                }
                Class<?> type = Class.forName("dev.panamaverbs.ffm." + name);
                java.lang.reflect.Field layout;
                try {
                    layout = type.getField("LAYOUT");
                } catch (NoSuchFieldException e) {
                    continue; // VerbsConstants, VerbsFunctions ...
                }
                records++;
                if (!VerbsLayouts.ALL.containsValue((GroupLayout) layout.get(null))) {
                    missing.add(name);
                }
            }
        }
        assertEquals(VerbsLayouts.ALL.size(), records, "record classes vs VerbsLayouts.ALL entries");
        assertTrue(missing.isEmpty(), "record classes whose LAYOUT is not in VerbsLayouts.ALL: " + missing);
    }

    @Test
    void sizeAndAlignmentConstantsAgreeWithLayouts() throws Exception {
        for (Map.Entry<String, GroupLayout> e : VerbsLayouts.ALL.entrySet()) {
            GroupLayout layout = e.getValue();
            Class<?> type = Class.forName("dev.panamaverbs.ffm." + layout.name().orElseThrow());
            assertEquals(layout, type.getField("LAYOUT").get(null), e.getKey());
            assertEquals(layout.byteSize(), type.getField("SIZE").getLong(null), e.getKey());
            assertEquals(layout.byteAlignment(), type.getField("ALIGNMENT").getLong(null), e.getKey());
        }
    }
}
