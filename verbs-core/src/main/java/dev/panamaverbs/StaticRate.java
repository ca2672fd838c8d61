package dev.panamaverbs;

import dev.panamaverbs.internal.Availability;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.IbverbsCalls;
import java.lang.foreign.Arena;
import java.util.function.ToIntBiFunction;
import java.lang.foreign.MemorySegment;

/**
 * An injection rate limit of an address (C {@code enum ibv_rate}, the {@code static_rate} of
 * {@code struct ibv_ah_attr}), converted with libibverbs' own tables: {@code ibv_rate_to_mult},
 * {@code mult_to_ibv_rate}, {@code ibv_rate_to_mbps}, {@code mbps_to_ibv_rate}. Pass it to
 * {@link AddressHandleAttributes#withStaticRate(StaticRate)}.
 *
 * @param value the {@code enum ibv_rate} value, 0..255 ({@code static_rate} is a {@code uint8_t});
 *              0 is {@code IBV_RATE_MAX}, the port's own rate
 */
public record StaticRate(int value) {
    /** {@code IBV_RATE_MAX}: no limit, the port's current rate. */
    public static final StaticRate PORT_RATE = new StaticRate(0);

    /**
     * Checks the range.
     *
     * @throws IllegalArgumentException if {@code value} is not in 0..255
     */
    public StaticRate {
        if (value < 0 || value > 255) {
            throw new IllegalArgumentException("static_rate must be an enum ibv_rate value in 0..255, got " + value);
        }
    }

    /**
     * {@code mult_to_ibv_rate}: the rate that is {@code multiple} times 2.5 Gb/s (e.g. 4 for
     * 10 Gb/s).
     *
     * @param multiple the multiple of 2.5 Gb/s
     * @return the rate; {@link #PORT_RATE} ({@code IBV_RATE_MAX}) when no {@code enum ibv_rate}
     *         value has that multiple, as libibverbs answers
     * @throws VerbsUnavailableException when libibverbs is unavailable
     */
    public static StaticRate ofMultiple(int multiple) {
        return new StaticRate(call(IbverbsCalls::mult_to_ibv_rate, multiple));
    }

    /**
     * {@code mbps_to_ibv_rate}: the rate of {@code mbps} Mb/s (e.g. 25000 for 25 Gb/s).
     *
     * @param mbps the rate in Mb/s
     * @return the rate; {@link #PORT_RATE} ({@code IBV_RATE_MAX}) when no {@code enum ibv_rate}
     *         value has that rate, as libibverbs answers
     * @throws VerbsUnavailableException when libibverbs is unavailable
     */
    public static StaticRate ofMbps(int mbps) {
        return new StaticRate(call(IbverbsCalls::mbps_to_ibv_rate, mbps));
    }

    /**
     * {@code ibv_rate_to_mult}: this rate as a multiple of 2.5 Gb/s.
     *
     * @return the multiple, or -1 for a value libibverbs has no multiple for ({@link #PORT_RATE}
     *         included, and the rates that are no multiple of 2.5 Gb/s, e.g. 14 Gb/s)
     * @throws VerbsUnavailableException when libibverbs is unavailable
     */
    public int multiple() {
        return call(IbverbsCalls::ibv_rate_to_mult, value);
    }

    /**
     * {@code ibv_rate_to_mbps}: this rate in Mb/s.
     *
     * @return the rate in Mb/s, or -1 for a value libibverbs does not know ({@link #PORT_RATE} included)
     * @throws VerbsUnavailableException when libibverbs is unavailable
     */
    public int mbps() {
        return call(IbverbsCalls::ibv_rate_to_mbps, value);
    }

    private static int call(ToIntBiFunction<MemorySegment, Integer> function, int argument) {
        Availability.ensureVerbs();
        try (Arena arena = Arena.ofConfined()) {
            return function.applyAsInt(CallState.allocate(arena), argument);
        }
    }
}
