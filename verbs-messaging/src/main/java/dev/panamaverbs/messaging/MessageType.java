package dev.panamaverbs.messaging;

/**
 * The message types of the channel's wire header (byte 1, see {@link MessageHeader} and
 * {@code docs/messaging.md}). The codes are fixed: a later version adds types, never renumbers.
 * All six are implemented.
 */
public enum MessageType {
    /** An application message: the payload follows the header; consumes one credit. */
    DATA(1),
    /** Credits returned without data (one-way traffic); no payload, consumes no credit. */
    CREDIT(2),
    /** A request carrying a correlation id; consumes one credit. */
    REQUEST(3),
    /** The response to the request of the same correlation id; consumes one credit. */
    RESPONSE(4),
    /**
     * A rendezvous offer: a message too large for a receive buffer waits in a registered region of
     * the sender, which the receiver reads with RDMA READ; the correlation is the rendezvous id,
     * the payload 32 bytes (address u64, length u64, rkey u32, the message's type u32, its
     * correlation u64).
     * Consumes one credit.
     */
    RENDEZVOUS_OFFER(5),
    /**
     * The receiver's answer to an offer (same correlation id), with the header's status word
     * ({@link RendezvousStatus}): read, or refused or failed; the sender may reuse its region.
     * No payload; consumes one credit.
     */
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
