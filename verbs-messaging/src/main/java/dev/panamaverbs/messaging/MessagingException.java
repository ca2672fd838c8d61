package dev.panamaverbs.messaging;

import dev.panamaverbs.VerbsException;

/**
 * A failure of the messaging layer that is not one verb's: a message the peer refused, a channel
 * that lost its peer, a rendezvous that failed, a registration the memory lock limit refused. A
 * failed verb underneath is the {@linkplain #getCause() cause} when there is one. Extends
 * {@link VerbsException}, the root of everything the library throws.
 */
public class MessagingException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /**
     * A messaging failure.
     *
     * @param message the whole message, shown to a person as is
     * @param cause the cause (often a {@link VerbsException}), or {@code null}
     */
    public MessagingException(String message, Throwable cause) {
        super(message, cause);
    }
}
