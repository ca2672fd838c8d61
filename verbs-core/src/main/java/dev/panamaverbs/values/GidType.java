package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/** GID type: InfiniBand, RoCE v1 or RoCE v2 (C {@code enum ibv_gid_type}). */
public enum GidType implements NativeEnum {
    /** {@code IBV_GID_TYPE_IB}. */
    IB(IBV_GID_TYPE_IB),
    /** {@code IBV_GID_TYPE_ROCE_V1}. */
    ROCE_V1(IBV_GID_TYPE_ROCE_V1),
    /** {@code IBV_GID_TYPE_ROCE_V2}. */
    ROCE_V2(IBV_GID_TYPE_ROCE_V2);

    private static final Table<GidType> TABLE = new Table<>(GidType.class, "ibv_gid_type");
    private final int value;

    GidType(int value) {
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
    public static GidType of(int value) {
        return TABLE.of(value);
    }

    /**
     * The constant for a C value, or {@code null} when this version does not know it.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value, or {@code null} when this version does not know it
     */
    public static GidType orNull(int value) {
        return TABLE.orNull(value);
    }
}
