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
 * TwoHostSendRecv, run on two hosts by DemoTwoHostTest's pairing): the same imports and class,
 * line for line.
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
        List<String> overview = Files.readAllLines(ROOT.resolve("verbs-core/src/main/javadoc/overview.html")).stream()
                .map(line -> line.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")).toList();
        assertEquals(example(), block(overview, "<pre>", "</pre>", "public final class TwoHostSendRecv {"));
    }

    /** The example's imports and class, as the source has them between its markers. */
    private static List<String> example() throws IOException {
        List<String> source = Files.readAllLines(
                ROOT.resolve("examples/src/main/java/dev/panamaverbs/examples/TwoHostSendRecv.java"));
        List<String> imports = source.stream().filter(line -> line.startsWith("import ")).toList();
        List<String> body = ReadmeQuickStartTest.between(source, "// ---- two-host example ----", "// ---- end of two-host example ----");
        assertTrue(!imports.isEmpty() && !body.isEmpty());
        return join(imports, body);
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
