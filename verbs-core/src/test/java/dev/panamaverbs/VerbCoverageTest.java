package dev.panamaverbs;

import dev.panamaverbs.values.CompletionField;
import dev.panamaverbs.values.QueuePairType;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.ffm.ExportedFunction;
import dev.panamaverbs.ffm.InlineFunction;
import dev.panamaverbs.ffm.VerbsFunctions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Keeps docs/verb-coverage.md true: one row per function of verbs.h as the generated layer lists
 * them (exported, and static inline), every public or internal row naming a public method that
 * exists, every "shown by" naming a test file that exists and mentions the method, the counts
 * in the table and the README computed from the rows; every capability backed by public rows;
 * every completion field read or refused; every queue pair type created or refused; every send
 * opcode refused by both post paths or accepted, with the device tests named.
 */
class VerbCoverageTest {
    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();
    private static final Path TABLE = ROOT.resolve("docs/verb-coverage.md");
    private static final String PUBLIC = "public: ";
    private static final String INTERNAL = "internal: used by ";
    private static final String NOT_OFFERED = "not offered: ";
    private static final String EXPORTED = "exported";
    private static final String STATIC_INLINE = "static inline";
    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| ([^|]+?) \\| ([^|]+?) \\| ([^|]+?) \\|$");
    private static final Pattern CELL2 = Pattern.compile("^\\| `([^`]+)` \\| ([^|]+?) \\|$");
    private static final Pattern CELL3 = Pattern.compile("^\\| `([^`]+)` \\| ([^|]+?) \\| ([^|]+?) \\|$");
    private static final Pattern REFERENCE = Pattern.compile("^([A-Za-z][\\w.]*)\\.(\\w+)");

    /** One row of the functions table. */
    record Row(String verb, String kind, String status, String shownBy) {
        boolean isPublic() {
            return status.startsWith(PUBLIC);
        }

        boolean isInternal() {
            return status.startsWith(INTERNAL);
        }

        boolean isNotOffered() {
            return status.startsWith(NOT_OFFERED);
        }

        /** {@code Type.method} of a public or internal row. */
        String reference() {
            String rest = status.substring(isPublic() ? PUBLIC.length() : INTERNAL.length());
            Matcher m = REFERENCE.matcher(rest);
            assertTrue(m.find(), verb + ": no Type.method in '" + status + "'");
            return m.group(0);
        }
    }

