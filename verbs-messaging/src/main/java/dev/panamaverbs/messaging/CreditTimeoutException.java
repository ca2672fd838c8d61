package dev.panamaverbs.messaging;

/**
 * A send that found no credit (or no free send buffer) within its deadline: the peer has not
 * released enough of the messages it received. Nothing was sent; the channel stays usable, and a
 * later send succeeds once the peer reads again. With a zero deadline
 * ({@link ChannelOptions.Builder#sendTimeout}) this is the fail-fast answer.
 */
public class CreditTimeoutException extends MessagingException {
    private static final long serialVersionUID = 1L;

    /**
     * A send that waited in vain.
     *
     * @param message the whole message, shown to a person as is
     */
    public CreditTimeoutException(String message) {
        super(message, null);
    }
}
