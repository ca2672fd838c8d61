package dev.panamaverbs;

import dev.panamaverbs.values.Errno;

/**
 * The root of every exception this library throws, and itself the one for a failed verb: it
 * carries the C verb's name and the errno it reported, and the message reads
 * {@code ibv_xxx failed: errno N (text)}. Catching {@code VerbsException} catches every failure of
 * the library's own making: {@link VerbsUnavailableException} (no usable libibverbs),
 * {@link VerbsSetupException} (no device, no usable GID), {@link VerbsUnsupportedException},
 * {@link CompletionFailedException}, rdma_cm's {@code ConnectionException}, the endpoint
 * exchange's {@code EndpointExchangeException} and the one-sided channel's
 * {@code ChannelFailedException}, {@code ChannelClosedException} (a call under way when another
 * thread closed the channel) and {@code WaitTimeoutException}. Misuse (a closed resource, an
 * argument out of range) is the JDK's {@link IllegalStateException} and
 * {@link IllegalArgumentException}, as everywhere in Java.
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
     * @param detail more context for the message (e.g. the device's name), or {@code null}
     */
    public VerbsException(String verb, int errno, String detail) {
        super(verb + " failed: errno " + errno + " (" + Errno.describe(errno) + ")"
                + (detail == null || detail.isEmpty() ? "" : ": " + detail));
        this.verb = verb;
        this.errno = errno;
    }

    /**
     * For failures that are not one verb's (availability, set-up, the endpoint exchange, a
     * one-sided wait): {@link #verb()} is {@code null} and {@link #errno()} 0.
     *
     * @param message the whole message, shown to a person as is
     * @param cause the cause, or {@code null}
     */
    protected VerbsException(String message, Throwable cause) {
        this(null, 0, message, cause);
    }

    /**
     * For subclasses that word their own message.
     *
     * @param verb the C verb being called, named in messages (e.g. {@code ibv_create_qp})
     * @param errno the errno value
     * @param message the whole message, worded by the subclass
     * @param cause what was thrown underneath, or {@code null}
     */
    protected VerbsException(String verb, int errno, String message, Throwable cause) {
        super(message, cause);
        this.verb = verb;
        this.errno = errno;
    }

    /**
     * The C verb that failed, e.g. {@code ibv_create_qp}; {@code null} for a failure that is not
     * one verb's ({@link VerbsUnavailableException}, {@link VerbsSetupException}, ...).
     *
     * @return the C verb that failed, or {@code null}
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
