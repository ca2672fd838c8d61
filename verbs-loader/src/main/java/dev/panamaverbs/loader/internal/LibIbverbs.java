package dev.panamaverbs.loader.internal;

import dev.panamaverbs.ffm.invoke.verbs_h;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;

/**
 * The process-wide libibverbs: probed once, lazily and thread-safely, on first use, from what
 * {@link LibraryProbe#probeConfigured()} reads ({@code panamaverbs.library},
 * {@code PANAMAVERBS_LIBRARY}, {@code panamaverbs.disable}). The answer never changes afterwards.
 * When available, the generated invokers ({@code verbs_h}) are bound to the addresses resolved,
 * before anyone can see the answer: a caller told "available" can call them at once.
 *
 * <p>Nothing here runs in a static initialiser: a failed load is an answer, not an
 * {@link ExceptionInInitializerError}.
 */
public final class LibIbverbs {
    private static final Logger LOG = LoggerFactory.getLogger(LibIbverbs.class);
    private static final Object LOCK = new Object();
    private static volatile LoadResult result;

    private LibIbverbs() {}

    /** The probe result, probing (and binding the invokers) on the first call. */
    static LoadResult result() {
        LoadResult current = result;
        if (current == null) {
            synchronized (LOCK) {
                current = result;
                if (current == null) {
                    current = LibraryProbe.probeConfigured();
                    if (current.isAvailable()) {
                        verbs_h.LIBRARY.bind(current.addresses());
                        LOG.info("libibverbs loaded from {}", current.libraryPath());
                    } else {
                        // The cause is the caller's to report (unavailabilityCause): a library turned
                        // off or absent on purpose is no warning.
                        LOG.debug("libibverbs unavailable: {}", current.unavailabilityCause().orElseThrow());
                    }
                    result = current;
                }
            }
        }
        return current;
    }

    /**
     * True when libibverbs was opened and every required symbol resolved.
     *
     * @return true when libibverbs was opened and every required symbol resolved
     */
    public static boolean isAvailable() {
        return result().isAvailable();
    }

    /**
     * Why libibverbs is unavailable: the library tried and dlerror's text, the missing symbols
     * with their versions, native access denied (with the option to add), or turned off.
     * Empty when available.
     *
     * @return why libibverbs is unavailable: the library tried and dlerror's text, the missing symbols with their versions, native access denied (with the option to add), or turned off
     */
    public static Optional<String> unavailabilityCause() {
        return result().unavailabilityCause();
    }

    /**
     * The libibverbs file actually loaded, symbolic links resolved (e.g.
     * {@code /usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.44.0}); when unavailable, the name that
     * was (or would have been) handed to {@code dlopen}. See {@link LoadResult#libraryPath()}.
     *
     * @return the libibverbs file actually loaded, symbolic links resolved
     */
    public static String libraryPath() {
        return result().libraryPath();
    }

    /**
     * The soname or path handed to {@code dlopen} ({@code libibverbs.so.1} unless overridden).
     *
     * @return the soname or path handed to {@code dlopen} ({@code libibverbs.so.1} unless overridden)
     */
    public static String requestedLibrary() {
        return result().requestedLibrary();
    }

    /**
     * Whether the exported function {@code name} was resolved (false when unavailable).
     *
     * @param name the name
     * @return whether the exported function {@code name} was resolved (false when unavailable)
     */
    public static boolean has(String name) {
        return result().has(name);
    }
}
