package dev.panamaverbs.it.device;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The README's quick start is the code of the runnable example (examples' QuickStart), which
 * QuickStartDeviceTest runs on a device: keep the two equal.
 */
class ReadmeQuickStartTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void readmeQuickStartIsTheRunnableExample() throws IOException {
        assertEquals(marked("examples/src/main/java/dev/panamaverbs/examples/QuickStart.java"), readmeSnippet());
    }

    /** The README's java block, without the line that closes the try block (the sources keep it open). */
    private static List<String> readmeSnippet() throws IOException {
        List<String> snippet = between(Files.readAllLines(ROOT.resolve("README.md")), "```java", "```");
        return snippet.subList(0, snippet.size() - 1);
    }

    /** The lines between a source's quick start markers, without the method body's indentation. */
    private static List<String> marked(String source) throws IOException {
        List<String> lines = between(Files.readAllLines(ROOT.resolve(source)), "// ---- README quick start ----",
                "// ---- end of quick start ----")
                .stream().map(line -> line.length() >= 8 ? line.substring(8) : line.strip()).toList();
        assertFalse(lines.isEmpty(), source);
        return lines;
    }

    /** The lines strictly between the first line equal to {@code start} and the next equal to {@code end} (both stripped). */
    static List<String> between(List<String> lines, String start, String end) {
        int from = -1;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (from < 0 && line.equals(start)) {
                from = i + 1;
            } else if (from >= 0 && line.equals(end)) {
                return lines.subList(from, i);
            }
        }
        throw new AssertionError("no block between '" + start + "' and '" + end + "'");
    }
}
