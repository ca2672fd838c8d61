package dev.panamaverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each multi-release jar has one module descriptor, its Java 17 base layer's (src/main/java17;
 * docs/multi-release.md), which JDK 22 and newer read too: it must say what the JDK 22 one
 * (src/main/java, generated in verbs-ffm) says. Run from verbs-core for the three modules; the
 * other two are checked when the reactor built them (their target/ exists).
 */
class MultiReleaseDescriptorTest {

    @ParameterizedTest
    @ValueSource(strings = {"../verbs-ffm", "../verbs-loader", "."})
    void baseDescriptorSaysWhatTheJdk22OneSays(String module) throws IOException {
        Path base = Path.of(module, "target/classes-java17/module-info.class");
        Path current = Path.of(module, "target/classes/module-info.class");
        assumeTrue(Files.exists(base) && Files.exists(current), module + " is not built here");
        ModuleDescriptor old = read(base);
        ModuleDescriptor now = read(current);
        assertEquals(now.name(), old.name());
        assertEquals(requires(now), requires(old), module + ": requires");
        assertEquals(new TreeSet<>(now.exports()), new TreeSet<>(old.exports()), module + ": exports");
        assertEquals(new TreeSet<>(now.opens()), new TreeSet<>(old.opens()), module + ": opens");
        assertEquals(new TreeSet<>(now.provides()), new TreeSet<>(old.provides()), module + ": provides");
        assertEquals(now.uses(), old.uses(), module + ": uses");
        assertEquals(now.modifiers(), old.modifiers(), module + ": modifiers");
    }

    /** Name and modifiers: the compiled version of java.base differs (17 and 22) by design. */
    private static Set<String> requires(ModuleDescriptor descriptor) {
        return descriptor.requires().stream().map(r -> r.name() + " " + new TreeSet<>(r.modifiers()))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static ModuleDescriptor read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return ModuleDescriptor.read(in);
        }
    }
}
