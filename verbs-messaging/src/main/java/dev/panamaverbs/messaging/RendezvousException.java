package dev.panamaverbs.messaging;

/**
 * One large message's rendezvous failed, and only that message: the receiver refused the offer
 * (too large, no buffer) or could not read it. On the sender the send or respond of that message
 * throws it, or a large request's future fails with it (its {@link #status()} from the receiver's
 * {@link MessageType#RENDEZVOUS_DONE}); on the receiver {@link MessageChannel#receive} throws it in
 * the message's place, or a large response's request future fails with it. The channel stays usable unless
 * its own {@link MessageChannel#failure()} says otherwise (a failed RDMA READ takes the queue pair
 * to the error state, which fails the channel as well).
 */
public final class RendezvousException extends MessagingException {
    private static final long serialVersionUID = 1L;

    /** Why the message was not read. */
    private final RendezvousStatus status;
    /** The message's id. */
    private final long messageId;

    /**
     * A failed rendezvous.
     *
     * @param message the whole message
     * @param status the status the receiver reported
     * @param messageId the message's id (the offer's correlation)
     * @param cause the cause, or null
     */
    public RendezvousException(String message, RendezvousStatus status, long messageId, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.messageId = messageId;
    }

    /** {@return why the message was not read} */
    public RendezvousStatus status() {
        return status;
    }

    /** {@return the message's id, the correlation of its offer and DONE} */
    public long messageId() {
        return messageId;
    }
}
