package dev.panamaverbs;

import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.QpEx;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The extended send queue of one {@link QueuePair}: its {@code struct ibv_qp_ex}
 * ({@code ibv_qp_to_qp_ex}), the {@code ibv_wr_*} function pointers read once, and the opcodes
 * its {@code send_ops_flags} allow, as bits indexed by C opcode value. Resolved once per queue
 * pair, on the first {@link SendBatch}; the batches of a queue pair synchronize on it.
 *
 * @param qpx          the {@code struct ibv_qp_ex *}
 * @param functions    its function pointers
 * @param opcodeBits   the opcodes of {@link QueuePairOptions#extendedSendOperations()}, as bits
 */
record ExtendedSendQueue(long qpx, QpEx.Functions functions, int opcodeBits) {
    static final String VERB = "ibv_qp_to_qp_ex";

    /**
     * {@code ibv_qp_to_qp_ex(qp)} and the function pointers, for a queue pair created with
     * extended send operations ({@code options}, its creation's). The queue pair is held as the
     * resource: this needs its handle, liveness and name only.
     *
     * @throws IllegalStateException if the queue pair was not created with
     *         {@link QueuePairOptions.Builder#extendedSendOperations}, or is closed
     * @throws VerbsUnsupportedException if libibverbs lacks {@code ibv_qp_to_qp_ex}
     *         ({@link Capability#QP_EX}) or the provider did not make the queue pair extended
     */
    static ExtendedSendQueue resolve(VerbsResource qp, QueuePairOptions options) {
        if (options.extendedSendOperations().isEmpty()) {
            throw new IllegalStateException(VERB + ": " + qp + " was not created with extendedSendOperations(...):"
                    + " the ibv_wr_* API posts only on a queue pair created through ibv_create_qp_ex with send_ops_flags");
        }
        Capability.QP_EX.require(VERB);
        int bits = 0;
        for (WorkRequestOpcode opcode : options.extendedSendOperations()) {
            bits |= SendOperations.bit(opcode.value());
        }
        qp.acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            long qpx = QpEx.toQpEx(state, qp.handleAddress());
            if (qpx == 0) {
                throw new VerbsUnsupportedException(VERB, "the provider returned NULL for " + qp
                        + ": it did not create an extended queue pair");
            }
            return new ExtendedSendQueue(qpx, QpEx.resolve(qpx), bits);
        } finally {
            qp.release();
        }
    }
}
