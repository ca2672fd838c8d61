package dev.panamaverbs.messaging;

/**
 * The message types of the channel's wire header (byte 1, see {@link MessageHeader} and
 * {@code docs/messaging.md}). The codes are fixed: a later version adds types, never renumbers.
 * {@link #DATA} and {@link #CREDIT} are implemented; the others are reserved for request/response
 * and rendezvous, and a channel that receives one fails with a protocol error until they land.
 */
public enum MessageType {
    /** An application message: the payload follows the header; consumes one credit. */
    DATA(1),
    /** Credits returned without data (one-way traffic); no payload, consumes no credit. */
    CREDIT(2),
    /** Reserved: a request carrying a correlation id; consumes one credit. */
    REQUEST(3),
    /** Reserved: the response to the request of the same correlation id; consumes one credit. */
    RESPONSE(4),
    /** Reserved: a rendezvous offer (payload: address u64, length u64, rkey u32, reserved u32). */
    RENDEZVOUS_OFFER(5),
    /** Reserved: the receiver's acknowledgement that it has read the offered region (same correlation id). */
    RENDEZVOUS_DONE(6);

    private static final MessageType[] BY_CODE = new MessageType[7];

    static {
        for (MessageType type : values()) {
            BY_CODE[type.code] = type;
        }
    }

    private final int code;

    MessageType(int code) {
        this.code = code;
    }

    /**
     * The code on the wire.
     *
     * @return the type's byte in the header
     */
    public int code() {
        return code;
    }

    /**
     * Whether a message of this type uses one of the receiver's credits (every type but
     * {@link #CREDIT}, whose buffers are a reserve outside the window).
     *
     * @return true when sending it takes a credit
     */
    public boolean consumesCredit() {
        return this != CREDIT;
    }

    /**
     * The type of {@code code}, or null when no type has it.
     *
     * @param code a header's type byte (0..255)
     * @return the type, or null
     */
    public static MessageType ofCode(int code) {
        return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
