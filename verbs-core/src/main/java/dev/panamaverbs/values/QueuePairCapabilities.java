package dev.panamaverbs.values;


/**
 * The sizes of a queue pair's work queues (C {@code struct ibv_qp_cap}). As create options they
 * are minimums the provider may round up; {@link dev.panamaverbs.QueuePair#capabilities()} and
 * {@link QueuePairAttributes#capabilities()} report what was actually granted.
 *
 * @param maxSendWorkRequests   {@code max_send_wr}: outstanding send work requests
 * @param maxReceiveWorkRequests {@code max_recv_wr}: outstanding receive work requests (0 with an SRQ)
 * @param maxSendSge            {@code max_send_sge}: scatter/gather entries per send work request
 * @param maxReceiveSge         {@code max_recv_sge}: scatter/gather entries per receive work request
 * @param maxInlineData         {@code max_inline_data}: bytes a send may carry with {@link SendFlag#INLINE}
 */
public record QueuePairCapabilities(
        int maxSendWorkRequests, int maxReceiveWorkRequests, int maxSendSge, int maxReceiveSge, int maxInlineData) {

    /** Capabilities must not be negative (the C fields are unsigned 32-bit; Java callers stay below 2^31). */
    public QueuePairCapabilities {
        requireNonNegative("max_send_wr", maxSendWorkRequests);
        requireNonNegative("max_recv_wr", maxReceiveWorkRequests);
        requireNonNegative("max_send_sge", maxSendSge);
        requireNonNegative("max_recv_sge", maxReceiveSge);
        requireNonNegative("max_inline_data", maxInlineData);
    }

    private static void requireNonNegative(String field, int value) {
        if (value < 0) {
            throw new IllegalArgumentException("ibv_create_qp: " + field + " must not be negative, got " + value);
        }
    }
}
