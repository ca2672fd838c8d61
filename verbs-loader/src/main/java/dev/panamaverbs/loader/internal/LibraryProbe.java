package dev.panamaverbs.loader.internal;

import dev.panamaverbs.ffm.ExportedFunction;
import dev.panamaverbs.ffm.invoke.NativeLibrary;
import dev.panamaverbs.ffm.invoke.verbs_h;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Opens one library file and resolves the functions a generated {@link NativeLibrary} lists, all
 * required ones or none, each at the symbol version the generator pinned. Each call is an
 * independent probe returning a fresh immutable {@link LoadResult}; nothing global changes, which
 * is what tests use to try other files. {@link LibIbverbs} holds the one result the process uses.
 */
public final class LibraryProbe {
    /** The soname opened when nothing overrides it. */
    public static final String DEFAULT_LIBRARY = "libibverbs.so.1";
    /** System property naming the library file to open instead of {@link #DEFAULT_LIBRARY}. */
    public static final String LIBRARY_PROPERTY = "panamaverbs.library";
    /** Environment variable read when {@link #LIBRARY_PROPERTY} is not set. */
    public static final String LIBRARY_ENVIRONMENT = "PANAMAVERBS_LIBRARY";
    /** System property that, set to {@code true}, turns native access off. */
    public static final String DISABLE_PROPERTY = "panamaverbs.disable";

    /** How many missing symbols a cause names before it only counts the rest. */
    static final int MISSING_NAMED = 5;
    /** dlerror state is per thread and the handle count per library: one probe at a time. */
    private static final Object LOCK = new Object();

    private LibraryProbe() {}

    /**
     * The library the configuration names: the property, else the environment, else the default.
     *
     * @return the library the configuration names: the property, else the environment, else the default
     */
    public static String configuredLibrary() {
        return configuredLibrary(LIBRARY_PROPERTY, LIBRARY_ENVIRONMENT, DEFAULT_LIBRARY);
    }

    /** The library {@code property} names, else {@code environment}, else {@code fallback} (blanks ignored). */
    static String configuredLibrary(String property, String environment, String fallback) {
        String fromProperty = System.getProperty(property);
        if (fromProperty != null && !fromProperty.isBlank()) {
            return fromProperty.strip();
        }
        String fromEnvironment = System.getenv(environment);
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return fromEnvironment.strip();
        }
        return fallback;
    }

    /**
     * Probes what the system properties and environment configure (see the constants above).
     *
     * @return the load result
     */
    public static LoadResult probeConfigured() {
        return probeConfigured(configuredLibrary(), verbs_h.LIBRARY);
    }

    /** Probes {@code library} for {@code functions}, unless {@link #DISABLE_PROPERTY} turns native access off. */
    static LoadResult probeConfigured(String library, NativeLibrary functions) {
        if (Boolean.parseBoolean(System.getProperty(DISABLE_PROPERTY))) {
            return LoadResult.unavailable(library,
                    "disabled by -D" + DISABLE_PROPERTY + "=true; " + library + " was not opened");
        }
        return probe(library, functions);
    }

    /**
     * Probes the library file at {@code library} for libibverbs' functions.
     *
     * @param library the library file or soname
     * @return the load result
     */
    public static LoadResult probe(Path library) {
        return probe(library.toString());
    }

    /**
     * Probes {@code library} for libibverbs' functions, see {@link #probe(String, NativeLibrary)}.
     *
     * @param library the library file or soname
     * @return the load result
     */
    public static LoadResult probe(String library) {
        return probe(library, verbs_h.LIBRARY);
    }

    /**
     * Probes {@code library}, a path or a soname searched like {@code dlopen} does, for the
     * functions of {@code functions} (a generated {@link NativeLibrary}): each at its pinned
     * version, every required one or none. Never throws: every failure becomes an unavailable
     * result whose cause names the library and the reason. Nothing global changes.
     *
     * @param library the library file or soname
     * @param functions the functions
     * @return the load result
     */
    public static LoadResult probe(String library, NativeLibrary functions) {
        try {
            if (!NativeAccess.isEnabled()) {
                return LoadResult.unavailable(library, NativeAccess.deniedCause());
            }
            if (Dlfcn.bindFailure().isPresent()) {
                return LoadResult.unavailable(library, Dlfcn.bindFailure().get());
            }
            synchronized (LOCK) {
                return open(library, functions.functions());
            }
        } catch (Throwable t) {
            // Anything unexpected (a broken generated layer, an Error from the linker) still
            // yields an answer rather than an exception out of the lazy initialisation.
            return LoadResult.unavailable(library, "probing " + library + " failed: " + t, t);
        }
    }

    private static LoadResult open(String library, List<ExportedFunction> functions) {
        Dlfcn.lastError(); // clear any stale text so the next one is ours
        MemorySegment handle = Dlfcn.open(library);
        if (handle.equals(MemorySegment.NULL)) {
            return LoadResult.unavailable(library, "dlopen(\"" + library + "\") failed: " + Dlfcn.lastError());
        }
        boolean keepOpen = false;
        try {
            List<String> names = new ArrayList<>(functions.size());
            List<String> versions = new ArrayList<>(functions.size());
            for (ExportedFunction function : functions) { // a plain loop: no lambda to bootstrap at start-up
                names.add(function.name());
                versions.add(function.version());
            }
            MemorySegment[] addresses = Dlfcn.versionedSymbols(handle, names, versions);
            Map<String, MemorySegment> resolved = new LinkedHashMap<>();
            List<ExportedFunction> missing = new ArrayList<>();
            for (int i = 0; i < addresses.length; i++) {
                ExportedFunction function = functions.get(i);
                if (!addresses[i].equals(MemorySegment.NULL)) {
                    resolved.put(function.name(), addresses[i]);
                } else if (function.required()) {
                    missing.add(function);
                }
            }
            String lastError = Dlfcn.lastError(); // optional misses leave text behind: never leak it to a later probe
            if (!missing.isEmpty()) {
                return LoadResult.unavailable(library, missingCause(library, missing, lastError));
            }
            keepOpen = true;
            return LoadResult.available(library, resolved);
        } finally {
            if (!keepOpen) {
                // The resolved addresses die with this frame: an unavailable result holds none.
                Dlfcn.close(handle);
            }
        }
    }

    /** How many required symbols are missing, and the first few of them by {@code name@version}. */
    static String missingCause(String library, List<ExportedFunction> missing, String lastError) {
        String named = missing.stream().limit(MISSING_NAMED).map(f -> f.name() + "@" + f.version())
                .collect(Collectors.joining(", "));
        int more = missing.size() - MISSING_NAMED;
        return library + " lacks " + (missing.size() == 1 ? "required symbol " : missing.size() + " required symbols: ")
                + named + (more > 0 ? " and " + more + " more" : "")
                + (lastError.isEmpty() ? "" : " (dlerror: " + lastError + ")");
    }
}
