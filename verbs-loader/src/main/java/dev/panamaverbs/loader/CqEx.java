package dev.panamaverbs.loader;

import dev.panamaverbs.error.Errno;
import dev.panamaverbs.error.VerbsException;
import dev.panamaverbs.error.VerbsUnsupportedException;
import dev.panamaverbs.ffm.ibv_cq_ex;

import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The extended completion API: each {@code static inline} of verbs.h ({@code ibv_start_poll},
 * {@code ibv_next_poll}, {@code ibv_end_poll}, {@code ibv_wc_read_*}) is a call through a
 * function pointer of {@code struct ibv_cq_ex}; {@code status} and {@code wr_id} are plain fields.
 * Arguments are raw addresses; nothing allocates. A pointer the provider left NULL (a
 * {@code read_*} not requested in {@code wc_flags} at creation, say) raises
 * {@link VerbsUnsupportedException}.
 *
 * <p>Usage: {@code if (startPoll(cq, attr)) { do { read...; } while (nextPoll(cq)); endPoll(cq); }}
 * (no {@code endPoll} when {@code startPoll} found nothing, as the man page requires).
 *
 * <p>rxe (rdma-core 44, and later releases) breaks that loop when it runs dry: a {@code next_poll}
 * that answers ENOENT already stores the advanced consumer index (and unlocks), and
 * {@code end_poll} advances and stores it once more, past the producer, so a later poll reports
 * a stale entry again (linux-rdma/rdma-core pull requests 1512 and 1617). Code that must work on
 * rxe uses one {@code startPoll}/{@code endPoll} pair per completion instead.
 */
public final class CqEx {
    private static final Linker.Option CRITICAL = Linker.Option.critical(false);

    /*
     * start_poll takes the provider's CQ lock (rxe: a spinlock) and end_poll releases it, so the
     * lock is held across the caller's Java code in between. A critical start_poll spinning on it
     * would keep the VM from reaching a safepoint that the lock's holder is waiting in: deadlock.
     * Not critical, then. The rest only read the CQ in user memory, or release, and never wait.
     */
    private static final MethodHandle INT_C_P = FunctionPointers.invoker(ibv_cq_ex.start_poll$DESC);
    private static final MethodHandle INT_C = FunctionPointers.invoker(ibv_cq_ex.next_poll$DESC, CRITICAL);
    private static final MethodHandle VOID_C = FunctionPointers.invoker(ibv_cq_ex.end_poll$DESC, CRITICAL);
    private static final MethodHandle BYTE_C = FunctionPointers.invoker(ibv_cq_ex.read_sl$DESC, CRITICAL);
    private static final MethodHandle SHORT_C = FunctionPointers.invoker(ibv_cq_ex.read_cvlan$DESC, CRITICAL);
    private static final MethodHandle LONG_C = FunctionPointers.invoker(ibv_cq_ex.read_completion_ts$DESC, CRITICAL);

    private static final String STRUCT = "struct ibv_cq_ex";

    private CqEx() {}

