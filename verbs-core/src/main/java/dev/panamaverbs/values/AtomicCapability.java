package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/** How far a device guarantees atomic operations (C {@code enum ibv_atomic_cap}). */
public enum AtomicCapability implements NativeEnum {
    /** {@code IBV_ATOMIC_NONE}: no atomic operations. */
    NONE(IBV_ATOMIC_NONE),
    /** {@code IBV_ATOMIC_HCA}: atomic among operations through this device. */
    HCA(IBV_ATOMIC_HCA),
    /** {@code IBV_ATOMIC_GLOB}: atomic also against CPU and other devices. */
    GLOBAL(IBV_ATOMIC_GLOB);

    private static final Table<AtomicCapability> TABLE = new Table<>(AtomicCapability.class, "ibv_atomic_cap");
    private final int value;

    AtomicCapability(int value) {
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
    public static AtomicCapability of(int value) {
        return TABLE.of(value);
    }

    /**
     * The constant for a C value, or {@code null} when this version does not know it.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value, or {@code null} when this version does not know it
     */
    public static AtomicCapability orNull(int value) {
        return TABLE.orNull(value);
    }
}
