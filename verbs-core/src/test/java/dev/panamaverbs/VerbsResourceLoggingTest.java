package dev.panamaverbs;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DEBUG lines on resource creation and close. The class sets slf4j-simple's level for
 * VerbsResource to DEBUG itself, before VerbsResource's logger exists: slf4j-simple reads a
 * logger's level once, when it creates the logger, so the test passes run alone
 * ({@code -Dtest=VerbsResourceLoggingTest}) as well as in the full run, where it has a fork of
 * its own (verbs-core's pom: {@code resource-debug-logging}) that keeps the other tests quiet.
 * The tag keeps it out of the shared fork, where another test may have created the logger at
 * INFO first, also when {@code -Dtest} names it or a pattern that matches it.
 */
@Tag("debug-logging")
class VerbsResourceLoggingTest {

    /** slf4j-simple's property for one logger's level. */
    private static final String LEVEL_PROPERTY = "org.slf4j.simpleLogger.log." + VerbsResource.class.getName();

    static {
        // Class literals do not initialise VerbsResource, so its logger does not exist yet here
        // unless an earlier test in this JVM created a resource (checked in the test).
        System.setProperty(LEVEL_PROPERTY, "debug");
    }

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
        assertTrue(LoggerFactory.getLogger(VerbsResource.class).isDebugEnabled(),
                "VerbsResource's logger was created before this class set " + LEVEL_PROPERTY
                        + "=debug: run this class in a JVM of its own (verbs-core's pom: resource-debug-logging)");
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
