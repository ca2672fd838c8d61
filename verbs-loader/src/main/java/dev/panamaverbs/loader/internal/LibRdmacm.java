package dev.panamaverbs.loader.internal;

import dev.panamaverbs.ffm.invoke.rdma_cma_h;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;

/**
 * The process-wide librdmacm ({@code rdma/rdma_cma.h}, the connection manager), probed on its own:
 * a host with libibverbs but no librdmacm still has verbs, and the answer here says why rdma_cm
 * is missing. Probed once, lazily and thread-safely, from {@code panamaverbs.rdmacm.library}, else
 * {@code PANAMAVERBS_RDMACM_LIBRARY}, else {@code librdmacm.so.1}; {@code panamaverbs.disable}
 * turns it off like libibverbs. When available, the generated invokers ({@code rdma_cma_h}) are
 * bound to the addresses resolved (every {@code RDMACM_1.0} symbol or none) before anyone sees
 * the answer. Nothing runs in a static initialiser: a failed load is an answer, not an error.
 */
public final class LibRdmacm {
    /** The soname opened when nothing overrides it. */
    public static final String DEFAULT_LIBRARY = "librdmacm.so.1";
    /** System property naming the librdmacm file to open instead of {@link #DEFAULT_LIBRARY}. */
    public static final String LIBRARY_PROPERTY = "panamaverbs.rdmacm.library";
    /** Environment variable read when {@link #LIBRARY_PROPERTY} is not set. */
    public static final String LIBRARY_ENVIRONMENT = "PANAMAVERBS_RDMACM_LIBRARY";

    private static final Logger LOG = LoggerFactory.getLogger(LibRdmacm.class);
    private static final Object LOCK = new Object();
    private static volatile LoadResult result;

    private LibRdmacm() {}

    /**
     * The library the configuration names: the property, else the environment, else the default.
     *
     * @return the library the configuration names: the property, else the environment, else the default.
     */
    public static String configuredLibrary() {
        return LibraryProbe.configuredLibrary(LIBRARY_PROPERTY, LIBRARY_ENVIRONMENT, DEFAULT_LIBRARY);
    }

    /** The probe result, probing (and binding the invokers) on the first call. */
    static LoadResult result() {
        LoadResult current = result;
        if (current == null) {
            synchronized (LOCK) {
                current = result;
                if (current == null) {
                    current = LibraryProbe.probeConfigured(configuredLibrary(), rdma_cma_h.LIBRARY);
                    if (current.isAvailable()) {
                        rdma_cma_h.LIBRARY.bind(current.addresses());
                        LOG.info("librdmacm loaded from {}", current.libraryPath());
                    } else {
                        LOG.debug("librdmacm unavailable: {}", current.unavailabilityCause().orElseThrow());
                    }
                    result = current;
                }
            }
        }
        return current;
    }

    /**
     * True when librdmacm was opened and every required symbol resolved.
     *
     * @return true when librdmacm was opened and every required symbol resolved.
     */
    public static boolean isAvailable() {
        return result().isAvailable();
    }

    /**
     * Why librdmacm is unavailable (dlopen's text, the missing symbols, turned off...); empty when available.
     *
     * @return why librdmacm is unavailable (dlopen's text, the missing symbols, turned off...); empty when available.
     */
    public static Optional<String> unavailabilityCause() {
        return result().unavailabilityCause();
    }

    /**
     * The librdmacm file actually loaded, links resolved; when unavailable, the name handed to {@code dlopen}.
     *
     * @return the librdmacm file actually loaded, links resolved; when unavailable, the name handed to {@code dlopen}.
     */
    public static String libraryPath() {
        return result().libraryPath();
    }

    /**
     * The soname or path handed to {@code dlopen} ({@code librdmacm.so.1} unless overridden).
     *
     * @return the soname or path handed to {@code dlopen} ({@code librdmacm.so.1} unless overridden).
     */
    public static String requestedLibrary() {
        return result().requestedLibrary();
    }

    /**
     * Whether the exported function {@code name} was resolved (false when unavailable).
     *
     * @param name the name
     * @return whether the exported function {@code name} was resolved (false when unavailable).
     */
    public static boolean has(String name) {
        return result().has(name);
    }
}
