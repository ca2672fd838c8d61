package dev.panamaverbs.loader.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The assumption the tests of a host's real library share. */
public final class RealLibraries {
    private RealLibraries() {}

    /**
     * Skips the test class unless no override is configured (neither the system property
     * {@code property} nor the environment variable {@code environment}) and {@code soname} is
     * installed in one of the usual library directories.
     */
    public static void assumeInstalledWithoutOverride(String property, String environment, String soname) {
        assumeTrue(System.getProperty(property) == null && System.getenv(environment) == null,
                "an override is configured");
        boolean installed = Stream.of("/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib/x86_64-linux-gnu")
                .anyMatch(dir -> Files.exists(Path.of(dir, soname)));
        assumeTrue(installed, soname + " is not installed on this host");
    }

    /**
     * Asserts that {@code library} is available, was asked for as {@code requested} and loaded
     * from a file whose name matches {@code fileNamePattern}; returns that file's path.
     */
    public static String assertLoaded(ProcessLibrary library, String requested, String fileNamePattern) {
        assertTrue(library.isAvailable(), () -> library.unavailabilityCause().orElse(""));
        assertEquals(requested, library.requestedLibrary());
        String loaded = library.libraryPath();
        assertTrue(Path.of(loaded).getFileName().toString().matches(fileNamePattern), loaded);
        return loaded;
    }
}
