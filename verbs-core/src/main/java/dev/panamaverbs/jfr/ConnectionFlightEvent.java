package dev.panamaverbs.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.StackTrace;

/** The fields the three rdma_cm connection events share: which device, which queue pair, which peer. */
@Category({"panama-verbs", "Connections"})
@StackTrace(false)
abstract class ConnectionFlightEvent extends Event {
    @Label("Device")
    @Description("The RDMA device of the connection (rdma_cm_id.verbs), e.g. rxe0; empty when none is chosen yet")
    String device;

    @Label("Queue Pair Number")
    @Description("The local queue pair number (ibv_qp.qp_num); 0 when the identifier has no queue pair")
    int queuePairNumber;

    @Label("Local Address")
    @Description("The local IP address and port of the rdma_cm identifier")
    String localAddress;

    @Label("Peer Address")
    @Description("The peer's IP address and port")
    String peerAddress;

    @Label("Status")
    @Description("rdma_cm_event.status: 0, a negative errno, or for a reject the InfiniBand CM reject reason")
    int status;

    @Label("Status Text")
    @Description("The status described in words")
    String statusText;
}
