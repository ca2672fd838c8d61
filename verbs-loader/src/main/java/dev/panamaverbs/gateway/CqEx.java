package dev.panamaverbs.gateway;

import dev.panamaverbs.ffm.ibv_cq_ex;
import dev.panamaverbs.ffm.invoke.ibv_cq_ex$calls;

import java.lang.foreign.MemorySegment;

/**
 * The extended completion API: each {@code static inline} of verbs.h ({@code ibv_start_poll},
 * {@code ibv_end_poll}, {@code ibv_wc_read_*}) is a call through a function pointer of
 * {@code struct ibv_cq_ex}; {@code status} and {@code wr_id} are plain fields. Arguments are raw
 * addresses; C's return conventions; nothing allocates.
 *
 * <p>Usage: {@code fns = resolve(cq)} once, when the CQ is created; then, per completion,
 * {@code if (startPoll(fns, cq, attr) == 0) { CqExReaders.read...(fns, cq); endPoll(fns, cq); }}. The
 * {@code ibv_wc_read_*} readers are generated ({@link CqExReaders}, one per op of {@link Functions}).
 *
 * <p>One {@code start_poll}/{@code end_poll} pair per completion, never {@code next_poll}: rxe
 * (rdma-core 44, and later releases) breaks the loop when it runs dry: a {@code next_poll} that
 * answers ENOENT already stores the advanced consumer index, and {@code end_poll} advances and
 * stores it once more, past the producer, so a later poll reports a stale entry again
 * (linux-rdma/rdma-core pull requests 1512 and 1617).
 */
public final class CqEx {
    private CqEx() {}

    /**
     * The function pointers of one {@code struct ibv_cq_ex}, read once by {@link #resolve(long)}:
     * a provider never changes them afterwards. A reader the provider left NULL (not requested in
     * {@code wc_flags}) is {@link MemorySegment#NULL}; callers check {@link #has} before use ({@link CqExReaders} calls them).
     *
     * @param startPoll the start poll
     * @param endPoll the end poll
     * @param readOpcode the read opcode
     * @param readVendorErr the read vendor err
     * @param readByteLen the read byte len
     * @param readImmData the read imm data
     * @param readQpNum the read qp num
     * @param readSrcQp the read src qp
     * @param readWcFlags the read wc flags
     * @param readSlid the read slid
     * @param readSl the read sl
     * @param readDlidPathBits the read dlid path bits
     * @param readCompletionTs the read completion ts
     * @param readCompletionWallclockNs the read completion wallclock ns
     * @param readFlowTag the read flow tag
     */
    public record Functions(MemorySegment startPoll, MemorySegment endPoll,
                            MemorySegment readOpcode, MemorySegment readVendorErr, MemorySegment readByteLen,
                            MemorySegment readImmData, MemorySegment readQpNum, MemorySegment readSrcQp,
                            MemorySegment readWcFlags, MemorySegment readSlid, MemorySegment readSl,
                            MemorySegment readDlidPathBits, MemorySegment readCompletionTs,
                            MemorySegment readCompletionWallclockNs, MemorySegment readFlowTag) {
        /**
         * Whether the provider set {@code function}.
         *
         * @param function the function
         * @return whether the provider set {@code function}
         */
        public static boolean has(MemorySegment function) {
            return function.address() != 0;
        }
    }

    /**
     * Reads every function pointer of {@code cqx} once.
     *
     * @param cqx {@code struct ibv_cq_ex *}
     * @throws IllegalArgumentException if {@code cqx} is NULL
     * @return the function pointers, for the readers below
     */
    public static Functions resolve(long cqx) {
        Memory.requireNonNull(cqx, "ibv_create_cq_ex", "cq");
        return new Functions(
                pointer(cqx, ibv_cq_ex.start_poll$OFFSET), pointer(cqx, ibv_cq_ex.end_poll$OFFSET),
                pointer(cqx, ibv_cq_ex.read_opcode$OFFSET), pointer(cqx, ibv_cq_ex.read_vendor_err$OFFSET),
                pointer(cqx, ibv_cq_ex.read_byte_len$OFFSET), pointer(cqx, ibv_cq_ex.read_imm_data$OFFSET),
                pointer(cqx, ibv_cq_ex.read_qp_num$OFFSET), pointer(cqx, ibv_cq_ex.read_src_qp$OFFSET),
                pointer(cqx, ibv_cq_ex.read_wc_flags$OFFSET), pointer(cqx, ibv_cq_ex.read_slid$OFFSET),
                pointer(cqx, ibv_cq_ex.read_sl$OFFSET), pointer(cqx, ibv_cq_ex.read_dlid_path_bits$OFFSET),
                pointer(cqx, ibv_cq_ex.read_completion_ts$OFFSET),
                pointer(cqx, ibv_cq_ex.read_completion_wallclock_ns$OFFSET),
                pointer(cqx, ibv_cq_ex.read_flow_tag$OFFSET));
    }

    private static MemorySegment pointer(long cqx, long offset) {
        long function = Memory.readLong(cqx + offset);
        return function == 0 ? MemorySegment.NULL : MemorySegment.ofAddress(function);
    }

    /**
     * {@code ibv_start_poll(cq, attr)}: 0 when a completion is current, ENOENT when the CQ is
     * empty, else the provider's error (some answer {@code -errno}).
     *
     * @param attr a {@code struct ibv_poll_cq_attr} ({@code comp_mask} 0)
     * @param fns the resolved function pointers
     * @param cqx the extended completion queue ({@code struct ibv_cq_ex})
     * @return {@code ibv_start_poll(cq, attr)}: 0 when a completion is current, ENOENT when the CQ is empty, else the provider's error (some answer {@code -errno})
     */
    public static int startPoll(Functions fns, long cqx, long attr) {
        Memory.requireNonNull(cqx, "ibv_start_poll", "cq");
        Memory.requireNonNull(attr, "ibv_start_poll", "attr");
        return ibv_cq_ex$calls.start_poll$raw(fns.startPoll(), cqx, attr);
    }

    /**
     * {@code ibv_end_poll(cq)}: releases the current completion (and the provider's CQ lock).
     *
     * @param fns the resolved function pointers
     * @param cqx the extended completion queue ({@code struct ibv_cq_ex})
     */
    public static void endPoll(Functions fns, long cqx) {
        Memory.requireNonNull(cqx, "ibv_end_poll", "cq");
        ibv_cq_ex$calls.end_poll$raw(fns.endPoll(), cqx);
    }

    /**
     * {@code cq->wr_id} of the current completion.
     *
     * @param cqx the extended completion queue ({@code struct ibv_cq_ex})
     * @return {@code cq->wr_id} of the current completion
     */
    public static long wrId(long cqx) {
        return Memory.readLong(cq(cqx) + ibv_cq_ex.wr_id$OFFSET);
    }

    /**
     * {@code cq->status} of the current completion ({@code enum ibv_wc_status}).
     *
     * @param cqx the extended completion queue ({@code struct ibv_cq_ex})
     * @return {@code cq->status} of the current completion ({@code enum ibv_wc_status})
     */
    public static int status(long cqx) {
        return Memory.readInt(cq(cqx) + ibv_cq_ex.status$OFFSET);
    }

    private static long cq(long cqx) {
        Memory.requireNonNull(cqx, "ibv_wc_read", "cq");
        return cqx;
    }
}
