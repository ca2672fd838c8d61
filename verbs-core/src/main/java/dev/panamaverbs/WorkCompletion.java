package dev.panamaverbs;

import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.values.CompletionStatus;

/**
 * One successful work completion ({@code struct ibv_wc}) copied out of its batch: the value a
 * {@link CompletionFutures} future completes with. A failed completion completes its future
 * exceptionally with a {@link CompletionFailedException} instead.
 *
 * @param wrId the work request's id ({@code wc.wr_id})
 * @param status the status ({@code wc.status}; {@code SUCCESS} for a future's value)
 * @param opcode what completed ({@code wc.opcode}), or null when the value is not a known opcode
 * @param byteLength the bytes received ({@code wc.byte_len}; receive completions)
 * @param qpNumber the local queue pair's number ({@code wc.qp_num})
 * @param sourceQp the sending queue pair's number ({@code wc.src_qp}; UD receives)
 * @param immediateData {@code wc.imm_data} as it came from the wire (network order)
 * @param flags {@code wc.wc_flags}
 */
public record WorkCompletion(long wrId, CompletionStatus status, CompletionOpcode opcode, int byteLength, int qpNumber,
                             int sourceQp, int immediateData, int flags) {

    /** Copies entry {@code index} of {@code batch}. */
    static WorkCompletion of(Completions batch, int index) {
        return new WorkCompletion(batch.wrId(index), batch.status(index), batch.opcode(index), batch.byteLength(index),
                batch.qpNumber(index), batch.sourceQp(index), batch.immediateData(index), batch.flags(index));
    }
}
