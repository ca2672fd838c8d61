package dev.panamaverbs;

/**
 * A verb failed. Carries the C verb's name and the errno it reported; the message reads
 * {@code ibv_xxx failed: errno N (text)}.
 *
 * <p>Unchecked on purpose: verbs failures are programming or environment errors callers rarely
 * recover from locally, and checked exceptions do not compose with the lambdas that fixtures and
 * completion handlers use.
 */
public class VerbsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The C verb that failed, e.g. {@code ibv_create_qp}. */
    private final String verb;
    /** The errno it failed with. */
    private final int errno;

    /**
     * A failure of {@code verb} with {@code errno}, described by {@link Errno#describe(int)}.
     *
     * @param verb the C verb being called, named in messages (e.g. {@code ibv_create_qp})
     * @param errno the errno value
     */
    public VerbsException(String verb, int errno) {
        this(verb, errno, null);
    }

    /**
     * As {@link #VerbsException(String, int)}, with extra context appended to the message.
     *
     * @param verb the C verb being called, named in messages (e.g. {@code ibv_create_qp})
     * @param errno the errno value
     * @param detail the detail
     */
    public VerbsException(String verb, int errno, String detail) {
        super(verb + " failed: errno " + errno + " (" + Errno.describe(errno) + ")"
                + (detail == null || detail.isEmpty() ? "" : ": " + detail));
        this.verb = verb;
        this.errno = errno;
    }

    /**
     * For subclasses that word their own message.
     *
     * @param verb the C verb being called, named in messages (e.g. {@code ibv_create_qp})
     * @param errno the errno value
     * @param message the message
     * @param cause the cause
     */
    protected VerbsException(String verb, int errno, String message, Throwable cause) {
        super(message, cause);
        this.verb = verb;
        this.errno = errno;
    }

    /**
     * The exception for {@code verb} failing with {@code errno}: a {@link VerbsUnsupportedException}
     * when the errno means "not supported" ({@link Errno#meansUnsupported(int)}), else a plain one.
     *
     * @param verb the C verb being called, named in messages (e.g. {@code ibv_create_qp})
     * @param errno the errno value
     * @return the exception for {@code verb} failing with {@code errno}: a {@link VerbsUnsupportedException} when the errno means "not supported" ({@link Errno#meansUnsupported(int)}), else a plain one
     */
    public static VerbsException of(String verb, int errno) {
        return Errno.meansUnsupported(errno) ? new VerbsUnsupportedException(verb, errno) : new VerbsException(verb, errno);
    }

    /**
     * The C verb that failed, e.g. {@code ibv_create_qp}.
     *
     * @return the C verb that failed, e.g
     */
    public String verb() {
        return verb;
    }

    /**
     * The errno the verb reported (0 where it reported none).
     *
     * @return the errno the verb reported (0 where it reported none)
     */
    public int errno() {
        return errno;
    }
}
