package dev.panamaverbs.jfr;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** {@code dev.panamaverbs.ConnectionEstablished}: An rdma_cm connection reached ESTABLISHED. */
@Name("dev.panamaverbs.ConnectionEstablished")
@Label("Connection Established")
@Description("An rdma_cm connection reached ESTABLISHED")
final class ConnectionEstablishedEvent extends ConnectionFlightEvent {
}
