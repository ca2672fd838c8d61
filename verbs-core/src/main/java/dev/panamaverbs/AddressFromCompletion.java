package dev.panamaverbs;

import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.CompletionFlag;
import dev.panamaverbs.ffm.ibv_ah_attr;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.IbverbsCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The address of a datagram's sender, from its receive completion: {@code ibv_init_ah_from_wc}
 * ({@link AddressHandleAttributes#fromCompletion}) and {@code ibv_create_ah_from_wc}
 * ({@link ProtectionDomain#createAddressHandle(Completions, int, MemorySegment, int)}), with the
 * checks both share before the native call.
 */
final class AddressFromCompletion {
    /** {@code sizeof(struct ibv_grh)}: what a UD receive reserves before the payload. */
    static final int GRH_BYTES = 40;

    private AddressFromCompletion() {}

    static AddressHandleAttributes attributes(Context context, int port, Completions completions, int index,
                                              MemorySegment grh) {
        String verb = "ibv_init_ah_from_wc";
        Objects.requireNonNull(context, verb + ": context");
        context.acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment wc = check(verb, context, port, completions, index, grh);
            return init(verb, arena, context, port, wc, grh);
        } finally {
            context.release();
        }
    }

    static AddressHandle create(ProtectionDomain pd, Completions completions, int index, MemorySegment grh, int port) {
        String verb = "ibv_create_ah_from_wc";
        Objects.requireNonNull(pd, verb + ": protection domain");
        pd.acquire();
        try (Arena arena = Arena.ofConfined()) {
            Context context = pd.parentContext();
            MemorySegment wc = check(verb, context, port, completions, index, grh);
            // The attributes, for the handle's description and port; then the verb itself.
            AddressHandleAttributes attributes = init(verb, arena, context, port, wc, grh);
            MemorySegment state = CallState.allocate(arena);
            MemorySegment ah = IbverbsCalls.ibv_create_ah_from_wc(state, pd.handleSegment(), wc, grhOrNull(grh), (byte) port);
            NativeCalls.checkPointer(verb, ah, CallState.errno(state));
            return AddressHandle.adopt(pd, ah, attributes);
        } finally {
            pd.release();
        }
    }

    /** {@code ibv_init_ah_from_wc} into a fresh {@code ibv_ah_attr}, read back. */
    private static AddressHandleAttributes init(String verb, Arena arena, Context context, int port, MemorySegment wc,
                                                MemorySegment grh) {
        MemorySegment attr = arena.allocate(ibv_ah_attr.LAYOUT);
        MemorySegment state = CallState.allocate(arena);
        int rc = IbverbsCalls.ibv_init_ah_from_wc(state, context.handleSegment(), (byte) port, wc, grhOrNull(grh), attr);
        NativeCalls.checkErrno(verb, rc, CallState.errno(state));
        return AddressHandleAttributes.readFrom(attr);
    }

    /**
     * The port in range, a successful completion, and a GRH of 40 live native bytes when the
     * completion says it has one.
     *
     * @return the completion's {@code struct ibv_wc}
     */
    private static MemorySegment check(String verb, Context context, int port, Completions completions, int index,
                                       MemorySegment grh) {
        Objects.requireNonNull(completions, verb + ": completions");
        Context.checkPortRange(verb, port, context.portCount());
        if (index < 0 || index >= completions.capacity()) {
            throw new IllegalArgumentException(verb + ": completion index must be in 0.." + (completions.capacity() - 1)
                    + ", got " + index);
        }
        if (!completions.isSuccess(index)) {
            throw new IllegalArgumentException(verb + ": completion " + index + " (wr_id=" + completions.wrId(index)
                    + ") failed with " + completions.status(index) + ": it names no sender");
        }
        if (grh != null) {
            if (!grh.isNative() || !grh.scope().isAlive() || grh.byteSize() < GRH_BYTES) {
                throw new IllegalArgumentException(verb + ": grh must be " + GRH_BYTES
                        + " live native bytes (the start of the receive buffer), got " + grh);
            }
        } else if (completions.hasFlag(index, CompletionFlag.GRH)) {
            throw new IllegalArgumentException(verb + ": completion " + index + " carries a GRH: pass the first "
                    + GRH_BYTES + " bytes of its receive buffer");
        }
        return completions.entry(index);
    }

    private static MemorySegment grhOrNull(MemorySegment grh) {
        return grh == null ? MemorySegment.NULL : grh;
    }
}
