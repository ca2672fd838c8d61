package dev.panamaverbs.internal;

import dev.panamaverbs.values.Errno;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.VerbsException;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.Pointers;
import dev.panamaverbs.values.NativeEnum;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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
     * An enum libibverbs has an {@code ibv_*_str} function for (AsyncEventType, CompletionStatus,
     * NodeType and PortState of {@code dev.panamaverbs.values}, each registered with
     * {@link #register}): its {@link #describe()}.
     */
    public interface Described extends NativeEnum {
        /**
         * libibverbs' own text for this value (its {@code ibv_*_str} function), e.g. "active" for
         * {@code PortState.ACTIVE}: the words {@code ibv_devinfo} and other rdma-core tools print,
         * where {@code name()} is the Java constant.
         *
         * @return the text libibverbs gives this value
         * @throws dev.panamaverbs.VerbsUnavailableException when libibverbs is unavailable
         */
        default String describe() {
            return LibraryText.describe(this);
        }
    }

    /** The {@code ibv_*_str} function of each {@link Described} enum, registered by the enum itself. */
    private static final Map<Class<?>, Text> TEXTS = new ConcurrentHashMap<>();

    private record Text(String verb, StringFunction function) {}

    /**
     * Called by a {@link Described} enum's static initialiser: its {@code ibv_*_str} function.
     *
     * @param type     the enum
     * @param verb     the function's name, for messages
     * @param function its invoker
     */
    public static void register(Class<? extends Described> type, String verb, StringFunction function) {
        TEXTS.put(type, new Text(verb, function));
    }

    private static String describe(Described value) {
        Text text = TEXTS.get(((Enum<?>) value).getDeclaringClass());
        if (text == null) {
            throw new IllegalStateException("no ibv_*_str function for " + value.getClass());
        }
        return of(text.verb(), text.function(), value.value());
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
