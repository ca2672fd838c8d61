package dev.panamaverbs;

/**
 * libibverbs cannot be used, as the Java 17 base layer has it (docs/multi-release.md): here
 * always because the JDK is older than 22. The JDK 22 class has every member, with the same
 * signatures and the same message.
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
}
