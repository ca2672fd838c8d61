package dev.panamaverbs.loader;

import dev.panamaverbs.library.Capability;
import dev.panamaverbs.error.VerbsUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;
import java.util.Set;

/**
 * The process-wide libibverbs: probed once, lazily and thread-safely, on first use, from what
 * {@link LibraryProbe#probeConfigured()} reads ({@code panamaverbs.library},
 * {@code PANAMAVERBS_LIBRARY}, {@code panamaverbs.disable}). The answer never changes afterwards.
 *
 * <p>Nothing here runs in a static initialiser: a failed load is an answer, not an
 * {@link ExceptionInInitializerError}.
 */
public final class LibIbverbs {
    private static final Logger LOG = LoggerFactory.getLogger(LibIbverbs.class);
    private static final Object LOCK = new Object();
    private static volatile LoadResult result;

    private LibIbverbs() {}

    /** The probe result, probing on the first call. */
    static LoadResult result() {
        LoadResult current = result;
        if (current == null) {
            synchronized (LOCK) {
                current = result;
                if (current == null) {
                    current = LibraryProbe.probeConfigured();
                    log(current);
                    result = current;
                }
            }
        }
        return current;
    }

    private static void log(LoadResult loaded) {
        if (loaded.isAvailable()) {
            LOG.info("libibverbs loaded from {}; optional capabilities {}", loaded.libraryPath(), loaded.capabilities());
        } else {
            LOG.warn("libibverbs unavailable: {}", loaded.unavailabilityCause().orElseThrow());
        }
    }

    /** True when libibverbs was opened and every required symbol resolved. */
    public static boolean isAvailable() {
        return result().isAvailable();
    }

    /**
     * Why libibverbs is unavailable: the library tried and dlerror's text, the missing symbols
     * with their versions, native access denied (with the option to add), or turned off.
     * Empty when available.
     */
    public static Optional<String> unavailabilityCause() {
        return result().unavailabilityCause();
    }

    /** Returns normally when available; throws {@link VerbsUnavailableException} with the cause otherwise. */
    public static void ensureAvailable() {
        LoadResult loaded = result();
        if (!loaded.isAvailable()) {
            throw new VerbsUnavailableException(loaded.unavailabilityCause().orElseThrow());
        }
    }

    /**
     * The libibverbs file actually loaded, symbolic links resolved (e.g.
     * {@code /usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.44.0}); when unavailable, the name that
     * was (or would have been) handed to {@code dlopen}. See {@link LoadResult#libraryPath()}.
     */
    public static String libraryPath() {
        return result().libraryPath();
    }

    /** The soname or path handed to {@code dlopen} ({@code libibverbs.so.1} unless overridden). */
    public static String requestedLibrary() {
        return result().requestedLibrary();
    }

    /** The optional capabilities found; empty when unavailable. */
    public static Set<Capability> capabilities() {
        return result().capabilities();
    }

    /** Whether {@code capability} was found. */
    public static boolean has(Capability capability) {
        return result().has(capability);
    }
}
