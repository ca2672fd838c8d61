package dev.panamaverbs;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * DEBUG lines on resource creation and close. Runs in its own Surefire execution (verbs-core's
 * pom: {@code resource-debug-logging}) with slf4j-simple's level for VerbsResource at DEBUG;
 * the default execution excludes it.
 */
class VerbsResourceLoggingTest {

    private static final class Fake extends VerbsResource {
        private final String name;

        Fake(String name, VerbsResource... dependencies) {
            super("Fake", MemorySegment.NULL, dependencies);
            this.name = name;
        }

        @Override
        protected void destroy() {}

        @Override
        protected String describe() {
            return name;
        }
    }

    @Test
    void createAndCloseAreLoggedAtDebugChildrenFirst() {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            Fake parent = new Fake("parent");
            parent.register();
            Fake child = new Fake("child", parent);
            child.register();
            parent.close();
            parent.close(); // idempotent: no second line
        } finally {
            System.setErr(original);
        }
        List<String> lines = captured.toString(StandardCharsets.UTF_8).lines()
                .filter(line -> line.contains("VerbsResource")).map(line -> line.substring(line.indexOf(" - ") + 3))
                .toList();
        assertEquals(List.of("created Fake[parent]", "created Fake[child]", "closed Fake[child]", "closed Fake[parent]"),
                lines, captured.toString(StandardCharsets.UTF_8));
    }
}
