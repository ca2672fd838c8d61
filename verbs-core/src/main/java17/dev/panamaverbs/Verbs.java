package dev.panamaverbs;

import java.util.List;
import java.util.Optional;

/**
 * The probe of the Java 17 base layer, loaded on JDK 17 to 21 (docs/multi-release.md): libibverbs
 * is never usable here, because the API needs the FFM API of JDK 22. Every member is also in the
 * JDK 22 class ({@code src/main/java}) with the same signature, so that code compiled against this
 * layer runs unchanged on JDK 22 and newer (MultiReleaseBaseLayerTest checks it).
 */
public final class Verbs {
    /** Why, as {@link #unavailabilityCause()} says it. */
    private static final String CAUSE =
            "needs JDK 22 or newer (running " + Runtime.version().feature() + ")";

    private Verbs() {}

    /**
     * False: this JDK is older than 22.
     *
     * @return false
     */
    public static boolean isAvailable() {
        return false;
    }

    /**
     * "needs JDK 22 or newer (running N)".
     *
     * @return why libibverbs is unavailable
     */
    public static Optional<String> unavailabilityCause() {
        return Optional.of(CAUSE);
    }

    /**
     * The unavailability as an exception, whose message ends with {@link #unavailabilityCause()}.
     *
     * @return the unavailability as an exception
     */
    public static Optional<VerbsUnavailableException> unavailabilityException() {
        return Optional.of(new VerbsUnavailableException(CAUSE));
    }

    /**
     * Throws: this JDK is older than 22.
     *
     * @throws VerbsUnavailableException always
     */
    public static void ensureAvailable() {
        throw new VerbsUnavailableException(CAUSE);
    }

    /**
     * Empty, as on JDK 22 when libibverbs is unavailable.
     *
     * @return an empty list
     */
    public static List<?> devices() {
        return List.of();
    }
}
