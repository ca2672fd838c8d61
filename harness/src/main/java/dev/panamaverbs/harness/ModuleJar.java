package dev.panamaverbs.harness;

import java.io.IOException;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Stream;

/** A reactor module's main jar under its target folder, and the module it declares. */
record ModuleJar(String moduleDir, Path jar, ModuleDescriptor descriptor) {

    String name() {
        return descriptor.name();
    }

    /** Every package the jar holds, exported or not. */
    Set<String> packages() {
        return descriptor.packages();
    }

    /** The jar Maven built for {@code moduleDir} (e.g. verbs-core) under {@code root}. */
    static ModuleJar of(Path root, String moduleDir) {
        Path jar = find(root.resolve(moduleDir).resolve("target"), moduleDir);
        ModuleDescriptor descriptor = describe(jar);
        if (descriptor.isAutomatic()) {
            throw new HarnessException(jar + " has no module descriptor");
        }
        return new ModuleJar(moduleDir, jar, descriptor);
    }

    /** {@code target/<moduleDir>-<version>.jar}; not its tests, sources or javadoc jars. */
    private static Path find(Path target, String moduleDir) {
        if (Files.isDirectory(target)) {
            try (Stream<Path> files = Files.list(target)) {
                var jar = files.filter(file -> isMainJar(file.getFileName().toString(), moduleDir)).sorted().findFirst();
                if (jar.isPresent()) {
                    return jar.get();
                }
            } catch (IOException e) {
                throw new HarnessException("cannot list " + target + ": " + e.getMessage(), e);
            }
        }
        throw new HarnessException("no " + moduleDir + " jar under " + moduleDir + "/target: build first (mvn install)");
    }

    private static boolean isMainJar(String name, String moduleDir) {
        return name.startsWith(moduleDir + "-") && name.endsWith(".jar")
                && !name.matches(".*-(tests|sources|javadoc)\\.jar");
    }

    private static ModuleDescriptor describe(Path jar) {
        try {
            return ModuleFinder.of(jar).findAll().stream().findFirst().map(ModuleReference::descriptor)
                    .orElseThrow(() -> new HarnessException(jar + " is not a module"));
        } catch (FindException e) {
            throw new HarnessException(jar + ": " + e.getMessage(), e);
        }
    }
}
