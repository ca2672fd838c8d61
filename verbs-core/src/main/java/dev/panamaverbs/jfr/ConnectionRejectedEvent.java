package dev.panamaverbs.jfr;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** {@code dev.panamaverbs.ConnectionRejected}: An rdma_cm connection attempt was answered with REJECTED; status is the CM reject reason. */
@Name("dev.panamaverbs.ConnectionRejected")
@Label("Connection Rejected")
@Description("An rdma_cm connection attempt was answered with REJECTED; status is the CM reject reason")
final class ConnectionRejectedEvent extends ConnectionFlightEvent {
}
