package dev.panamaverbs;

import dev.panamaverbs.jfr.FlightEvents;
import dev.panamaverbs.values.AsyncEventType;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * An asynchronous event of a device (C {@code struct ibv_async_event}), copied out of the native
 * event and already acknowledged ({@code ibv_ack_async_event}) when the caller sees it, so that
 * destroying the affected object never waits on it.
 *
 * <p>The element the event is about depends on its type ({@link #element()}): a QP (with its
 * number), a CQ, an SRQ, a WQ (with its number), a port (with its number), or the whole device.
 * When the element is a resource created through this API and still open, {@link #resource()}
 * returns that Java object.
 */
public final class AsyncEvent {
    /** What an event is about, by event type (the member of {@code ibv_async_event.element} that is set). */
    public enum Element {
        /** {@code element.qp}: QP_FATAL, QP_REQ_ERR, QP_ACCESS_ERR, COMM_EST, SQ_DRAINED, PATH_MIG, PATH_MIG_ERR, QP_LAST_WQE_REACHED. */
        QUEUE_PAIR,
        /** {@code element.cq}: CQ_ERR. */
        COMPLETION_QUEUE,
        /** {@code element.srq}: SRQ_ERR, SRQ_LIMIT_REACHED. */
        SHARED_RECEIVE_QUEUE,
        /** {@code element.wq}: WQ_FATAL. */
        WORK_QUEUE,
        /** {@code element.port_num}: PORT_ACTIVE, PORT_ERR, LID_CHANGE, PKEY_CHANGE, SM_CHANGE, CLIENT_REREGISTER, GID_CHANGE. */
        PORT,
        /** Nothing in {@code element}: DEVICE_FATAL, and types this version does not know. */
        DEVICE
    }

    private final Context context;
    private final int typeValue;
    private final AsyncEventType type;
    private final Element element;
    private final int number;
    private final VerbsResource resource;

    AsyncEvent(Context context, int typeValue, int number, VerbsResource resource) {
        this.context = Objects.requireNonNull(context, "context");
        this.typeValue = typeValue;
        this.type = AsyncEventType.orNull(typeValue);
        this.element = elementOf(typeValue);
        this.number = number;
        this.resource = resource;
    }

    /** The element kind of the C event type {@code typeValue} (C value of {@code enum ibv_event_type}). */
    static Element elementOf(int typeValue) {
        AsyncEventType type = AsyncEventType.orNull(typeValue);
        if (type == null) {
            return Element.DEVICE;
        }
        return switch (type) {
            case QP_FATAL, QP_REQ_ERR, QP_ACCESS_ERR, COMM_EST, SQ_DRAINED, PATH_MIG, PATH_MIG_ERR,
                 QP_LAST_WQE_REACHED -> Element.QUEUE_PAIR;
            case CQ_ERR -> Element.COMPLETION_QUEUE;
            case SRQ_ERR, SRQ_LIMIT_REACHED -> Element.SHARED_RECEIVE_QUEUE;
            case WQ_FATAL -> Element.WORK_QUEUE;
            case PORT_ACTIVE, PORT_ERR, LID_CHANGE, PKEY_CHANGE, SM_CHANGE, CLIENT_REREGISTER,
                 GID_CHANGE -> Element.PORT;
            case DEVICE_FATAL -> Element.DEVICE;
        };
    }

    /**
     * Records one event read from device {@code device} as a {@code dev.panamaverbs.AsyncEvent}
     * JFR event, and a QP error event ({@code dev.panamaverbs.QueuePairError}) as well for
     * QP_FATAL, QP_REQ_ERR, QP_ACCESS_ERR and PATH_MIG_ERR. Nothing is allocated when no recording
     * has the types enabled.
     */
    void record() {
        record(context.device().name(), typeValue, number);
    }

    /** {@link #record()} from plain values, for tests that have no device. */
    static void record(String device, int typeValue, int number) {
        AsyncEventType type = AsyncEventType.orNull(typeValue);
        String typeName = type != null ? type.name() : Integer.toString(typeValue);
        FlightEvents.asyncEvent(device, typeName, elementOf(typeValue).name(), number);
        if (type == AsyncEventType.QP_FATAL || type == AsyncEventType.QP_REQ_ERR
                || type == AsyncEventType.QP_ACCESS_ERR || type == AsyncEventType.PATH_MIG_ERR) {
            // QP_FATAL and the other two leave the queue pair in ERROR (IB spec 11.6.3); PATH_MIG_ERR does not.
            FlightEvents.queuePairError(device, number, type == AsyncEventType.PATH_MIG_ERR ? "UNKNOWN" : "ERROR",
                    typeName);
        }
    }

    /**
     * The context (device) that reported the event.
     *
     * @return the context (device) that reported the event
     */
    public Context context() {
        return context;
    }

    /**
     * The event type, or {@code null} for a C value this version does not know (see {@link #typeValue()}).
     *
     * @return the event type, or {@code null} for a C value this version does not know (see {@link #typeValue()})
     */
    public AsyncEventType type() {
        return type;
    }

    /**
     * The C value of {@code event_type}.
     *
     * @return the C value of {@code event_type}
     */
    public int typeValue() {
        return typeValue;
    }

    /**
     * What the event is about.
     *
     * @return what the event is about
     */
    public Element element() {
        return element;
    }

    /**
     * The port number, for {@link Element#PORT} events.
     *
     * @return the port number, for {@link Element#PORT} events
     */
    public OptionalInt portNumber() {
        return element == Element.PORT ? OptionalInt.of(number) : OptionalInt.empty();
    }

    /**
     * The QP number ({@code ibv_qp.qp_num}), for {@link Element#QUEUE_PAIR} events.
     *
     * @return the QP number ({@code ibv_qp.qp_num}), for {@link Element#QUEUE_PAIR} events
     */
    public OptionalInt queuePairNumber() {
        return element == Element.QUEUE_PAIR ? OptionalInt.of(number) : OptionalInt.empty();
    }

    /**
     * The WQ number ({@code ibv_wq.wq_num}), for {@link Element#WORK_QUEUE} events.
     *
     * @return the WQ number ({@code ibv_wq.wq_num}), for {@link Element#WORK_QUEUE} events
     */
    public OptionalInt workQueueNumber() {
        return element == Element.WORK_QUEUE ? OptionalInt.of(number) : OptionalInt.empty();
    }

    /**
     * The Java object the event is about (a {@code QueuePair}, {@code CompletionQueue} or
     * {@code SharedReceiveQueue}), when it was created through this API and was still open when
     * the event was read.
     *
     * @return the Java object the event is about (a {@code QueuePair}, {@code CompletionQueue} or {@code SharedReceiveQueue}), when it was created through this API and was still open when the event was read
     */
    public Optional<VerbsResource> resource() {
        return Optional.ofNullable(resource);
    }

    /**
     * {@link #resource()} when it is of {@code type}, e.g. {@code event.resource(QueuePair.class)}.
     *
     * @param <T> the resource type
     * @param type the resource class wanted, e.g. {@code QueuePair.class}
     * @return the resource, or empty when it is not a {@code type}
     */
    public <T extends VerbsResource> Optional<T> resource(Class<T> type) {
        return type.isInstance(resource) ? Optional.of(type.cast(resource)) : Optional.empty();
    }

    /** e.g. {@code AsyncEvent[QP_FATAL, qpn=17, QueuePair[qpn=17] on rxe0]}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("AsyncEvent[")
                .append(type != null ? type.name() : "event_type " + typeValue);
        switch (element) {
            case PORT -> text.append(", port=").append(number);
            case QUEUE_PAIR -> text.append(", qpn=").append(number);
            case WORK_QUEUE -> text.append(", wqn=").append(number);
            default -> { }
        }
        if (resource != null) {
            text.append(", ").append(resource);
        }
        return text.append(" on ").append(context.device().name()).append(']').toString();
    }
}
