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
 * The address of a datagram's sender, from its receive completion: what
 * {@link AddressHandleAttributes#fromCompletion} ({@code ibv_init_ah_from_wc}) and
 * {@link AddressHandle}'s {@code ibv_create_ah_from_wc} share: the checks before the native call,
 * and {@code ibv_init_ah_from_wc} itself.
 */
final class AddressFromCompletion {
    /** {@code sizeof(struct ibv_grh)}: what a UD receive reserves before the payload. */
    static final int GRH_BYTES = 40;

    private AddressFromCompletion() {}

    /** {@code ibv_init_ah_from_wc} into a fresh {@code ibv_ah_attr} in {@code arena}, for the caller to read. */
    static MemorySegment init(String verb, Arena arena, Context context, int port, MemorySegment wc, MemorySegment grh) {
        MemorySegment attr = arena.allocate(ibv_ah_attr.LAYOUT);
        MemorySegment state = CallState.allocate(arena);
        int rc = IbverbsCalls.ibv_init_ah_from_wc(state, context.handleSegment(), (byte) port, wc, grhOrNull(grh), attr);
        NativeCalls.checkErrno(verb, rc, CallState.errno(state));
        return attr;
    }

    /**
     * The port in range, a successful completion, and a GRH of 40 live native bytes when the
     * completion says it has one.
     *
     * @return the completion's {@code struct ibv_wc}
     */
    static MemorySegment check(String verb, Context context, int port, Completions completions, int index,
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

    static MemorySegment grhOrNull(MemorySegment grh) {
        return grh == null ? MemorySegment.NULL : grh;
    }
}
