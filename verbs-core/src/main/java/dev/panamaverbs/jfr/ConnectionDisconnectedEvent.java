package dev.panamaverbs.jfr;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** {@code dev.panamaverbs.ConnectionDisconnected}: An rdma_cm connection saw DISCONNECTED (either side disconnected, or the peer was declared dead). */
@Name("dev.panamaverbs.ConnectionDisconnected")
@Label("Connection Disconnected")
@Description("An rdma_cm connection saw DISCONNECTED (either side disconnected, or the peer was declared dead)")
final class ConnectionDisconnectedEvent extends ConnectionFlightEvent {
}