    /**
     * {@code ibv_start_poll}: {@code return cq->start_poll(cq, attr);}
     *
     * @param attr a {@code struct ibv_poll_cq_attr} ({@code comp_mask} 0)
     * @return true when a completion is current; false when the CQ was empty (ENOENT)
     * @throws VerbsException for any other answer
     */
    public static boolean startPoll(long cqx, long attr) {
        long f = FunctionPointers.read(cqx, ibv_cq_ex.start_poll$OFFSET, "ibv_start_poll", STRUCT, "start_poll");
        Memory.requireNonNull(attr, "ibv_start_poll", "attr");
        int rc;
        try {
            rc = (int) INT_C_P.invokeExact(MemorySegment.ofAddress(f), cqx, attr);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
        return found(rc, "ibv_start_poll");
    }

    /**
     * {@code ibv_next_poll}: {@code return cq->next_poll(cq);}
     *
     * @return true when another completion is current; false when none is left (ENOENT)
     */
    public static boolean nextPoll(long cqx) {
        long f = FunctionPointers.read(cqx, ibv_cq_ex.next_poll$OFFSET, "ibv_next_poll", STRUCT, "next_poll");
        int rc;
        try {
            rc = (int) INT_C.invokeExact(MemorySegment.ofAddress(f), cqx);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
        return found(rc, "ibv_next_poll");
    }

    private static boolean found(int rc, String verb) {
        if (rc == 0) {
            return true;
        }
        if (rc == Errno.ENOENT) {
            return false;
        }
        throw VerbsException.of(verb, Math.abs(rc)); // some providers answer -errno
    }

    /** {@code ibv_end_poll}: {@code cq->end_poll(cq);} */
    public static void endPoll(long cqx) {
        long f = FunctionPointers.read(cqx, ibv_cq_ex.end_poll$OFFSET, "ibv_end_poll", STRUCT, "end_poll");
        try {
            VOID_C.invokeExact(MemorySegment.ofAddress(f), cqx);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code cq->wr_id} of the current completion. */
    public static long wrId(long cqx) {
        Memory.requireNonNull(cqx, "ibv_cq_ex.wr_id", "cq");
        return Memory.readLong(cqx + ibv_cq_ex.wr_id$OFFSET);
    }

    /** {@code cq->status} of the current completion ({@code enum ibv_wc_status}). */
    public static int status(long cqx) {
        Memory.requireNonNull(cqx, "ibv_cq_ex.status", "cq");
        return Memory.readInt(cqx + ibv_cq_ex.status$OFFSET);
    }

    /** {@code ibv_wc_read_opcode}: {@code return cq->read_opcode(cq);} ({@code enum ibv_wc_opcode}) */
    public static int readOpcode(long cqx) {
        return readInt(cqx, ibv_cq_ex.read_opcode$OFFSET, "ibv_wc_read_opcode", "read_opcode");
    }

    /** {@code ibv_wc_read_vendor_err}: {@code return cq->read_vendor_err(cq);} (uint32_t) */
    public static int readVendorErr(long cqx) {
        return readInt(cqx, ibv_cq_ex.read_vendor_err$OFFSET, "ibv_wc_read_vendor_err", "read_vendor_err");
    }

    /** {@code ibv_wc_read_byte_len}: {@code return cq->read_byte_len(cq);} (uint32_t: mask with 0xFFFFFFFFL) */
    public static int readByteLen(long cqx) {
        return readInt(cqx, ibv_cq_ex.read_byte_len$OFFSET, "ibv_wc_read_byte_len", "read_byte_len");
    }

    /** {@code ibv_wc_read_imm_data}: {@code return cq->read_imm_data(cq);} (__be32, as delivered) */
    public static int readImmData(long cqx) {
        return readInt(cqx, ibv_cq_ex.read_imm_data$OFFSET, "ibv_wc_read_imm_data", "read_imm_data");
    }

    /** {@code ibv_wc_read_qp_num}: {@code return cq->read_qp_num(cq);} */
    public static int readQpNum(long cqx) {
        return readInt(cqx, ibv_cq_ex.read_qp_num$OFFSET, "ibv_wc_read_qp_num", "read_qp_num");
    }

    /** {@code ibv_wc_read_src_qp}: {@code return cq->read_src_qp(cq);} */
    public static int readSrcQp(long cqx) {
        return readInt(cqx, ibv_cq_ex.read_src_qp$OFFSET, "ibv_wc_read_src_qp", "read_src_qp");
    }

    /** {@code ibv_wc_read_wc_flags}: {@code return cq->read_wc_flags(cq);} ({@code enum ibv_wc_flags} bits) */
    public static int readWcFlags(long cqx) {
        return readInt(cqx, ibv_cq_ex.read_wc_flags$OFFSET, "ibv_wc_read_wc_flags", "read_wc_flags");
    }

    /** {@code ibv_wc_read_slid}: {@code return cq->read_slid(cq);} */
    public static int readSlid(long cqx) {
        return readInt(cqx, ibv_cq_ex.read_slid$OFFSET, "ibv_wc_read_slid", "read_slid");
    }

    /** {@code ibv_wc_read_flow_tag}: {@code return cq->read_flow_tag(cq);} */
    public static int readFlowTag(long cqx) {
        return readInt(cqx, ibv_cq_ex.read_flow_tag$OFFSET, "ibv_wc_read_flow_tag", "read_flow_tag");
    }

    /** {@code ibv_wc_read_sl}: {@code return cq->read_sl(cq);} (uint8_t, widened unsigned) */
    public static int readSl(long cqx) {
        return readByte(cqx, ibv_cq_ex.read_sl$OFFSET, "ibv_wc_read_sl", "read_sl");
    }

    /** {@code ibv_wc_read_dlid_path_bits}: {@code return cq->read_dlid_path_bits(cq);} (uint8_t, widened unsigned) */
    public static int readDlidPathBits(long cqx) {
        return readByte(cqx, ibv_cq_ex.read_dlid_path_bits$OFFSET, "ibv_wc_read_dlid_path_bits", "read_dlid_path_bits");
    }

    /** {@code ibv_wc_read_cvlan}: {@code return cq->read_cvlan(cq);} (uint16_t, widened unsigned) */
    public static int readCvlan(long cqx) {
        long f = FunctionPointers.read(cqx, ibv_cq_ex.read_cvlan$OFFSET, "ibv_wc_read_cvlan", STRUCT, "read_cvlan");
        try {
            return Short.toUnsignedInt((short) SHORT_C.invokeExact(MemorySegment.ofAddress(f), cqx));
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wc_read_completion_ts}: {@code return cq->read_completion_ts(cq);} (uint64_t) */
    public static long readCompletionTs(long cqx) {
        return readLong(cqx, ibv_cq_ex.read_completion_ts$OFFSET, "ibv_wc_read_completion_ts", "read_completion_ts");
    }

    /** {@code ibv_wc_read_completion_wallclock_ns}: {@code return cq->read_completion_wallclock_ns(cq);} */
    public static long readCompletionWallclockNs(long cqx) {
        return readLong(cqx, ibv_cq_ex.read_completion_wallclock_ns$OFFSET, "ibv_wc_read_completion_wallclock_ns",
                "read_completion_wallclock_ns");
    }

    private static int readInt(long cqx, long offset, String verb, String field) {
        long f = FunctionPointers.read(cqx, offset, verb, STRUCT, field);
        try {
            return (int) INT_C.invokeExact(MemorySegment.ofAddress(f), cqx);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    private static int readByte(long cqx, long offset, String verb, String field) {
        long f = FunctionPointers.read(cqx, offset, verb, STRUCT, field);
        try {
            return Byte.toUnsignedInt((byte) BYTE_C.invokeExact(MemorySegment.ofAddress(f), cqx));
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    private static long readLong(long cqx, long offset, String verb, String field) {
        long f = FunctionPointers.read(cqx, offset, verb, STRUCT, field);
        try {
            return (long) LONG_C.invokeExact(MemorySegment.ofAddress(f), cqx);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }
}
