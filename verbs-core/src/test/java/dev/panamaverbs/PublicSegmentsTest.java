package dev.panamaverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The ownership table of {@code package-info.java}: every public method of the API that returns a
 * {@link MemorySegment} or {@link ByteBuffer} is listed there, and the segments the table calls
 * read-only are read-only.
 */
class PublicSegmentsTest {
    private static final Pattern ROW = Pattern.compile(
            "<tr><td>\\{@link dev\\.panamaverbs\\.(\\w+)#(\\w+)\\([^)]*\\)}</td>(.*?)</tr>", Pattern.DOTALL);
    private static final Pattern CELL = Pattern.compile("<td>(.*?)</td>", Pattern.DOTALL);

    /** A segment of each read-only row, made without a device. */
    private static Map<String, Supplier<MemorySegment>> readOnlySamples() {
        return Map.of(
                "VerbsResource#handle", () -> FakeResource.open("fake", new ArrayList<>()).handle(),
                "SendWorkRequest#segment", () -> SendWorkRequest.allocate(Arena.ofAuto(), 1).segment(),
                "ReceiveWorkRequest#segment", () -> ReceiveWorkRequest.allocate(Arena.ofAuto(), 1).segment());
    }

    @Test
    void everyPublicSegmentIsInTheOwnershipTableAndTheReadOnlyOnesAre() throws Exception {
        Map<String, List<String>> table = table();
        TreeSet<String> returned = publicSegmentMethods();
        assertEquals(returned, new TreeSet<>(table.keySet()),
                "public methods returning MemorySegment/ByteBuffer vs the rows of package-info.java's table");
        Map<String, Supplier<MemorySegment>> samples = readOnlySamples();
        for (Map.Entry<String, List<String>> row : table.entrySet()) {
            String owner = row.getValue().get(1);
            boolean writable = row.getValue().get(3).startsWith("yes");
            if (owner.contains("provider")) {
                assertFalse(writable, row.getKey() + ": provider-owned memory must not be handed out writable");
            }
            if (!writable) {
                assertTrue(samples.containsKey(row.getKey()), row.getKey() + " is read-only in the table: add a sample here");
                assertTrue(samples.get(row.getKey()).get().isReadOnly(), row.getKey() + " hands out a writable segment");
            }
        }
    }

    /** "Class#method" of every row, with its other cells (memory, owner, dies, writable). */
    private static Map<String, List<String>> table() throws IOException {
        String source = Files.readString(Path.of("src/main/java/dev/panamaverbs/package-info.java"));
        String text = source.replaceAll("\\n \\* ?", " ");
        Map<String, List<String>> rows = new TreeMap<>();
        Matcher row = ROW.matcher(text);
        while (row.find()) {
            List<String> cells = new ArrayList<>();
            Matcher cell = CELL.matcher(row.group(3));
            while (cell.find()) {
                cells.add(cell.group(1).trim());
            }
            assertEquals(4, cells.size(), row.group());
            rows.put(row.group(1) + "#" + row.group(2), cells);
        }
        return rows;
    }

    /** "DeclaringClass#method" of public methods of public classes of the package returning a segment or buffer. */
    private static TreeSet<String> publicSegmentMethods() throws IOException, URISyntaxException, ClassNotFoundException {
        Path classes = Path.of(Completions.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("dev/panamaverbs");
        TreeSet<String> found = new TreeSet<>();
        List<Path> files;
        try (Stream<Path> list = Files.list(classes)) {
            files = list.filter(p -> p.toString().endsWith(".class")).toList();
        }
        for (Path file : files) {
            String name = file.getFileName().toString().replace(".class", "");
            Class<?> type = Class.forName("dev.panamaverbs." + name.replace('/', '.'));
            if (!Modifier.isPublic(type.getModifiers()) || (type.isMemberClass() && !isPublicChain(type))) {
                continue;
            }
            for (Method method : type.getDeclaredMethods()) {
                if (Modifier.isPublic(method.getModifiers()) && !method.isSynthetic() && !method.isBridge()
                        && (MemorySegment.class.isAssignableFrom(method.getReturnType())
                        || ByteBuffer.class.isAssignableFrom(method.getReturnType()))) {
                    found.add(type.getSimpleName() + "#" + method.getName());
                }
            }
        }
        assertTrue(found.size() > 3, "found too few classes under " + classes + ": " + found);
        return found;
    }

    private static boolean isPublicChain(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getDeclaringClass()) {
            if (!Modifier.isPublic(c.getModifiers())) {
                return false;
            }
        }
        return true;
    }
}
