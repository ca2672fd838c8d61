package dev.panamaverbs.messaging;

/**
 * How a rendezvous is cut into RDMA READs, as pure arithmetic: chunks no larger than the port's
 * {@code max_msg_sz} (nor the channel's configured chunk), and no more READs outstanding than the
 * connection negotiated (this side's {@code initiator_depth} against the peer's
 * {@code responder_resources}).
 */
final class RendezvousLimits {
    private RendezvousLimits() {}

    /**
     * The bytes of one READ.
     *
     * @param configured {@link ChannelOptions#rendezvousChunkSize()}
     * @param portMaxMessage the smallest {@code max_msg_sz} of the device's ports
     * @return the smaller, at least 1
     */
    static int chunkSize(int configured, long portMaxMessage) {
        long size = Math.min(configured, portMaxMessage);
        return (int) Math.max(1, size);
    }

    /** {@return the READs one message of {@code length} bytes takes} */
    static int chunks(long length, int chunkSize) {
        return (int) ((length + chunkSize - 1) / chunkSize);
    }

    /** {@return the bytes of chunk {@code index} (the last may be shorter)} */
    static int chunkLength(long length, int chunkSize, int index) {
        long start = (long) index * chunkSize;
        return (int) Math.min(chunkSize, length - start);
    }

    /**
     * What this side asks for in {@code rdma_conn_param}: {@code initiator_depth} and
     * {@code responder_resources}, each the configured depth within the device's limits.
     *
     * @param configured {@link ChannelOptions#rendezvousReadDepth()}
     * @param deviceInitiator the device's {@code max_qp_init_rd_atom}
     * @param deviceResponder the device's {@code max_qp_rd_atom}
     * @return the depth to ask for, 1..255 (the field's range)
     */
    static int requestedDepth(int configured, int deviceInitiator, int deviceResponder) {
        int depth = Math.min(configured, Math.min(deviceInitiator, deviceResponder));
        return Math.clamp(depth, 1, 255);
    }

    /**
     * The READs this side may have outstanding: what it asked for, within the peer's
     * {@code responder_resources}. The IB CM hands the peer's values over from this side's view,
     * so that bound is the connection event's {@code initiator_depth} (ESTABLISHED on the client,
     * the request on the server); rdma_cm sets the queue pair's {@code max_rd_atomic} to the
     * smaller value.
     *
     * @param requested this side's {@code initiator_depth}
     * @param peerResponder the peer's {@code responder_resources} (the event's {@code initiator_depth})
     * @return at least 1
     */
    static int negotiatedDepth(int requested, int peerResponder) {
        return Math.max(1, Math.min(requested, peerResponder));
    }
}
