package dev.panamaverbs.loader;

import dev.panamaverbs.library.Capability;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Opens one libibverbs file and resolves its symbols, all required ones or none. Each call is an
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

    /** dlerror state is per thread and the handle count per library: one probe at a time. */
    private static final Object LOCK = new Object();

    private LibraryProbe() {}

    /** The library the configuration names: the property, else the environment, else the default. */
    public static String configuredLibrary() {
        String property = System.getProperty(LIBRARY_PROPERTY);
        if (property != null && !property.isBlank()) {
            return property.strip();
        }
        String environment = System.getenv(LIBRARY_ENVIRONMENT);
        if (environment != null && !environment.isBlank()) {
            return environment.strip();
        }
        return DEFAULT_LIBRARY;
    }

    /** Probes what the system properties and environment configure (see the constants above). */
    public static LoadResult probeConfigured() {
        String library = configuredLibrary();
        if (Boolean.parseBoolean(System.getProperty(DISABLE_PROPERTY))) {
            return LoadResult.unavailable(library,
                    "native access turned off by -D" + DISABLE_PROPERTY + "=true; " + library + " was not opened");
        }
        return probe(library);
    }

    /** Probes the library file at {@code library}. */
    public static LoadResult probe(Path library) {
        return probe(library.toString());
    }

    /**
     * Probes {@code library}, a path or a soname searched like {@code dlopen} does. Never throws:
     * every failure becomes an unavailable result whose cause names the library and the reason.
     */
    public static LoadResult probe(String library) {
        try {
            if (!NativeAccess.isEnabled()) {
                return LoadResult.unavailable(library, NativeAccess.deniedCause());
            }
            if (Dlfcn.bindFailure().isPresent()) {
                return LoadResult.unavailable(library, Dlfcn.bindFailure().get());
            }
            List<SymbolSpec> required = RequiredSymbols.specs();
            Map<Capability, List<SymbolSpec>> optional = optionalSpecs();
            synchronized (LOCK) {
                return open(library, required, optional);
            }
        } catch (Throwable t) {
            // Anything unexpected (a broken generated layer, an Error from the linker) still
            // yields an answer rather than an exception out of the lazy initialisation.
            return LoadResult.unavailable(library, "probing " + library + " failed: " + t);
        }
    }

    private static Map<Capability, List<SymbolSpec>> optionalSpecs() {
        Map<Capability, List<SymbolSpec>> specs = new LinkedHashMap<>();
        for (Capability capability : Capability.values()) {
            specs.put(capability, capability.symbols().stream().map(ExportedFunctions::spec).toList());
        }
        return specs;
    }

    private static LoadResult open(String library, List<SymbolSpec> required,
                                   Map<Capability, List<SymbolSpec>> optional) {
        Dlfcn.lastError(); // clear any stale text so the next one is ours
        MemorySegment handle = Dlfcn.open(library);
        if (handle.equals(MemorySegment.NULL)) {
            return LoadResult.unavailable(library, "dlopen(\"" + library + "\") failed: " + Dlfcn.lastError());
        }
        boolean keepOpen = false;
        try {
            Map<String, MemorySegment> resolved = new LinkedHashMap<>();
            List<SymbolSpec> missing = new ArrayList<>();
            for (SymbolSpec spec : required) {
                MemorySegment address = Dlfcn.versionedSymbol(handle, spec.name(), spec.version());
                if (address.equals(MemorySegment.NULL)) {
                    missing.add(spec);
                } else {
                    resolved.put(spec.name(), address);
                }
            }
            if (!missing.isEmpty()) {
                String lastError = Dlfcn.lastError();
                return LoadResult.unavailable(library, library + " lacks required symbol"
                        + (missing.size() == 1 ? " " : "s ")
                        + missing.stream().map(SymbolSpec::toString).collect(Collectors.joining(", "))
                        + (lastError.isEmpty() ? "" : " (dlerror: " + lastError + ")"));
            }
            Set<Capability> capabilities = EnumSet.noneOf(Capability.class);
            for (Map.Entry<Capability, List<SymbolSpec>> entry : optional.entrySet()) {
                Map<String, MemorySegment> found = resolveAll(handle, entry.getValue());
                if (found != null) {
                    capabilities.add(entry.getKey());
                    resolved.putAll(found);
                }
            }
            Dlfcn.lastError(); // optional misses leave text behind; do not let it leak to a later probe
            // The file the soname led to: dladdr on one of its symbols, links resolved.
            String loadedFile = resolved.isEmpty() ? null
                    : Dlfcn.fileContaining(resolved.values().iterator().next()).orElse(null);
            keepOpen = true;
            return LoadResult.available(library, loadedFile, resolved, capabilities);
        } finally {
            if (!keepOpen) {
                // The resolved addresses die with this frame: an unavailable result holds none.
                Dlfcn.close(handle);
            }
        }
    }

    /** All of {@code specs} resolved, or null when any is missing. */
    private static Map<String, MemorySegment> resolveAll(MemorySegment handle, List<SymbolSpec> specs) {
        Map<String, MemorySegment> found = new LinkedHashMap<>();
        for (SymbolSpec spec : specs) {
            MemorySegment address = Dlfcn.versionedSymbol(handle, spec.name(), spec.version());
            if (address.equals(MemorySegment.NULL)) {
                return null;
            }
            found.put(spec.name(), address);
        }
        return found;
    }
}
