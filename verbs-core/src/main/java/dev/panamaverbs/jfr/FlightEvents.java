package dev.panamaverbs.jfr;

import jdk.jfr.Event;
import jdk.jfr.EventType;

/**
 * The one way the library commits its JFR events. Each method first asks the event's
 * {@link EventType#isEnabled()} (a field read: no allocation, no native call) and makes the event
 * object only when a recording has the type enabled, so with recording off nothing is allocated,
 * not even under {@code -Xint} where escape analysis cannot remove a {@code new}.
 *
 * <p>The types are looked up in a holder class on the first call, so a program that never has a
 * failed completion, a connection or a state change never initialises JFR's metadata at all.
 * Callers pass plain values (names, numbers), keeping this package free of the resource classes.
 */
public final class FlightEvents {
    /** The poller records one dispatch in this many (a power of two): the event is a sample, not a log. */
    public static final int DISPATCH_SAMPLE_INTERVAL = PollerDispatchEvent.SAMPLE_INTERVAL;

    /** Counts dispatches for the sampling; the poller thread(s) race on it harmlessly (a sample more or less). */
    private static int dispatches;

    private FlightEvents() {}

    /** The event types, registered with JFR on first use. */
    private static final class Types {
        static final EventType ESTABLISHED = EventType.getEventType(ConnectionEstablishedEvent.class);
        static final EventType REJECTED = EventType.getEventType(ConnectionRejectedEvent.class);
        static final EventType DISCONNECTED = EventType.getEventType(ConnectionDisconnectedEvent.class);
        static final EventType STATE_CHANGE = EventType.getEventType(QueuePairStateChangeEvent.class);
        static final EventType QP_ERROR = EventType.getEventType(QueuePairErrorEvent.class);
        static final EventType ASYNC = EventType.getEventType(DeviceAsyncEvent.class);
        static final EventType FAILED_COMPLETION = EventType.getEventType(FailedCompletionEvent.class);
        static final EventType DISPATCH = EventType.getEventType(PollerDispatchEvent.class);
    }

    /** Which rdma_cm connection event {@link #connection} records. */
    public enum ConnectionOutcome { ESTABLISHED, REJECTED, DISCONNECTED }

    /**
     * Records an rdma_cm ESTABLISHED, REJECTED or DISCONNECTED of one identifier.
     *
     * @param outcome which of the three
     * @param device the device name, or empty
     * @param queuePairNumber the local QP number, or 0
     * @param localAddress the local address and port, formatted
     * @param peerAddress the peer's address and port, formatted
     * @param status {@code rdma_cm_event.status}
     * @param statusText the status described
     */
    public static void connection(ConnectionOutcome outcome, String device, int queuePairNumber, String localAddress,
                                  String peerAddress, int status, String statusText) {
        EventType type = switch (outcome) {
            case ESTABLISHED -> Types.ESTABLISHED;
            case REJECTED -> Types.REJECTED;
            case DISCONNECTED -> Types.DISCONNECTED;
        };
        if (!type.isEnabled()) {
            return;
        }
        ConnectionFlightEvent event = switch (outcome) {
            case ESTABLISHED -> new ConnectionEstablishedEvent();
            case REJECTED -> new ConnectionRejectedEvent();
            case DISCONNECTED -> new ConnectionDisconnectedEvent();
        };
        event.device = device;
        event.queuePairNumber = queuePairNumber;
        event.localAddress = localAddress;
        event.peerAddress = peerAddress;
        event.status = status;
        event.statusText = statusText;
        commit(event);
    }

    /**
     * Records a queue pair's known state changing from {@code from} to {@code to}, and a
     * {@code QueuePairError} as well when {@code to} is ERROR or SQE.
     *
     * @param device the device name
     * @param queuePairNumber the QP number
     * @param queuePairType the QP type's name
     * @param from the state before
     * @param to the state after
     * @param cause ibv_modify_qp, ibv_query_qp or rdma_cm
     */
    public static void queuePairStateChange(String device, int queuePairNumber, String queuePairType, String from,
                                            String to, String cause) {
        if (Types.STATE_CHANGE.isEnabled()) {
            QueuePairStateChangeEvent event = new QueuePairStateChangeEvent();
            event.device = device;
            event.queuePairNumber = queuePairNumber;
            event.queuePairType = queuePairType;
            event.from = from;
            event.to = to;
            event.cause = cause;
            commit(event);
        }
        if (to.equals("ERROR") || to.equals("SQE")) {
            queuePairError(device, queuePairNumber, to, cause);
        }
    }

