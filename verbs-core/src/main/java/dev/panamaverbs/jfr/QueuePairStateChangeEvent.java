package dev.panamaverbs.jfr;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** {@code dev.panamaverbs.QueuePairStateChange}: a queue pair's known state changed. */
@Name("dev.panamaverbs.QueuePairStateChange")
@Label("Queue Pair State Change")
@Description("A queue pair's state changed: moved by ibv_modify_qp, seen by ibv_query_qp, or moved by rdma_cm")
final class QueuePairStateChangeEvent extends QueuePairFlightEvent {
    @Label("Queue Pair Type")
    @Description("RC, UC, UD, ...")
    String queuePairType;

    @Label("From")
    @Description("The state before (the last one the library set or read)")
    String from;

    @Label("To")
    @Description("The state after")
    String to;

    @Label("Cause")
    @Description("What changed it: ibv_modify_qp, ibv_query_qp (the device had moved it), or rdma_cm")
    String cause;
}
