package dev.panamaverbs.values;

import dev.panamaverbs.internal.Ranges;

/**
 * The send-side attributes {@link dev.panamaverbs.QueuePair#toRts(ReadyToSendOptions)} writes. UC and UD use only
 * {@code sqPsn}; RC uses all of them.
 *
 * @param sqPsn         {@code sq_psn}: the first packet sequence number this side sends (24 bits);
 *                      must equal the {@code rq_psn} the peer's RTR transition was given
 * @param timeout       {@code timeout}: local ACK timeout, 4.096 us * 2^timeout (0..31, 0 = infinite)
 * @param retryCount    {@code retry_cnt}: retries on ACK timeout (0..7). A request to a peer that no
 *                      longer answers fails with {@code RETRY_EXC_ERR} after about
 *                      {@code (retryCount + 1) * 4.096 us * 2^timeout}: 469 ms with the defaults
 *                      (timeout 14, 6 retries). <b>7 means "retry for ever" on SoftRoCE (rxe)</b>: a
 *                      dead peer is then never noticed, and {@link dev.panamaverbs.QueuePair#toRts} logs a warning
 *                      when it is asked for on rxe
 * @param rnrRetry      {@code rnr_retry}: retries on receiver-not-ready (0..7, 7 = forever)
 * @param maxReadAtomic {@code max_rd_atomic}: RDMA READ/atomic operations in flight as initiator,
 *                      or {@link #FROM_DEVICE} for the device's {@code max_qp_init_rd_atom} (at least 1)
 */
public record ReadyToSendOptions(int sqPsn, int timeout, int retryCount, int rnrRetry, int maxReadAtomic) {
    /** The default {@code retry_cnt}: bounded on every provider (7 retries for ever on rxe). */
    public static final int DEFAULT_RETRY_COUNT = 6;
    /** The default local ACK timeout exponent: 4.096 us * 2^14, about 67 ms. */
    public static final int DEFAULT_TIMEOUT = 14;
    /** SoftRoCE's {@code vendor_id} (rdma_rxe's RXE_VENDOR_ID). */
    public static final long RXE_VENDOR_ID = 0xFFFFFF;

    /** {@code maxReadAtomic} value meaning "the device's maximum". */
    public static final int FROM_DEVICE = -1;

    /** Checks each field against its width in the verbs. */
    public ReadyToSendOptions {
        Ranges.require("ibv_modify_qp", "sq_psn", sqPsn, 0, 0xFF_FFFF);
        Ranges.require("ibv_modify_qp", "timeout", timeout, 0, 31);
        Ranges.require("ibv_modify_qp", "retry_cnt", retryCount, 0, 7);
        Ranges.require("ibv_modify_qp", "rnr_retry", rnrRetry, 0, 7);
        Ranges.require("ibv_modify_qp", "max_rd_atomic", maxReadAtomic, FROM_DEVICE, 255);
    }

    /**
     * PSN 0, timeout 14 (about 67 ms), 6 retries (a dead peer fails a request after about
     * 469 ms), RNR retry forever, device's read/atomic depth.
     *
     * @return this ready to send options
     */
    public static ReadyToSendOptions defaults() {
        return withPsn(0);
    }

    /**
     * The defaults with {@code sq_psn = sqPsn}.
     *
     * @param sqPsn the send queue's initial packet sequence number
     * @return the defaults with {@code sq_psn = sqPsn}
     */
    public static ReadyToSendOptions withPsn(int sqPsn) {
        return new ReadyToSendOptions(sqPsn, DEFAULT_TIMEOUT, DEFAULT_RETRY_COUNT, 7, FROM_DEVICE);
    }

    /**
     * These options with another ACK timeout.
     *
     * @param timeout how long to wait at most
     * @return this ready to send options
     */
    public ReadyToSendOptions withTimeout(int timeout) {
        return new ReadyToSendOptions(sqPsn, timeout, retryCount, rnrRetry, maxReadAtomic);
    }

    /**
     * These options with another retry count.
     *
     * @param retryCount the retry count
     * @return this ready to send options
     */
    public ReadyToSendOptions withRetryCount(int retryCount) {
        return new ReadyToSendOptions(sqPsn, timeout, retryCount, rnrRetry, maxReadAtomic);
    }

    /**
     * These options with another RNR retry count.
     *
     * @param rnrRetry the RNR retry count
     * @return this ready to send options
     */
    public ReadyToSendOptions withRnrRetry(int rnrRetry) {
        return new ReadyToSendOptions(sqPsn, timeout, retryCount, rnrRetry, maxReadAtomic);
    }

    /**
     * These options with another initiator read/atomic depth.
     *
     * @param maxReadAtomic the maximum number of outstanding RDMA READ and atomic operations
     * @return this ready to send options
     */
    public ReadyToSendOptions withMaxReadAtomic(int maxReadAtomic) {
        return new ReadyToSendOptions(sqPsn, timeout, retryCount, rnrRetry, maxReadAtomic);
    }


    /**
     * Whether these options never let a request to a dead peer fail on a device of
     * {@code vendorId}: retry count 7 on SoftRoCE retries for ever.
     *
     * @param vendorId the device's {@code vendor_id} ({@link DeviceAttributes#vendorId()})
     * @return true when a request to a dead peer would never fail
     */
    public boolean retriesForEverOn(long vendorId) {
        return retryCount == 7 && vendorId == RXE_VENDOR_ID;
    }
}
