package dev.panamaverbs.cm;

import dev.panamaverbs.Verbs;
import dev.panamaverbs.VerbsUnavailableException;
import dev.panamaverbs.loader.internal.LibRdmacm;
import java.util.Optional;

/**
 * Whether rdma_cm, the connection manager (librdmacm), can be used here. It needs libibverbs
 * ({@link Verbs}) and librdmacm, reported apart: a host without librdmacm still has verbs. At run
 * time it also needs {@code /dev/infiniband/rdma_cm} (the {@code rdma_ucm} kernel module).
 *
 * <p>Where to start: {@link RdmaConnection#connect} (client), {@link RdmaListener#listen}
 * (server), {@link RdmaDatagramSocket} (UD); below them {@link ConnectionEventChannel} and
 * {@link ConnectionId}, the C API's objects.
 */
public final class RdmaCm {
    private RdmaCm() {}

    /**
     * True when libibverbs and librdmacm both loaded with every required symbol. Never throws.
     *
     * @return true when libibverbs and librdmacm both loaded with every required symbol.
     */
    public static boolean isAvailable() {
        return Verbs.isAvailable() && LibRdmacm.LIBRARY.isAvailable();
    }

    /**
     * Why rdma_cm is unavailable (libibverbs' cause first, else librdmacm's); empty when available.
     *
     * @return why rdma_cm is unavailable (libibverbs' cause first, else librdmacm's); empty when available.
     */
    public static Optional<String> unavailabilityCause() {
        if (!Verbs.isAvailable()) {
            return Verbs.unavailabilityCause();
        }
        return LibRdmacm.LIBRARY.unavailabilityCause();
    }

    /**
     * Why rdma_cm is unavailable, as a throwable (libibverbs' first, else librdmacm's): a
     * {@link VerbsUnavailableException} whose message is {@link #unavailabilityCause()} and whose
     * cause is what the probe caught, if something threw. Empty when available. Never throws.
     *
     * @return the unavailability as an exception, empty when available
     */
    public static Optional<VerbsUnavailableException> unavailabilityException() {
        if (!Verbs.isAvailable()) {
            return Verbs.unavailabilityException();
        }
        return LibRdmacm.LIBRARY.unavailabilityCause().map(cause ->
                new VerbsUnavailableException(cause, LibRdmacm.LIBRARY.unavailabilityFailure().orElse(null)));
    }

    /**
     * The librdmacm file loaded (links resolved), or the name that was tried.
     *
     * @return the librdmacm file loaded (links resolved), or the name that was tried.
     */
    public static String libraryPath() {
        return LibRdmacm.LIBRARY.libraryPath();
    }

    /**
     * Returns normally when rdma_cm is available.
     *
     * @throws VerbsUnavailableException with the cause otherwise
     */
    public static void ensureAvailable() {
        Optional<VerbsUnavailableException> unavailable = unavailabilityException();
        if (unavailable.isPresent()) {
            throw unavailable.get();
        }
    }
}
