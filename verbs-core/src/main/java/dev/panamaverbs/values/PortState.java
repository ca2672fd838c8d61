package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/**
 * Logical port state (C {@code enum ibv_port_state}). {@link #describe()} gives libibverbs' own text for a value
 * ({@code ibv_port_state_str}), e.g. "active" for {@link #ACTIVE}.
 */
public enum PortState implements DescribedEnum {
    /** {@code IBV_PORT_NOP}. */
    NOP(IBV_PORT_NOP),
    /** {@code IBV_PORT_DOWN}. */
    DOWN(IBV_PORT_DOWN),
    /** {@code IBV_PORT_INIT}. */
    INIT(IBV_PORT_INIT),
    /** {@code IBV_PORT_ARMED}. */
    ARMED(IBV_PORT_ARMED),
    /** {@code IBV_PORT_ACTIVE}. */
    ACTIVE(IBV_PORT_ACTIVE),
    /** {@code IBV_PORT_ACTIVE_DEFER}. */
    ACTIVE_DEFER(IBV_PORT_ACTIVE_DEFER);

    private static final Table<PortState> TABLE = new Table<>(PortState.class, "ibv_port_state");
    private final int value;

    PortState(int value) {
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
    public static PortState of(int value) {
        return TABLE.of(value);
    }

    /**
     * The constant for a C value, or {@code null} when this version does not know it.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value, or {@code null} when this version does not know it
     */
    public static PortState orNull(int value) {
        return TABLE.orNull(value);
    }
}
