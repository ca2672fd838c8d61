package dev.panamaverbs.internal;

import dev.panamaverbs.values.Errno;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.gateway.Pointers;
import dev.panamaverbs.values.AsyncEventType;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.values.NativeEnum;
import dev.panamaverbs.values.NodeType;
import dev.panamaverbs.values.PortState;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The {@code ibv_*_str} functions of libibverbs ({@code ibv_wc_status_str},
 * {@code ibv_node_type_str}, {@code ibv_port_state_str}, {@code ibv_event_type_str}): a C enum
 * value to libibverbs' own text for it (a constant string, never freed).
 */
public final class LibraryText {
    private LibraryText() {}

    /** One of the {@code ibv_*_str} invokers of the generated layer. */
    @FunctionalInterface
    public interface StringFunction {
        MemorySegment call(MemorySegment callState, int value);
    }

    /**
     * An enum libibverbs has an {@code ibv_*_str} function for ({@link AsyncEventType},
     * {@link CompletionStatus}, {@link NodeType}, {@link PortState}): its {@link #describe()}.
     */
    public interface Described extends NativeEnum {
        /**
         * libibverbs' own text for this value (its {@code ibv_*_str} function), e.g. "active" for
         * {@link PortState#ACTIVE}: the words {@code ibv_devinfo} and other rdma-core tools print,
         * where {@code name()} is the Java constant.
         *
         * @return the text libibverbs gives this value
         * @throws dev.panamaverbs.VerbsUnavailableException when libibverbs is unavailable
         */
        default String describe() {
            return switch (this) {
                case AsyncEventType type -> of("ibv_event_type_str", IbverbsCalls::ibv_event_type_str, type.value());
                case CompletionStatus status -> of("ibv_wc_status_str", IbverbsCalls::ibv_wc_status_str, status.value());
                case NodeType type -> of("ibv_node_type_str", IbverbsCalls::ibv_node_type_str, type.value());
                case PortState state -> of("ibv_port_state_str", IbverbsCalls::ibv_port_state_str, state.value());
                default -> throw new IllegalStateException("no ibv_*_str function for " + getClass());
            };
        }
    }

    /** {@code function(value)} as a Java string; libibverbs answers "unknown" for values it does not know. */
    public static String of(String verb, StringFunction function, int value) {
        Verbs.ensureAvailable();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment text = function.call(CallState.allocate(arena), value);
            if (text.equals(MemorySegment.NULL)) {
                throw new VerbsException(verb, Errno.EINVAL, verb + " returned NULL for " + value);
            }
            return Pointers.cString(text);
        }
    }
}
