package dev.panamaverbs.messaging;

/**
 * A request whose response did not come within its timeout ({@link MessageChannel#request}). The
 * channel stays usable; a response that comes later is released and dropped.
 */
public class RequestTimeoutException extends MessagingException {
    private static final long serialVersionUID = 1L;

    /**
     * A request that waited in vain.
     *
     * @param message the whole message, shown to a person as is
     */
    public RequestTimeoutException(String message) {
        super(message, null);
    }
}
