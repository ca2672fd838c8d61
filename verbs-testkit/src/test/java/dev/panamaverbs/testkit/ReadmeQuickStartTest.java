package dev.panamaverbs.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The README's quick start is the code QuickStartDeviceTest runs on a device: keep them equal. */
class ReadmeQuickStartTest {

    @Test
    void readmeQuickStartIsTheCodeTheDeviceTestRuns() throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent();
        List<String> readme = Files.readAllLines(root.resolve("README.md"));
        List<String> test = Files.readAllLines(
                root.resolve("verbs-testkit/src/test/java/dev/panamaverbs/it/QuickStartDeviceTest.java"));
        List<String> snippet = between(readme, "```java", "```");
        List<String> tested = between(test, "// ---- README quick start ----", "// ---- end of quick start ----")
                .stream().map(line -> line.length() >= 8 ? line.substring(8) : line.strip()).toList();
        assertFalse(tested.isEmpty());
        // The README closes the try block the test keeps open for its own check.
        assertEquals(tested, snippet.subList(0, snippet.size() - 1));
    }

    private static List<String> between(List<String> lines, String start, String end) {
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
