package dev.panamaverbs.messaging;

/**
 * The status a {@link MessageType#RENDEZVOUS_DONE} carries in its header's status word (bytes
 * 12..15, see {@link MessageHeader}): whether the receiver read the offered message, or why not.
 * The codes are fixed on the wire.
 */
public enum RendezvousStatus {
    /** The receiver read the whole message. */
    OK(0),
    /** The offer is larger than the receiver's {@link ChannelOptions#maxRendezvousSize()}; nothing was read. */
    TOO_LARGE(1),
    /** The receiver could not allocate or register the destination buffer; nothing was read. */
    NO_BUFFER(2),
    /** An RDMA READ of the message failed (its completion status is in the receiver's failure). */
    READ_FAILED(3);

    /** Every status, made once: {@code values()} copies its array on each call, and a DONE is read per message. */
    private static final RendezvousStatus[] ALL = values();

    private final int code;

    RendezvousStatus(int code) {
        this.code = code;
    }

    /** {@return the code in the header's status word} */
    public int code() {
        return code;
    }

    /**
     * The status of {@code code}, or null when no status has it.
     *
     * @param code a DONE's status word
     * @return the status, or null
     */
    public static RendezvousStatus ofCode(int code) {
        for (RendezvousStatus status : ALL) {
            if (status.code == code) {
                return status;
            }
        }
        return null;
    }
}
