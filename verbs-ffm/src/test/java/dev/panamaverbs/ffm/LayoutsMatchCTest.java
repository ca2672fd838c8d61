package dev.panamaverbs.ffm;

import dev.panamaverbs.ffm.rdmacm.RdmaCmConstants;
import dev.panamaverbs.ffm.rdmacm.RdmaCmLayouts;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

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

/** The generated layouts and constants of each header against gcc's view of it, member by member. */
class LayoutsMatchCTest {

    /**
     * One generated header: how C includes it, its files (the ones whose structs it declares), its
     * generated index, constants and package, a few facts the walk must reach, and lower bounds
     * that catch an empty generation.
     */
    record Header(String include, Path path, List<String> declaring, Map<String, GroupLayout> layouts,
                  Class<?> constants, String packageName, List<String> mustReach, int minRecords, int minConstants) {
        @Override
        public String toString() {
            return include;
        }
    }

    static Stream<Header> headers() {
        return Stream.of(
                new Header("infiniband/verbs.h", CLayoutProbe.HEADER, List.of("verbs.h", "verbs_api.h"),
                        VerbsLayouts.ALL, VerbsConstants.class, "dev.panamaverbs.ffm",
                        List.of("offsetof(struct ibv_send_wr, wr.rdma.remote_addr)", "offsetof(struct ibv_wc, imm_data)",
                                "offsetof(union ibv_gid, global.interface_id)", "offsetof(struct ibv_context, mutex)"),
                        50, 400),
                new Header("rdma/rdma_cma.h", CLayoutProbe.RDMA_CMA_HEADER, List.of("rdma_cma.h"),
                        RdmaCmLayouts.ALL, RdmaCmConstants.class, "dev.panamaverbs.ffm.rdmacm",
                        // through anonymous unions, a nested named one, and a verbs.h union embedded by value
                        List.of("offsetof(struct rdma_addr, dst_sin6.sin6_addr)",
                                "offsetof(struct rdma_addr, addr.ibaddr.dgid.global.interface_id)",
                                "offsetof(struct rdma_cm_event, param.ud.ah_attr.grh.dgid)",
                                "offsetof(struct sockaddr_storage, __ss_align)"),
                        8, 30));
    }

    /** The comparisons with gcc need the installed header and gcc itself; skipped without them. */
    private static void assumeHeaderAndGcc(Header h) {
        assumeTrue(Files.isRegularFile(h.path()), "no " + h.path());
        assumeTrue(CLayoutProbe.gccAvailable(), "no gcc");
    }

    @ParameterizedTest
    @MethodSource("headers")
    void everyLayoutMatchesGcc(Header h, @TempDir Path work) throws Exception {
        assumeHeaderAndGcc(h);

        Map<String, Long> expected = CLayoutProbe.javaFacts(h.layouts());
        // The walk must reach nested anonymous members, or the comparison proves little.
        for (String fact : h.mustReach()) {
            assertTrue(expected.containsKey(fact), fact);
        }

        Map<String, Long> actual = CLayoutProbe.cFacts(h.include(), new ArrayList<>(expected.keySet()), work);
        List<String> mismatches = new ArrayList<>();
        expected.forEach((expr, value) -> {
            if (!value.equals(actual.get(expr))) {
                mismatches.add(expr + ": generated " + value + ", gcc " + actual.get(expr));
            }
        });
        assertTrue(mismatches.isEmpty(), mismatches.size() + " of " + expected.size()
                + " layout facts differ from gcc:\n  " + String.join("\n  ", mismatches));
    }

