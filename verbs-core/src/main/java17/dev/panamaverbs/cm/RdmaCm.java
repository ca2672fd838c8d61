package dev.panamaverbs.cm;

import dev.panamaverbs.Verbs;
import dev.panamaverbs.VerbsException;
import java.util.Optional;

/**
 * The rdma_cm probe of the Java 17 base layer (docs/multi-release.md): never available on a JDK
 * older than 22, for {@link Verbs}'s reason. Every member is also in the JDK 22 class with the
 * same signature.
 */
public final class RdmaCm {
    private RdmaCm() {}

    /**
     * False: this JDK is older than 22.
     *
     * @return false
     */
    public static boolean isAvailable() {
        return false;
    }

    /**
     * {@link Verbs#unavailabilityCause()}: "needs JDK 22 or newer (running N)".
     *
     * @return why rdma_cm is unavailable
     */
    public static Optional<String> unavailabilityCause() {
        return Verbs.unavailabilityCause();
    }

    /**
     * {@link Verbs#unavailabilityException()}.
     *
     * @return the unavailability as an exception
     */
    public static Optional<VerbsException> unavailabilityException() {
        return Verbs.unavailabilityException().map(VerbsException.class::cast);
    }

    /**
     * Throws: this JDK is older than 22.
     *
     * @throws dev.panamaverbs.VerbsUnavailableException always
     */
    public static void ensureAvailable() {
        Verbs.ensureAvailable();
    }
}
