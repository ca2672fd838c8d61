package dev.panamaverbs.values;

import static dev.panamaverbs.ffm.VerbsConstants.IBV_COUNTER_BYTES;
import static dev.panamaverbs.ffm.VerbsConstants.IBV_COUNTER_PACKETS;

/** What one entry of {@link dev.panamaverbs.Counters} counts (C {@code enum ibv_counter_description}). */
public enum CounterDescription implements NativeEnum {
    /** {@code IBV_COUNTER_PACKETS}. */
    PACKETS(IBV_COUNTER_PACKETS),
    /** {@code IBV_COUNTER_BYTES}. */
    BYTES(IBV_COUNTER_BYTES);

    private final int value;

    CounterDescription(int value) {
        this.value = value;
    }

    @Override
    public int value() {
        return value;
    }
}
