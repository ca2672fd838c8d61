package dev.panamaverbs.internal;

import dev.panamaverbs.VerbsUnavailableException;
import dev.panamaverbs.loader.internal.LibIbverbs;
import java.util.Optional;

/**
 * The one rule for "libibverbs is usable here", below the API so that the helpers and values that
 * need the library before their first native call ({@link LibraryText}, the device list, a context)
 * check it without reaching up to {@code Verbs}, whose {@code ensureAvailable()} and
 * {@code unavailabilityException()} answer with it.
 */
public final class Availability {
    private Availability() {}

    /** Why libibverbs is unavailable, as the exception {@link #ensureVerbs()} throws; empty when available. */
    public static Optional<VerbsUnavailableException> verbsUnavailable() {
        return LibIbverbs.LIBRARY.unavailabilityCause().map(cause ->
                new VerbsUnavailableException(cause, LibIbverbs.LIBRARY.unavailabilityFailure().orElse(null)));
    }

    /** Returns normally when libibverbs is available, else throws the {@link VerbsUnavailableException} with the cause. */
    public static void ensureVerbs() {
        Optional<VerbsUnavailableException> unavailable = verbsUnavailable();
        if (unavailable.isPresent()) {
            throw unavailable.get();
        }
    }
}
