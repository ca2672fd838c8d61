package dev.panamaverbs;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The classes verbs-core compiled, found by walking its class files: what the API-wide rule tests check. */
final class CompiledClasses {
    private CompiledClasses() {}

    /**
     * The binary name of every class of the module (nested ones with their {@code $}), without
     * {@code package-info} and {@code module-info}.
     */
    static List<String> binaryNames() throws IOException, URISyntaxException {
        Path classes = Path.of(Verbs.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (Stream<Path> files = Files.walk(classes)) {
            return files.map(classes::relativize).map(Path::toString)
                    .filter(name -> name.endsWith(".class") && !name.contains("-info"))
                    .map(name -> name.substring(0, name.length() - ".class".length()).replace('/', '.'))
                    .toList();
        }
    }
}
