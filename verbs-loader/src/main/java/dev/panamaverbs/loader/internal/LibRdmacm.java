package dev.panamaverbs.loader.internal;

import dev.panamaverbs.ffm.invoke.rdma_cma_h;

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

    /** The library, probed on first use, on its own: libibverbs does not depend on it. */
    public static final ProcessLibrary LIBRARY =
            new ProcessLibrary(LibRdmacm.class, "librdmacm", LibRdmacm::configuredLibrary, rdma_cma_h.LIBRARY);

    private LibRdmacm() {}

    /**
     * The library the configuration names: the property, else the environment, else the default.
     *
     * @return the file or soname to open
     */
    public static String configuredLibrary() {
        return LibraryProbe.configuredLibrary(LIBRARY_PROPERTY, LIBRARY_ENVIRONMENT, DEFAULT_LIBRARY);
    }
}
