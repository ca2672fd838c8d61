package dev.panamaverbs.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Stages what java needs to run the examples (./verbs demo) outside Maven: a java @argfile
 * {@code java.args} with the module path (the examples jar, and the library and slf4j jars its
 * build copied to {@code examples/target/modules}) and the library's native access.
 */
record ExampleStaging(Path root) {
    static final String MODULE_DIR = "examples";
    /** Where the examples' build copied their runtime dependencies. */
    static final String DEPENDENCIES = "examples/target/modules";

    void stage(Path dir) throws IOException {
        Files.createDirectories(Paths.clean(dir));
        Path examples = ModuleJar.of(root, MODULE_DIR).jar();
        Path dependencies = root.resolve(DEPENDENCIES);
        if (!Files.isDirectory(dependencies)) {
            throw new HarnessException("no " + DEPENDENCIES + ": build first (mvn install)");
        }
        List<String> args = new ArrayList<>(List.of("--module-path", Paths.join(List.of(examples, dependencies))));
        args.addAll(NativeAccess.options());
        Files.write(dir.resolve("java.args"), args);
    }
}
