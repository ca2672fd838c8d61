package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/** Path migration state (C {@code enum ibv_mig_state}). */
public enum MigrationState implements NativeEnum {
    /** {@code IBV_MIG_MIGRATED}. */
    MIGRATED(IBV_MIG_MIGRATED),
    /** {@code IBV_MIG_REARM}. */
    REARM(IBV_MIG_REARM),
    /** {@code IBV_MIG_ARMED}. */
    ARMED(IBV_MIG_ARMED);

    private static final Table<MigrationState> TABLE = new Table<>(MigrationState.class, "ibv_mig_state");
    private final int value;

    MigrationState(int value) {
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
    public static MigrationState of(int value) {
        return TABLE.of(value);
    }

    /**
     * The constant for a C value, or {@code null} when this version does not know it.
     *
     * @param value the C value, as the header defines it
     * @return the constant for a C value, or {@code null} when this version does not know it
     */
    public static MigrationState orNull(int value) {
        return TABLE.orNull(value);
    }
}
