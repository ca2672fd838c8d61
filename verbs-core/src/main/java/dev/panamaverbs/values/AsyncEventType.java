package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/**
 * Asynchronous event type (C {@code enum ibv_event_type}). {@link #describe()} gives libibverbs' own text for a value
 * ({@code ibv_event_type_str}), e.g. "local catastrophic error" for {@link #DEVICE_FATAL}.
 */
public enum AsyncEventType implements DescribedEnum {
    /** {@code IBV_EVENT_CQ_ERR}. */
    CQ_ERR(IBV_EVENT_CQ_ERR),
    /** {@code IBV_EVENT_QP_FATAL}. */
    QP_FATAL(IBV_EVENT_QP_FATAL),
    /** {@code IBV_EVENT_QP_REQ_ERR}. */
    QP_REQ_ERR(IBV_EVENT_QP_REQ_ERR),
    /** {@code IBV_EVENT_QP_ACCESS_ERR}. */
    QP_ACCESS_ERR(IBV_EVENT_QP_ACCESS_ERR),
    /** {@code IBV_EVENT_COMM_EST}. */
    COMM_EST(IBV_EVENT_COMM_EST),
    /** {@code IBV_EVENT_SQ_DRAINED}. */
    SQ_DRAINED(IBV_EVENT_SQ_DRAINED),
    /** {@code IBV_EVENT_PATH_MIG}. */
    PATH_MIG(IBV_EVENT_PATH_MIG),
    /** {@code IBV_EVENT_PATH_MIG_ERR}. */
    PATH_MIG_ERR(IBV_EVENT_PATH_MIG_ERR),
    /** {@code IBV_EVENT_DEVICE_FATAL}. */
    DEVICE_FATAL(IBV_EVENT_DEVICE_FATAL),
    /** {@code IBV_EVENT_PORT_ACTIVE}. */
    PORT_ACTIVE(IBV_EVENT_PORT_ACTIVE),
    /** {@code IBV_EVENT_PORT_ERR}. */
    PORT_ERR(IBV_EVENT_PORT_ERR),
    /** {@code IBV_EVENT_LID_CHANGE}. */
    LID_CHANGE(IBV_EVENT_LID_CHANGE),
    /** {@code IBV_EVENT_PKEY_CHANGE}. */
    PKEY_CHANGE(IBV_EVENT_PKEY_CHANGE),
    /** {@code IBV_EVENT_SM_CHANGE}. */
    SM_CHANGE(IBV_EVENT_SM_CHANGE),
    /** {@code IBV_EVENT_SRQ_ERR}. */
    SRQ_ERR(IBV_EVENT_SRQ_ERR),
    /** {@code IBV_EVENT_SRQ_LIMIT_REACHED}. */
    SRQ_LIMIT_REACHED(IBV_EVENT_SRQ_LIMIT_REACHED),
    /** {@code IBV_EVENT_QP_LAST_WQE_REACHED}. */
    QP_LAST_WQE_REACHED(IBV_EVENT_QP_LAST_WQE_REACHED),
    /** {@code IBV_EVENT_CLIENT_REREGISTER}. */
    CLIENT_REREGISTER(IBV_EVENT_CLIENT_REREGISTER),
    /** {@code IBV_EVENT_GID_CHANGE}. */
    GID_CHANGE(IBV_EVENT_GID_CHANGE),
    /** {@code IBV_EVENT_WQ_FATAL}. */
    WQ_FATAL(IBV_EVENT_WQ_FATAL);

    private static final Table<AsyncEventType> TABLE = new Table<>(AsyncEventType.class, "ibv_event_type");
    private final int value;

    AsyncEventType(int value) {
        this.value = value;
    }

    @Override
    public int value() {
        return value;
    }

    /**
     * The constant for a C value; an unknown value is an {@link IllegalArgumentException}.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value
     */
    public static AsyncEventType of(int value) {
        return TABLE.of(value);
    }

    /**
     * The constant for a C value, or {@code null} when this version does not know it.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value, or {@code null} when this version does not know it
     */
    public static AsyncEventType orNull(int value) {
        return TABLE.orNull(value);
    }
}
