package dev.panamaverbs.cm;

import dev.panamaverbs.values.Errno;
import java.util.Arrays;
import java.util.Optional;

/**
 * A copy of one rdma_cm event (C {@code struct rdma_cm_event}), taken before
 * {@code rdma_ack_cm_event} freed it: its type, status, the peer's private data and connection
 * parameters, and for datagram (UD) identifiers the peer's QPN, Q_Key and address. Immutable.
 *
 * <p>{@link #status()}: for {@link ConnectionEventType#REJECTED} the InfiniBand CM reject reason
 * (8: no listener on that service ID, i.e. port; 28: rejected by the peer application), for the
 * other failures a negative errno ({@code -110}: timed out), else 0.
 */
public final class ConnectionEvent {
    private final ConnectionEventType type;
    private final int rawType;
    private final int status;
    private final byte[] privateData;
    private final int responderResources;
    private final int initiatorDepth;
    private final int remoteQueuePairNumber;
    private final DatagramParameters datagram;
    /** The {@code rdma_cm_id*} the event is for ({@code event->id}), and the listener's for requests. */
    private final long idAddress;
    private final long listenIdAddress;

    ConnectionEvent(int rawType, int status, byte[] privateData, int responderResources, int initiatorDepth,
                    int remoteQueuePairNumber, DatagramParameters datagram, long idAddress, long listenIdAddress) {
        this.type = ConnectionEventType.orNull(rawType);
        this.rawType = rawType;
        this.status = status;
        this.privateData = privateData;
        this.responderResources = responderResources;
        this.initiatorDepth = initiatorDepth;
        this.remoteQueuePairNumber = remoteQueuePairNumber;
        this.datagram = datagram;
        this.idAddress = idAddress;
        this.listenIdAddress = listenIdAddress;
    }

    /**
     * The event type; null only for a value this library does not know ({@link #rawType()}).
     *
     * @return the event type; null only for a value this library does not know ({@link #rawType()}).
     */
    public ConnectionEventType type() {
        return type;
    }

    /**
     * {@code event}, the C value.
     *
     * @return {@code event}, the C value.
     */
    public int rawType() {
        return rawType;
    }

    /**
     * {@code status}: 0, a negative errno, or for REJECTED the CM's reject reason.
     *
     * @return {@code status}: 0, a negative errno, or for REJECTED the CM's reject reason.
     */
    public int status() {
        return status;
    }

    /**
     * The private data the peer sent (a copy; the CM may have padded it with zeros).
     *
     * @return the private data the peer sent (a copy; the CM may have padded it with zeros).
     */
    public byte[] privateData() {
        return privateData.clone();
    }

    /**
     * The first {@code length} bytes of the private data (fewer if fewer arrived).
     *
     * @param length the most bytes wanted
     * @return the first {@code length} bytes of the private data (fewer if fewer arrived).
     */
    public byte[] privateData(int length) {
        return Arrays.copyOf(privateData, Math.min(length, privateData.length));
    }

    /**
     * {@code param.conn.responder_resources} (connected spaces).
     *
     * @return {@code param.conn.responder_resources} (connected spaces).
     */
    public int responderResources() {
        return responderResources;
    }

    /**
     * {@code param.conn.initiator_depth} (connected spaces).
     *
     * @return {@code param.conn.initiator_depth} (connected spaces).
     */
    public int initiatorDepth() {
        return initiatorDepth;
    }

    /**
     * {@code param.conn.qp_num}: the peer's QP number where the event carries it, else 0.
     *
     * @return {@code param.conn.qp_num}: the peer's QP number where the event carries it, else 0.
     */
    public int remoteQueuePairNumber() {
        return remoteQueuePairNumber;
    }

    /**
     * {@code param.ud}: for datagram identifiers, the peer's QPN, Q_Key and address.
     *
     * @return {@code param.ud}: for datagram identifiers, the peer's QPN, Q_Key and address.
     */
    public Optional<DatagramParameters> datagram() {
        return Optional.ofNullable(datagram);
    }

    /**
     * The status described: errno text for negative ones, the CM reject reason for REJECTED.
     *
     * @return the status described: errno text for negative ones, the CM reject reason for REJECTED.
     */
    public String statusDescription() {
        return describeStatus(type, status);
    }

    long idAddress() {
        return idAddress;
    }

    /** The address events are dispatched by: the listener for requests, else the identifier. */
    long ownerAddress() {
        return type == ConnectionEventType.CONNECT_REQUEST ? listenIdAddress : idAddress;
    }

    static String describeStatus(ConnectionEventType type, int status) {
        if (type == ConnectionEventType.REJECTED && status >= 0) { // iWARP's rejects carry a negative errno instead
            return "status " + status + " (" + switch (status) {
                case 8 -> "IB_CM_REJ_INVALID_SERVICE_ID: nothing listens on that port";
                case 28 -> "IB_CM_REJ_CONSUMER_DEFINED: rejected by the peer";
                case 1 -> "IB_CM_REJ_NO_QP: the peer has no QP";
                case 26 -> "IB_CM_REJ_TIMEOUT: the peer did not answer in time";
                default -> "IB CM reject reason";
            } + ")";
        }
        if (type == ConnectionEventType.UNREACHABLE && status > 0) { // a SIDR reply's status (UDP/IPoIB port spaces)
            return "status " + status + " (" + switch (status) {
                case 1 -> "IB_SIDR_UNSUPPORTED: nothing listens on that port";
                case 2 -> "IB_SIDR_REJECT: rejected by the peer";
                case 3 -> "IB_SIDR_NO_QP: the peer has no QP";
                default -> "IB SIDR reply status";
            } + ")";
        }
        return status < 0 ? "status " + status + " (" + Errno.describe(-status) + ")" : "status " + status;
    }

    @Override
    public String toString() {
        return "ConnectionEvent[" + (type != null ? type : "event " + rawType) + ", " + describeStatus(type, status)
                + ", privateData=" + privateData.length + " bytes"
                + (datagram != null ? ", " + datagram : "") + "]";
    }
}