    /**
     * Records a queue pair error: ERROR or SQE entered, or an async QP error event.
     *
     * @param device the device name
     * @param queuePairNumber the QP number
     * @param state the state now, as far as known
     * @param cause what put it there
     */
    public static void queuePairError(String device, int queuePairNumber, String state, String cause) {
        if (!Types.QP_ERROR.isEnabled()) {
            return;
        }
        QueuePairErrorEvent event = new QueuePairErrorEvent();
        event.device = device;
        event.queuePairNumber = queuePairNumber;
        event.state = state;
        event.cause = cause;
        commit(event);
    }

    /**
     * Records one asynchronous event.
     *
     * @param device the device name
     * @param eventType the event type's name
     * @param element what the event is about
     * @param number the port, QP or WQ number, or 0
     */
    public static void asyncEvent(String device, String eventType, String element, int number) {
        if (!Types.ASYNC.isEnabled()) {
            return;
        }
        DeviceAsyncEvent event = new DeviceAsyncEvent();
        event.device = device;
        event.eventType = eventType;
        event.element = element;
        event.number = number;
        commit(event);
    }

    /**
     * Whether a recording has {@code dev.panamaverbs.FailedCompletion} enabled: the poll path asks
     * once per batch, so with recording off it reads no completion's status at all.
     *
     * @return whether failed completions are being recorded
     */
    public static boolean recordsFailedCompletions() {
        return Types.FAILED_COMPLETION.isEnabled();
    }

    /**
     * Records one failed completion. Called only for a status other than SUCCESS; allocates only
     * when a recording has the type enabled.
     *
     * @param device the device name
     * @param queuePairNumber {@code wc.qp_num}
     * @param workRequestId {@code wc.wr_id}
     * @param status the status's Java name
     * @param statusValue {@code wc.status}
     * @param vendorError {@code wc.vendor_err}
     */
    public static void failedCompletion(String device, int queuePairNumber, long workRequestId, String status,
                                        int statusValue, int vendorError) {
        if (!Types.FAILED_COMPLETION.isEnabled()) {
            return;
        }
        FailedCompletionEvent event = new FailedCompletionEvent();
        event.device = device;
        event.queuePairNumber = queuePairNumber;
        event.workRequestId = workRequestId;
        event.status = status;
        event.statusValue = statusValue;
        event.vendorError = vendorError;
        commit(event);
    }

    /**
     * True for one dispatch in {@link #DISPATCH_SAMPLE_INTERVAL} while a recording has
     * {@code dev.panamaverbs.PollerDispatch} enabled: the poller measures and calls
     * {@link #pollerDispatch} only then, so unsampled dispatches read no clock.
     *
     * @return whether to measure and record this dispatch
     */
    public static boolean sampleDispatch() {
        if (!Types.DISPATCH.isEnabled()) {
            return false;
        }
        return (++dispatches & (DISPATCH_SAMPLE_INTERVAL - 1)) == 0;
    }

    /**
     * Records one sampled dispatch of the poller.
     *
     * @param source the kind of source (completion channel, rdma_cm channel, async events)
     * @param fd the source's file descriptor
     * @param latencyNanos from the readiness seen to the dispatch done
     * @param woken how many waiters or handlers it woke or ran
     */
    public static void pollerDispatch(String source, int fd, long latencyNanos, int woken) {
        if (!Types.DISPATCH.isEnabled()) {
            return;
        }
        PollerDispatchEvent event = new PollerDispatchEvent();
        event.source = source;
        event.fd = fd;
        event.latency = latencyNanos;
        event.woken = woken;
        commit(event);
    }

    /** Commits unless the recording's threshold or filter says no ({@link Event#shouldCommit()}). */
    private static void commit(Event event) {
        if (event.shouldCommit()) {
            event.commit();
        }
    }
}
