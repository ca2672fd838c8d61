package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/** Path MTU (C {@code enum ibv_mtu}). */
public enum Mtu implements NativeEnum {
    /** {@code IBV_MTU_256}. */
    MTU_256(IBV_MTU_256),
    /** {@code IBV_MTU_512}. */
    MTU_512(IBV_MTU_512),
    /** {@code IBV_MTU_1024}. */
    MTU_1024(IBV_MTU_1024),
    /** {@code IBV_MTU_2048}. */
    MTU_2048(IBV_MTU_2048),
    /** {@code IBV_MTU_4096}. */
    MTU_4096(IBV_MTU_4096);

    private static final Table<Mtu> TABLE = new Table<>(Mtu.class, "ibv_mtu");
    private final int value;

    Mtu(int value) {
        this.value = value;
    }

    @Override
    public int value() {
        return value;
    }

    /**
     * The MTU in bytes: 256 for {@link #MTU_256} up to 4096 for {@link #MTU_4096}.
     *
     * @return the MTU's size in bytes
     */
    public int bytes() {
        return 128 << value;
    }

    /**
     * The constant for a C value; an unknown value is an {@link IllegalArgumentException}.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value
     */
    public static Mtu of(int value) {
        return TABLE.of(value);
    }

    /**
     * The constant for a C value, or {@code null} when this version does not know it.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value, or {@code null} when this version does not know it
     */
    public static Mtu orNull(int value) {
        return TABLE.orNull(value);
    }
}
