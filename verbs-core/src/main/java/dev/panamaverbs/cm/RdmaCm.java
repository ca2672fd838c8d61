package dev.panamaverbs.cm;

import dev.panamaverbs.Verbs;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.VerbsSetupException;
import dev.panamaverbs.VerbsUnavailableException;
import dev.panamaverbs.loader.internal.LibRdmacm;
import java.util.Optional;

/**
 * Whether rdma_cm, the connection manager (librdmacm), can be used here. It needs libibverbs
 * ({@link Verbs}) and librdmacm, reported apart: a host without librdmacm still has verbs. It also
 * needs the device {@code /dev/infiniband/rdma_cm} (made by the {@code rdma_ucm} kernel module),
 * which the probe opens read-write as librdmacm does, on every call (the module may be loaded
 * later): without it librdmacm loads but no identifier can be made.
 *
 * <p>Where to start: {@link RdmaConnection#connect} (client), {@link RdmaListener#listen}
 * (server), {@link RdmaDatagramSocket} (UD); below them {@link ConnectionEventChannel} and
 * {@link ConnectionId}, the C API's objects.
 */
public final class RdmaCm {
    private RdmaCm() {}

    /**
     * True when libibverbs and librdmacm both loaded with every required symbol and
     * {@code /dev/infiniband/rdma_cm} can be opened. Never throws.
     *
     * @return true when rdma_cm can be used here
     */
    public static boolean isAvailable() {
        return unavailabilityCause().isEmpty();
    }

    /**
     * Why rdma_cm is unavailable, the first of: libibverbs' cause, librdmacm's cause, or why
     * {@code /dev/infiniband/rdma_cm} cannot be opened (missing: the {@code rdma_ucm} kernel module
     * is not loaded; or not permitted). Empty when available.
     *
     * @return why rdma_cm is unavailable; empty when available
     */
    public static Optional<String> unavailabilityCause() {
        if (!Verbs.isAvailable()) {
            return Verbs.unavailabilityCause();
        }
        if (!LibRdmacm.LIBRARY.isAvailable()) {
            return LibRdmacm.LIBRARY.unavailabilityCause();
        }
        return RdmaCmDevice.problem();
    }

    /**
     * Why rdma_cm is unavailable, as a throwable, in the order of {@link #unavailabilityCause()}:
     * a {@link VerbsUnavailableException} when libibverbs or librdmacm is unavailable (its cause is
     * what the probe caught, if something threw), a {@link VerbsSetupException} when the libraries
     * are there but {@code /dev/infiniband/rdma_cm} cannot be opened. Empty when available. Never
     * throws.
     *
     * @return the unavailability as an exception, empty when available
     */
    public static Optional<VerbsException> unavailabilityException() {
        if (!Verbs.isAvailable()) {
            return Verbs.unavailabilityException().map(VerbsException.class::cast);
        }
        if (!LibRdmacm.LIBRARY.isAvailable()) {
            return LibRdmacm.LIBRARY.unavailabilityCause().map(cause -> new VerbsUnavailableException(
                    "librdmacm", cause, LibRdmacm.LIBRARY.unavailabilityFailure().orElse(null)));
        }
        return RdmaCmDevice.problem().map(RdmaCmDevice::missing);
    }

    /**
     * The rdma_cm device that {@code rdma_create_event_channel} opens:
     * {@code /dev/infiniband/rdma_cm}.
     *
     * @return the rdma_cm device's path
     */
    public static String devicePath() {
        return RdmaCmDevice.path().toString();
    }

    /**
     * Why {@link #devicePath()} cannot be opened read-write (missing: the {@code rdma_ucm} kernel
     * module is not loaded; or not permitted), empty when it can. Asked on its own, whether or
     * not the libraries load, as {@code ./verbs info} shows it. Never throws.
     *
     * @return why the rdma_cm device cannot be opened, empty when it can
     */
    public static Optional<String> deviceUnavailabilityCause() {
        return RdmaCmDevice.problem();
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
     * @throws VerbsUnavailableException when libibverbs or librdmacm is unavailable (the cause)
     * @throws VerbsSetupException when {@code /dev/infiniband/rdma_cm} cannot be opened (the
     *         message says why: the {@code rdma_ucm} module is not loaded, or not permitted)
     */
    public static void ensureAvailable() {
        Optional<VerbsException> unavailable = unavailabilityException();
        if (unavailable.isPresent()) {
            throw unavailable.get();
        }
    }
}
