package dev.panamaverbs;

import dev.panamaverbs.values.CompletionStatus;


/**
 * A work completion came back with a status other than {@code IBV_WC_SUCCESS}. The verb is
 * {@code ibv_poll_cq} and the errno 0: the failure is the completion's, described by its status
 * ({@code ibv_wc_status_str} wording is left to {@link CompletionStatus}), wr_id and vendor error.
 */
public class CompletionFailedException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /** The completion's {@code ibv_wc_status} value. */
    private final int statusValue;
    /** The failed work request's id. */
    private final long wrId;
    /** The provider's vendor error code. */
    private final int vendorError;
    /** The number of the queue pair the completion belongs to. */
    private final int qpNumber;

    /**
     * A failed completion with C status {@code statusValue} for work request {@code wrId}.
     *
     * @param statusValue the C status value
     * @param wrId the work request id, returned in its completion
     * @param vendorError the vendor error
     * @param qpNumber the queue pair number
     */
    public CompletionFailedException(int statusValue, long wrId, int vendorError, int qpNumber) {
        super("ibv_poll_cq", 0, "work completion failed: status " + statusName(statusValue)
                + " (" + statusValue + "), wr_id=" + wrId + " (0x" + Long.toHexString(wrId) + "), vendor_err=0x"
                + Integer.toHexString(vendorError) + ", qp_num=" + Integer.toUnsignedString(qpNumber), null);
        this.statusValue = statusValue;
        this.wrId = wrId;
        this.vendorError = vendorError;
        this.qpNumber = qpNumber;
    }

    private static String statusName(int value) {
        CompletionStatus status = CompletionStatus.orNull(value);
        return status == null ? "unknown" : status.name();
    }

    /**
     * The status, or {@code null} if this version does not know its C value.
     *
     * @return the status, or {@code null} if this version does not know its C value
     */
    public CompletionStatus status() {
        return CompletionStatus.orNull(statusValue);
    }

    /**
     * The C {@code ibv_wc_status} value.
     *
     * @return the C {@code ibv_wc_status} value
     */
    public int statusValue() {
        return statusValue;
    }

    /**
     * The failed work request's id.
     *
     * @return the failed work request's id
     */
    public long wrId() {
        return wrId;
    }

    /**
     * {@code wc.vendor_err}.
     *
     * @return {@code wc.vendor_err}
     */
    public int vendorError() {
        return vendorError;
    }

    /**
     * {@code wc.qp_num}.
     *
     * @return {@code wc.qp_num}
     */
    public int qpNumber() {
        return qpNumber;
    }
}