    @ParameterizedTest
    @MethodSource("headers")
    void everyStructAndUnionOfTheHeadersHasALayout(Header h) throws Exception {
        assumeTrue(Files.isRegularFile(h.path()), "no " + h.path());
        Pattern definition = Pattern.compile("^\\s*(struct|union)\\s+(\\w+)\\s*\\{", Pattern.MULTILINE);
        TreeSet<String> declared = new TreeSet<>();
        for (String header : h.declaring()) {
            Path p = h.path().resolveSibling(header);
            if (Files.isRegularFile(p)) {
                Matcher m = definition.matcher(Files.readString(p));
                while (m.find()) {
                    declared.add(m.group(1) + " " + m.group(2));
                }
            }
        }
        assertTrue(declared.size() > h.minRecords(), "the header scan found only " + declared);
        TreeSet<String> missing = new TreeSet<>(declared);
        missing.removeAll(h.layouts().keySet());
        assertTrue(missing.isEmpty(), "no generated layout for " + missing);
    }

    @ParameterizedTest
    @MethodSource("headers")
    void everyConstantMatchesGcc(Header h, @TempDir Path work) throws Exception {
        assumeHeaderAndGcc(h);

        Map<String, Long> java = CLayoutProbe.javaConstants(h.constants());
        assertTrue(java.size() > h.minConstants(), "only " + java.size() + " constants in " + h.constants());
        Map<String, Boolean> negative = new HashMap<>();
        Map<String, Long> c = CLayoutProbe.cConstants(h.include(), new ArrayList<>(java.keySet()), work, negative);
        List<String> mismatches = new ArrayList<>();
        java.forEach((name, value) -> {
            Long cValue = c.get(name);
            boolean cNegative = negative.get(name);
            // A Java value below zero is either a negative C value or (long only) an unsigned one above
            // Long.MAX_VALUE; a negative Java int is always a negative C value.
            boolean javaInt = isInt(h.constants(), name);
            if (!value.equals(cValue) || (javaInt && (value < 0) != cNegative) || (!javaInt && value >= 0 && cNegative)) {
                mismatches.add(name + ": generated " + value + ", gcc " + (cNegative ? cValue : Long.toUnsignedString(cValue)));
            }
        });
        assertTrue(mismatches.isEmpty(), mismatches.size() + " of " + java.size()
                + " constants differ from gcc:\n  " + String.join("\n  ", mismatches));
    }

    private static boolean isInt(Class<?> constants, String constant) {
        try {
            return constants.getField(constant).getType() == int.class;
        } catch (NoSuchFieldException e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest
    @MethodSource("headers")
    void everyGeneratedRecordClassIsInTheLayoutIndex(Header h) throws Exception {
        Path dir = GeneratorProcess.GENERATED_TREE.resolve(h.packageName().replace('.', '/'));
        assumeTrue(Files.isDirectory(dir), "no generated sources at " + dir);
        TreeSet<String> missing = new TreeSet<>();
        int records = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String name = p.getFileName().toString().replace(".java", "");
                if (name.equals("module-info") || name.equals("package-info")) {
                    continue;
                }
                Class<?> type = Class.forName(h.packageName() + "." + name);
                java.lang.reflect.Field layout;
                try {
                    layout = type.getField("LAYOUT");
                } catch (NoSuchFieldException e) {
                    continue; // VerbsConstants, VerbsFunctions ...
                }
                records++;
                if (!h.layouts().containsValue((GroupLayout) layout.get(null))) {
                    missing.add(name);
                }
            }
        }
        assertEquals(h.layouts().size(), records, "record classes vs the layout index's entries");
        assertTrue(missing.isEmpty(), "record classes whose LAYOUT is not in the layout index: " + missing);
    }

    @ParameterizedTest
    @MethodSource("headers")
    void sizeAndAlignmentConstantsAgreeWithLayouts(Header h) throws Exception {
        for (Map.Entry<String, GroupLayout> e : h.layouts().entrySet()) {
            GroupLayout layout = e.getValue();
            Class<?> type = Class.forName(h.packageName() + "." + layout.name().orElseThrow());
            assertEquals(layout, type.getField("LAYOUT").get(null), e.getKey());
            assertEquals(layout.byteSize(), type.getField("SIZE").getLong(null), e.getKey());
            assertEquals(layout.byteAlignment(), type.getField("ALIGNMENT").getLong(null), e.getKey());
        }
    }
}
