package dev.panamaverbs.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.jar.Manifest;

/** The library's version, from its jar's manifest ({@code Implementation-Version}). */
public final class BuildInfo {
    /** What {@link dev.panamaverbs.Verbs#version()} answers when no manifest says (classes run from a build tree). */
    public static final String UNKNOWN = "unknown (not run from the verbs-core jar)";

    private static final String VERSION = read();

    private BuildInfo() {}

    public static String version() {
        return VERSION;
    }

    private static String read() {
        // Class path: the package carries its jar's manifest attributes.
        String version = BuildInfo.class.getPackage().getImplementationVersion();
        if (version != null) {
            return version;
        }
        // Module path: packages of named modules carry none; read this module's own manifest.
        try (InputStream in = BuildInfo.class.getModule().getResourceAsStream("META-INF/MANIFEST.MF")) {
            if (in != null) {
                version = new Manifest(in).getMainAttributes().getValue("Implementation-Version");
            }
        } catch (IOException | RuntimeException e) {
            version = null;
        }
        if (version == null) {
            version = BuildInfo.class.getModule().getDescriptor() == null ? null
                    : BuildInfo.class.getModule().getDescriptor().rawVersion().orElse(null);
        }
        return version == null || version.isBlank() ? UNKNOWN : version;
    }
}
