package dev.panamaverbs.loader.internal;

import dev.panamaverbs.ffm.invoke.verbs_h;

/**
 * The process-wide libibverbs, configured by {@code panamaverbs.library}, else
 * {@code PANAMAVERBS_LIBRARY}, else {@code libibverbs.so.1}, and turned off by
 * {@code panamaverbs.disable} (see {@link LibraryProbe}); its functions bind {@code verbs_h}.
 */
public final class LibIbverbs {
    /** The library, probed on first use. */
    public static final ProcessLibrary LIBRARY =
            new ProcessLibrary(LibIbverbs.class, "libibverbs", LibraryProbe::configuredLibrary, verbs_h.LIBRARY);

    private LibIbverbs() {}
}
