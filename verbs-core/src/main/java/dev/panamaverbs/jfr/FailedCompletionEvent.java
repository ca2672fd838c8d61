package dev.panamaverbs.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** {@code dev.panamaverbs.FailedCompletion}: a completion polled with a status other than SUCCESS. */
@Name("dev.panamaverbs.FailedCompletion")
@Label("Failed Completion")
@Description("A work completion polled with a status other than IBV_WC_SUCCESS (flushes after an error included)")
@Category({"panama-verbs", "Completions"})
@StackTrace(false)
final class FailedCompletionEvent extends Event {
    @Label("Device")
    @Description("The RDMA device of the completion queue, e.g. rxe0")
    String device;

    @Label("Queue Pair Number")
    @Description("wc.qp_num: the local queue pair the work request belonged to")
    int queuePairNumber;

    @Label("Work Request Id")
    @Description("wc.wr_id: the id the poster chose")
    long workRequestId;

    @Label("Status")
    @Description("wc.status as its Java name, e.g. RNR_RETRY_EXC_ERR, REM_ACCESS_ERR, WR_FLUSH_ERR")
    String status;

    @Label("Status Value")
    @Description("wc.status as its C value")
    int statusValue;

    @Label("Vendor Error")
    @Description("wc.vendor_err: the provider's own error code")
    int vendorError;
}
