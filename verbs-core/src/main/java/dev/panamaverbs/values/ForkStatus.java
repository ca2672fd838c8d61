package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.*;

/** Whether registered memory survives {@code fork(2)} safely (C {@code enum ibv_fork_status}, {@link dev.panamaverbs.Verbs#forkStatus()}). */
public enum ForkStatus implements NativeEnum {
    /** {@code IBV_FORK_DISABLED}: no fork protection; a child touching registered pages may break the parent's RDMA. */
    DISABLED(IBV_FORK_DISABLED),
    /** {@code IBV_FORK_ENABLED}: {@code ibv_fork_init} ran; registered ranges are marked {@code MADV_DONTFORK}. */
    ENABLED(IBV_FORK_ENABLED),
    /** {@code IBV_FORK_UNNEEDED}: the kernel keeps registered memory fork-safe by itself (Linux 5.13 and later). */
    UNNEEDED(IBV_FORK_UNNEEDED);

    private static final Table<ForkStatus> TABLE = new Table<>(ForkStatus.class, "ibv_fork_status");
    private final int value;

    ForkStatus(int value) {
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
    public static ForkStatus of(int value) {
        return TABLE.of(value);
    }
}
