package dev.panamaverbs;

/**
 * libibverbs could not be used on this machine: not installed, a required symbol missing, native
 * access denied, or turned off with {@code panamaverbs.disable=true}. The message is the full
 * cause, as {@code Verbs.unavailabilityCause()} reports it.
 *
 * <p>Until 0.1 this was an {@link IllegalStateException}; it is now a {@link VerbsException}, the
 * root of every exception of this library. Code that caught {@code IllegalStateException} around
 * {@link Verbs#ensureAvailable()} catches this type (or {@code VerbsException}) instead; code that
 * caught {@code RuntimeException} is unaffected, and {@link Verbs#isAvailable()} never throws.
 */
public class VerbsUnavailableException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /**
     * Unavailable for the reason given.
     *
     * @param cause why it is unavailable, the probe's text (the message follows "... is not available: ")
     */
    public VerbsUnavailableException(String cause) {
        super("libibverbs is not available: " + cause, null);
    }

    /**
     * Unavailable because of a throwable met while loading.
     *
     * @param cause why it is unavailable, the probe's text (the message follows "... is not available: ")
     * @param throwable what was thrown
     */
    public VerbsUnavailableException(String cause, Throwable throwable) {
        super("libibverbs is not available: " + cause, throwable);
    }

    /**
     * {@code library} (e.g. {@code librdmacm}) is unavailable for the reason given.
     *
     * @param library the library's name, as the message starts with it
     * @param cause why it is unavailable, the probe's text (the message follows "... is not available: ")
     * @param throwable what was thrown while loading, or null
     */
    public VerbsUnavailableException(String library, String cause, Throwable throwable) {
        super(library + " is not available: " + cause, throwable);
    }
}
