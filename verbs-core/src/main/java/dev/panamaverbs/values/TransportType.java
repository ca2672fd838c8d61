package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/** Device transport type (C {@code enum ibv_transport_type}). */
public enum TransportType implements NativeEnum {
    /** {@code IBV_TRANSPORT_UNKNOWN}. */
    UNKNOWN(IBV_TRANSPORT_UNKNOWN),
    /** {@code IBV_TRANSPORT_IB}. */
    IB(IBV_TRANSPORT_IB),
    /** {@code IBV_TRANSPORT_IWARP}. */
    IWARP(IBV_TRANSPORT_IWARP),
    /** {@code IBV_TRANSPORT_USNIC}. */
    USNIC(IBV_TRANSPORT_USNIC),
    /** {@code IBV_TRANSPORT_USNIC_UDP}. */
    USNIC_UDP(IBV_TRANSPORT_USNIC_UDP),
    /** {@code IBV_TRANSPORT_UNSPECIFIED}. */
    UNSPECIFIED(IBV_TRANSPORT_UNSPECIFIED);

    private static final Table<TransportType> TABLE = new Table<>(TransportType.class, "ibv_transport_type");
    private final int value;

    TransportType(int value) {
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
    public static TransportType of(int value) {
        return TABLE.of(value);
    }

    /**
     * The constant for a C value, or {@code null} when this version does not know it.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value, or {@code null} when this version does not know it
     */
    public static TransportType orNull(int value) {
        return TABLE.orNull(value);
    }
}
