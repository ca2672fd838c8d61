package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/** Memory window type (C {@code enum ibv_mw_type}). */
public enum MemoryWindowType implements NativeEnum {
    /** {@code IBV_MW_TYPE_1}. */
    TYPE_1(IBV_MW_TYPE_1),
    /** {@code IBV_MW_TYPE_2}. */
    TYPE_2(IBV_MW_TYPE_2);

    private static final Table<MemoryWindowType> TABLE = new Table<>(MemoryWindowType.class, "ibv_mw_type");
    private final int value;

    MemoryWindowType(int value) {
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
    public static MemoryWindowType of(int value) {
        return TABLE.of(value);
    }

    /**
     * The constant for a C value, or {@code null} when this version does not know it.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value, or {@code null} when this version does not know it
     */
    public static MemoryWindowType orNull(int value) {
        return TABLE.orNull(value);
    }
}
