package dev.panamaverbs.jfr;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** {@code dev.panamaverbs.QueuePairError}: a queue pair entered ERROR or SQE, or an async event reported it failed. */
@Name("dev.panamaverbs.QueuePairError")
@Label("Queue Pair Error")
@Description("A queue pair entered ERROR or SQE, or the device reported a queue pair error as an async event"
        + " (QP_FATAL, QP_REQ_ERR, QP_ACCESS_ERR, PATH_MIG_ERR)")
final class QueuePairErrorEvent extends QueuePairFlightEvent {
    @Label("State")
    @Description("The state the queue pair is in now, as far as the library knows")
    String state;

    @Label("Cause")
    @Description("What put it there: ibv_modify_qp, ibv_query_qp, rdma_cm (DISCONNECTED), or the async event's type")
    String cause;
}
