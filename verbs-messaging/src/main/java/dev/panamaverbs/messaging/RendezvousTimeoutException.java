package dev.panamaverbs.messaging;

/**
 * A blocking large {@link MessageChannel#send(java.lang.foreign.MemorySegment) send} or
 * {@link MessageChannel#respond respond} whose receiver did not answer the message's
 * {@link MessageType#RENDEZVOUS_DONE} by the call's deadline, or a large
 * {@link MessageChannel#request request} whose DONE had not come by the request's timeout (the
 * cause of the exception that fails its future). Unlike a
 * {@link CreditTimeoutException}, the offer was sent and the peer may still be reading: the channel
 * therefore fails with this exception ({@code rdma_disconnect}, so that no RDMA READ of the
 * message's region is served any more) before the region's registration is released; the channel
 * is no longer usable.
 */
public final class RendezvousTimeoutException extends MessagingException {
    private static final long serialVersionUID = 1L;

    /** The message's id. */
    private final long messageId;

    /**
     * A rendezvous that waited in vain for its DONE.
     *
     * @param message the whole message, shown to a person as is
     * @param messageId the message's id (the offer's correlation)
     */
    public RendezvousTimeoutException(String message, long messageId) {
        super(message, null);
        this.messageId = messageId;
    }

    /** {@return the message's id, the correlation of its offer} */
    public long messageId() {
        return messageId;
    }
}
