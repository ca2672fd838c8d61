package dev.panamaverbs.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.StackTrace;

/** The fields the queue pair events share: which device, which queue pair. */
@Category({"panama-verbs", "Queue Pairs"})
@StackTrace(false)
abstract class QueuePairFlightEvent extends Event {
    @Label("Device")
    @Description("The RDMA device of the queue pair, e.g. rxe0")
    String device;

    @Label("Queue Pair Number")
    @Description("ibv_qp.qp_num")
    int queuePairNumber;
}
