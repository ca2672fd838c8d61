package dev.panamaverbs;

/**
 * The root exception, as the Java 17 base layer has it (docs/multi-release.md): only the members
 * a probing caller meets. The JDK 22 class has them all, with the same signatures.
 */
public class VerbsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * A failure that is not one verb's.
     *
     * @param message the whole message
     * @param cause the cause, or {@code null}
     */
    protected VerbsException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Null: the unavailability is no verb's failure.
     *
     * @return null
     */
    public String verb() {
        return null;
    }

    /**
     * 0: the unavailability has no errno.
     *
     * @return 0
     */
    public int errno() {
        return 0;
    }
}
