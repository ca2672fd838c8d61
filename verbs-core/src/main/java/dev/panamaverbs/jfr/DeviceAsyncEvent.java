package dev.panamaverbs.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** {@code dev.panamaverbs.AsyncEvent}: one asynchronous event read with {@code ibv_get_async_event}. */
@Name("dev.panamaverbs.AsyncEvent")
@Label("Async Event")
@Description("An asynchronous event of a device context (ibv_get_async_event): port up or down, QP and CQ errors,"
        + " SRQ limit, device fatal, ...")
@Category({"panama-verbs", "Devices"})
@StackTrace(false)
final class DeviceAsyncEvent extends Event {
    @Label("Device")
    @Description("The RDMA device the event came from, e.g. rxe0")
    String device;

    @Label("Event Type")
    @Description("enum ibv_event_type as its Java name, e.g. QP_FATAL, PORT_ACTIVE; the number when unknown")
    String eventType;

    @Label("Element")
    @Description("What the event is about: PORT, QUEUE_PAIR, WORK_QUEUE, COMPLETION_QUEUE, SHARED_RECEIVE_QUEUE or DEVICE")
    String element;

    @Label("Number")
    @Description("The port number, QP number or WQ number the event names; 0 for the other elements")
    int number;
}
