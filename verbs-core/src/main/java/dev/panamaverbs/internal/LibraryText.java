package dev.panamaverbs.internal;

import dev.panamaverbs.values.Errno;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.gateway.Pointers;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The {@code ibv_*_str} functions of libibverbs ({@code ibv_wc_status_str},
 * {@code ibv_node_type_str}, {@code ibv_port_state_str}, {@code ibv_event_type_str}): a C enum
 * value to libibverbs' own text for it (a constant string, never freed).
 * {@code dev.panamaverbs.values.DescribedEnum#describe()} calls it for the enums that have one.
 */
public final class LibraryText {
    private LibraryText() {}

    /** One of the {@code ibv_*_str} invokers of the generated layer. */
    @FunctionalInterface
    public interface StringFunction {
        MemorySegment call(MemorySegment callState, int value);
    }

    /**
     * The {@code ibv_*_str} invoker named {@code verb} (the C enum's name and {@code _str}), or null
     * when libibverbs has no such function.
     */
    public static StringFunction function(String verb) {
        return switch (verb) {
            case "ibv_event_type_str" -> IbverbsCalls::ibv_event_type_str;
            case "ibv_wc_status_str" -> IbverbsCalls::ibv_wc_status_str;
            case "ibv_node_type_str" -> IbverbsCalls::ibv_node_type_str;
            case "ibv_port_state_str" -> IbverbsCalls::ibv_port_state_str;
            default -> null;
        };
    }

    /** {@code function(value)} as a Java string; libibverbs answers "unknown" for values it does not know. */
    public static String of(String verb, StringFunction function, int value) {
        Availability.ensureVerbs();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment text = function.call(CallState.allocate(arena), value);
            if (text.equals(MemorySegment.NULL)) {
                throw new VerbsException(verb, Errno.EINVAL, verb + " returned NULL for " + value);
            }
            return Pointers.cString(text);
        }
    }
}
