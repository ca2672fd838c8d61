package dev.panamaverbs.it.device;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's and the javadoc overview's two-host example is the runnable example (examples'
 * TwoHostSendRecv, run on two hosts by DemoTwoHostTest's pairing): the README has the same imports
 * and class, line for line; the overview shows the example's own source through javadoc snippets
 * of its two regions (imports, class), which together hold every import and the whole class.
 */
class ReadmeTwoHostExampleTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void readmeCarriesTheRunnableExample() throws IOException {
        List<String> readme = Files.readAllLines(ROOT.resolve("README.md"));
        assertEquals(example(), block(readme, "```java", "```", "public final class TwoHostSendRecv {"));
    }

    @Test
    void javadocOverviewCarriesTheRunnableExample() throws IOException {
        List<String> overview = Files.readAllLines(ROOT.resolve("verbs-core/src/main/javadoc/overview.html"))
                .stream().map(String::strip).toList();
        int imports = overview.indexOf("{@snippet file=\"TwoHostSendRecv.java\" region=\"imports\"}");
        assertTrue(imports >= 0, "the overview shows the example's imports region");
        assertEquals("{@snippet file=\"TwoHostSendRecv.java\" region=\"class\"}", overview.get(imports + 1),
                "and right after them its class region");
        List<String> source = source();
        assertEquals(source.stream().filter(line -> line.startsWith("import ")).toList(), region(source, "imports"),
                "the imports region holds every import of the example");
        assertEquals(source.get(source.indexOf("// @start region=\"class\"") + 1), "public final class TwoHostSendRecv {");
        assertEquals("}", region(source, "class").getLast(), "the class region ends with the class");
    }

    /** The example's imports and class, as its two snippet regions hold them. */
    private static List<String> example() throws IOException {
        List<String> source = source();
        List<String> imports = region(source, "imports");
        List<String> body = region(source, "class");
        assertTrue(!imports.isEmpty() && !body.isEmpty());
        return join(imports, body);
    }

    private static List<String> source() throws IOException {
        return Files.readAllLines(ROOT.resolve("examples/src/main/java/dev/panamaverbs/examples/TwoHostSendRecv.java"));
    }

    /** The lines of the example's snippet region {@code name} (javadoc's markup: {@code @start region}, {@code @end}). */
    private static List<String> region(List<String> source, String name) {
        return ReadmeQuickStartTest.between(source, "// @start region=\"" + name + "\"", "// @end");
    }

    /** The imports and class of the first block (between {@code open} and {@code close}) that holds {@code marker}. */
    private static List<String> block(List<String> lines, String open, String close, String marker) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().equals(open)) {
                List<String> block = ReadmeQuickStartTest.between(lines.subList(i, lines.size()), open, close);
                if (block.contains(marker)) {
                    List<String> imports = block.stream().filter(line -> line.startsWith("import ")).toList();
                    return join(imports, block.subList(block.indexOf(marker), block.size()));
                }
            }
        }
        throw new AssertionError("no " + open + " block holds '" + marker + "'");
    }

    private static List<String> join(List<String> imports, List<String> body) {
        return java.util.stream.Stream.concat(imports.stream(), body.stream()).toList();
    }
}