    /** The generated list: verbs.h's exported functions, then its static inline ones, by name, with their kind. */
    private static Map<String, String> generatedVerbs() {
        Map<String, String> verbs = new LinkedHashMap<>();
        for (ExportedFunction f : VerbsFunctions.EXPORTED) {
            verbs.put(f.name(), EXPORTED);
        }
        for (InlineFunction f : VerbsFunctions.INLINE) {
            if (f.kind() == InlineFunction.Kind.STATIC_INLINE) {
                assertEquals(null, verbs.put(f.name(), STATIC_INLINE), f.name() + " is both exported and static inline");
            }
        }
        return verbs;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The lines of the section {@code ## title} of the table document. */
    private static List<String> section(String title) {
        List<String> lines = new ArrayList<>();
        boolean in = false;
        for (String line : read(TABLE).split("\n")) {
            if (line.startsWith("## ")) {
                in = line.equals("## " + title);
            } else if (in) {
                lines.add(line);
            }
        }
        assertFalse(lines.isEmpty(), "no section '## " + title + "' in " + TABLE);
        return lines;
    }

    private static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (String line : section("Functions")) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                rows.add(new Row(m.group(1), m.group(2), m.group(3), m.group(4)));
            } else if (line.startsWith("| `")) {
                fail("malformed row: " + line);
            }
        }
        return rows;
    }

    /**
     * The two-cell rows of section {@code title} by constant of {@code type}, checking there is
     * one row per constant (and none for anything else).
     */
    private static <E extends Enum<E>> Map<E, String> rowsPerConstant(String title, Class<E> type) {
        Map<String, String> rows = pairs(title);
        assertEquals(EnumSet.allOf(type).stream().map(Enum::name).collect(Collectors.toSet()), rows.keySet(),
                "one row per " + type.getSimpleName());
        Map<E, String> byConstant = new LinkedHashMap<>();
        rows.forEach((name, value) -> byConstant.put(Enum.valueOf(type, name), value));
        return byConstant;
    }

    /** A two-column table of a section: first cell (without backquotes) to second. */
    private static Map<String, String> pairs(String title) {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (String line : section(title)) {
            Matcher m = CELL2.matcher(line);
            if (m.matches()) {
                assertEquals(null, pairs.put(m.group(1), m.group(2)), "two rows for " + m.group(1));
            }
        }
        return pairs;
    }

    /** The exported packages of the API, where a coverage row's type may live. */
    private static final List<String> API_PACKAGES =
            List.of("dev.panamaverbs", "dev.panamaverbs.values", "dev.panamaverbs.cm", "dev.panamaverbs.onesided");

    /** The public methods named {@code method} of the class {@code Type} of {@code Type.method} (nested types allowed). */
    private static List<Method> publicMethods(String reference) {
        Matcher m = REFERENCE.matcher(reference);
        assertTrue(m.matches(), reference);
        String type = m.group(1);
        String method = m.group(2);
        Class<?> owner = null;
        for (String room : API_PACKAGES) {
            String binary = room + "." + type;
            while (owner == null) {
                try {
                    owner = Class.forName(binary);
                } catch (ClassNotFoundException e) {
                    int dot = binary.lastIndexOf('.');
                    if (dot <= room.length()) {
                        break;
                    }
                    binary = binary.substring(0, dot) + '$' + binary.substring(dot + 1);
                }
            }
        }
        if (owner == null) {
            fail(reference + ": no class " + type + " in " + API_PACKAGES);
        }
        assertTrue(Modifier.isPublic(owner.getModifiers()), reference + ": " + owner.getName() + " is not public");
        List<Method> found = Stream.of(owner.getMethods()).filter(x -> x.getName().equals(method)).toList();
        assertFalse(found.isEmpty(), reference + ": " + owner.getName() + " has no public method " + method);
        return found;
    }

    @Test
    void everyVerbOfTheGeneratedLayerHasExactlyOneRow() {
        Map<String, String> verbs = generatedVerbs();
        Map<String, Row> byVerb = new LinkedHashMap<>();
        for (Row row : rows()) {
            assertEquals(null, byVerb.put(row.verb(), row), "two rows for " + row.verb());
            assertTrue(verbs.containsKey(row.verb()), row.verb() + " has a row but is no function of verbs.h");
            assertEquals(verbs.get(row.verb()), row.kind(), row.verb() + ": kind");
            assertTrue(row.isPublic() || row.isInternal() || row.isNotOffered(), row.verb() + ": status " + row.status());
        }
        List<String> missing = verbs.keySet().stream().filter(v -> !byVerb.containsKey(v)).toList();
        assertEquals(List.of(), missing, "functions of verbs.h without a row in " + TABLE);
        assertEquals(VerbsFunctions.EXPORTED.size(), verbs.values().stream().filter(EXPORTED::equals).count());
    }

    @Test
    void publicAndInternalRowsNameAPublicMethodThatExists() {
        for (Row row : rows()) {
            if (!row.isNotOffered()) {
                publicMethods(row.reference());
            }
        }
    }

    @Test
    void shownByNamesTestsThatExistAndMentionTheMethod() {
        Map<String, Path> deviceTests = deviceTestFiles();
        Map<String, Path> fakeTests = testFiles(ROOT.resolve("verbs-loader/src/test/java"));
        for (Row row : rows()) {
            if (row.shownBy().equals("—")) {
                continue;
            }
            assertFalse(row.isNotOffered(), row.verb() + ": a function not offered is shown by no test");
            for (String part : row.shownBy().split("; ")) {
                int colon = part.indexOf(": ");
                assertTrue(colon > 0, row.verb() + ": " + part);
                String where = part.substring(0, colon);
                for (String test : part.substring(colon + 2).split(", ")) {
                    Path file = switch (where) {
                        case "rxe", "rxe refuses" -> deviceTests.get(test);
                        case "fake" -> fakeTests.get(test);
                        default -> fail(row.verb() + ": '" + where + "' is not rxe, rxe refuses or fake");
                    };
                    assertNotNull(file, row.verb() + ": no test file " + test + ".java for " + where);
                    if (!where.equals("fake")) {
                        String reference = row.reference();
                        String method = reference.substring(reference.lastIndexOf('.') + 1);
                        String type = reference.substring(0, reference.lastIndexOf('.'));
                        String mentioned = method.equals("close") ? type.substring(type.lastIndexOf('.') + 1) : method;
                        assertTrue(read(file).contains(mentioned), row.verb() + ": " + test + " never mentions " + mentioned);
                    }
                }
            }
        }
    }

    /** The device tests: verbs-it's, and the testkit's own. */
    private static Map<String, Path> deviceTestFiles() {
        Map<String, Path> files = new HashMap<>(testFiles(ROOT.resolve("verbs-it/src/test/java")));
        files.putAll(testFiles(ROOT.resolve("verbs-testkit/src/test/java")));
        return files;
    }

    private static Map<String, Path> testFiles(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".java"))
                    .collect(Collectors.toMap(p -> p.getFileName().toString().replace(".java", ""), p -> p));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The summary sentence the table and the README carry, computed from the rows. */
    static String summary(List<Row> rows) {
        long offeredPublic = rows.stream().filter(Row::isPublic).count();
        long internal = rows.stream().filter(Row::isInternal).count();
        long notOffered = rows.stream().filter(Row::isNotOffered).count();
        List<Row> reached = rows.stream().filter(r -> !r.isNotOffered()).toList();
        long rxe = reached.stream().filter(r -> r.shownBy().contains("rxe: ")).count();
        long refused = reached.stream().filter(r -> !r.shownBy().contains("rxe: ") && r.shownBy().contains("rxe refuses: ")).count();
        long fake = reached.stream().filter(r -> !r.shownBy().contains("rxe") && r.shownBy().contains("fake: ")).count();
        long none = reached.size() - rxe - refused - fake;
        return rows.size() + " functions: " + offeredPublic + " public, " + internal + " internal, " + notOffered
                + " not offered. Of the " + reached.size() + " public or internal, " + rxe + " are shown on rxe, "
                + refused + " more show rxe refusing them, " + fake + " are shown only against the fake provider, and "
                + none + " by no test.";
    }

    @Test
    void theTableAndTheReadmeStateTheCountsOfTheRows() {
        String summary = summary(rows());
        System.out.println("verb coverage: " + summary);
        assertTrue(read(TABLE).contains(summary), TABLE + " does not say: " + summary);
        String readme = read(ROOT.resolve("README.md")).replaceAll("\\s*\n\\s*", " ");
        assertTrue(readme.contains(summary), "README.md does not say: " + summary);
        assertTrue(readme.contains("docs/verb-coverage.md"), "README.md links the table");
    }

    @Test
    void everyCapabilityIsPublicAndEveryOptionalFunctionWithoutOneIsNotOffered() {
        Map<String, Row> byVerb = rows().stream().collect(Collectors.toMap(Row::verb, r -> r));
        for (Capability capability : Capability.values()) {
            for (String symbol : capability.symbols()) {
                Row row = byVerb.get(symbol);
                assertNotNull(row, symbol);
                assertTrue(row.isPublic(), capability + ": " + symbol + " is " + row.status());
            }
        }
        for (ExportedFunction function : VerbsFunctions.EXPORTED) {
            if (!function.required() && Capability.providing(function.name()) == null) {
                assertTrue(byVerb.get(function.name()).isNotOffered(),
                        function.name() + " is optional, in no capability, and not marked not offered");
            }
        }
    }

    @Test
    void everyCompletionFieldHasAPublicReaderOrIsRefused() {
        for (Map.Entry<CompletionField, String> e : rowsPerConstant("Completion fields", CompletionField.class).entrySet()) {
            CompletionField field = e.getKey();
            CompletionQueueOptions base = CompletionQueueOptions.of(4);
            if (e.getValue().startsWith("refused: ")) {
                assertFalse(field.isReadable(), field.name());
                IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                        () -> base.withFields(EnumSet.of(field)), field.name());
                assertTrue(refused.getMessage().startsWith("ibv_create_cq_ex: CompletionField." + field), refused.getMessage());
            } else {
                assertTrue(field.isReadable(), field.name());
                assertEquals(Set.of(field), base.withFields(EnumSet.of(field)).fields());
                String reader = e.getValue().replace("`", "");
                assertTrue(reader.startsWith("Completions."), field + ": " + reader);
                Optional<Method> byIndex = publicMethods(reader).stream()
                        .filter(m -> m.getParameterCount() == 1 && m.getParameterTypes()[0] == int.class).findFirst();
                assertTrue(byIndex.isPresent(), reader + "(int index)");
            }
        }
    }

    @Test
    void everyQueuePairTypeIsCreatedOrRefusedNamingTheVerb() {
        for (Map.Entry<QueuePairType, String> e : rowsPerConstant("Queue pair types", QueuePairType.class).entrySet()) {
            QueuePairType type = e.getKey();
            if (e.getValue().startsWith("refused: ")) {
                IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                        () -> QueuePairOptions.builder(type), type.name());
                assertTrue(refused.getMessage().startsWith("ibv_create_qp: ") && refused.getMessage().contains(type.name()),
                        refused.getMessage());
            } else {
                assertTrue(e.getValue().startsWith("created: "), type + ": " + e.getValue());
                publicMethods(e.getValue().substring("created: ".length()).replace("`", ""));
                assertNotNull(QueuePairOptions.builder(type), type.name());
            }
        }
    }

    @Test
    void everySendOpcodeIsRefusedByBothPathsOrAcceptedWithItsDeviceTests() {
        Map<String, Path> deviceTests = deviceTestFiles();
        Map<String, String[]> opcodes = new LinkedHashMap<>();
        for (String line : section("Send opcodes")) {
            Matcher m = CELL3.matcher(line);
            if (m.matches()) {
                assertEquals(null, opcodes.put(m.group(1), new String[] {m.group(2), m.group(3)}), "two rows for " + m.group(1));
            }
        }
        assertEquals(EnumSet.allOf(WorkRequestOpcode.class).stream().map(Enum::name).collect(Collectors.toSet()),
                opcodes.keySet(), "one row per WorkRequestOpcode");
        for (Map.Entry<String, String[]> e : opcodes.entrySet()) {
            WorkRequestOpcode opcode = WorkRequestOpcode.valueOf(e.getKey());
            boolean unfilled = (SendOperations.UNFILLED_OPCODES & SendOperations.bit(opcode.value())) != 0;
            List<QueuePairType> transports = List.of(QueuePairType.RC, QueuePairType.UC, QueuePairType.UD, QueuePairType.RAW_PACKET);
            if (e.getValue()[0].startsWith("refused")) {
                assertTrue(unfilled, opcode + ": postSend would not refuse it");
                assertEquals("refused", e.getValue()[1], opcode + ": SendBatch");
                for (QueuePairType type : transports) {
                    assertThrows(IllegalArgumentException.class,
                            () -> QueuePairOptions.builder(type).extendedSendOperations(EnumSet.of(opcode)), opcode + " on " + type);
                }
                continue;
            }
            assertFalse(unfilled, opcode.name());
            assertTrue(transports.stream().anyMatch(t -> SendOperations.isAllowed(t, opcode)), opcode + ": no transport posts it");
            for (String cell : e.getValue()) {
                if (cell.equals("—")) {
                    continue;
                }
                Matcher m = Pattern.compile("^(rxe|rxe refuses): (\\w+)$").matcher(cell);
                assertTrue(m.matches(), opcode + ": " + cell);
                assertNotNull(deviceTests.get(m.group(2)), opcode + ": no test file " + m.group(2) + ".java");
            }
        }
    }
}
