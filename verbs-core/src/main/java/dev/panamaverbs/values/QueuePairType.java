package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/** Queue pair transport type (C {@code enum ibv_qp_type}). */
public enum QueuePairType implements NativeEnum {
    /** {@code IBV_QPT_RC}. */
    RC(IBV_QPT_RC),
    /** {@code IBV_QPT_UC}. */
    UC(IBV_QPT_UC),
    /** {@code IBV_QPT_UD}. */
    UD(IBV_QPT_UD),
    /** {@code IBV_QPT_RAW_PACKET}. */
    RAW_PACKET(IBV_QPT_RAW_PACKET),
    /** {@code IBV_QPT_XRC_SEND}. */
    XRC_SEND(IBV_QPT_XRC_SEND),
    /** {@code IBV_QPT_XRC_RECV}. */
    XRC_RECV(IBV_QPT_XRC_RECV),
    /** {@code IBV_QPT_DRIVER}. */
    DRIVER(IBV_QPT_DRIVER);

    private static final Table<QueuePairType> TABLE = new Table<>(QueuePairType.class, "ibv_qp_type");
    private final int value;

    QueuePairType(int value) {
        this.value = value;
    }

    @Override
    public int value() {
        return value;
    }

    /**
     * Whether a device's {@code supported_qpts} mask (e.g.
     * {@link ExtendedDeviceAttributes.TcpSegmentationOffload#supportedQpTypes()}) holds this type:
     * {@code ibv_is_qpt_supported(caps, qpt)} ({@code static inline} in verbs.h, computed here as
     * it does: bit {@code value()} of the mask).
     *
     * @param supportedQpTypes a {@code supported_qpts} mask, one bit per {@code enum ibv_qp_type}
     * @return true if the mask has this type's bit
     */
    public boolean isSupportedIn(int supportedQpTypes) {
        return value < Integer.SIZE && (supportedQpTypes & (1 << value)) != 0;
    }

    /**
     * The constant for a C value; an unknown value is an {@link IllegalArgumentException}.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value
     */
    public static QueuePairType of(int value) {
        return TABLE.of(value);
    }

    /**
     * The constant for a C value, or {@code null} when this version does not know it.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value, or {@code null} when this version does not know it
     */
    public static QueuePairType orNull(int value) {
        return TABLE.orNull(value);
    }
}
