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
 * <p>Usage: {@code fns = resolve(cq)} once; then
 * {@code if (startPoll(fns, cq, attr)) { do { read...(fns, cq); } while (nextPoll(fns, cq)); endPoll(fns, cq); }}
 * (no {@code endPoll} when {@code startPoll} found nothing, as the man page requires).
 *
 * <p>rxe (rdma-core 44, and later releases) breaks that loop when it runs dry: a {@code next_poll}
 * that answers ENOENT already stores the advanced consumer index (and unlocks), and
 * {@code end_poll} advances and stores it once more, past the producer, so a later poll reports
 * a stale entry again (linux-rdma/rdma-core pull requests 1512 and 1617). Code that must work on
 * rxe uses one {@code startPoll}/{@code endPoll} pair per completion instead.
 *
 * <p>Data path: {@link #resolve(long)} once per CQ, at creation, into an immutable
 * {@link Functions}; then the invokers taking it ({@code startPoll(fns, cqx, attr)},
 * {@code readByteLen(fns, cqx)}...), which read no pointer and allocate nothing, even interpreted.
 * There are no per-call {@code (long cqx)} forms of the function-pointer calls: reading the pointer
 * and wrapping it in a new {@link MemorySegment} on every call allocated on the data path. Only the
 * plain fields ({@link #wrId(long)}, {@link #status(long)}) are read straight from {@code cqx}.
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
     * The function pointers of one {@code struct ibv_cq_ex}, read once by {@link #resolve(long)}
     * when the CQ is created: a provider never changes them afterwards. Each is the segment a
     * downcall takes as its target; a reader the provider left NULL (not requested in
     * {@code wc_flags}) is {@link MemorySegment#NULL} and its invoker raises
     * {@link VerbsUnsupportedException}. Immutable; share it between threads freely.
     */
    public record Functions(MemorySegment startPoll, MemorySegment nextPoll, MemorySegment endPoll,
                            MemorySegment readOpcode, MemorySegment readVendorErr, MemorySegment readByteLen,
                            MemorySegment readImmData, MemorySegment readQpNum, MemorySegment readSrcQp,
                            MemorySegment readWcFlags, MemorySegment readSlid, MemorySegment readSl,
                            MemorySegment readDlidPathBits, MemorySegment readCompletionTs,
                            MemorySegment readCvlan, MemorySegment readFlowTag,
                            MemorySegment readCompletionWallclockNs) {
        public Functions {
            java.util.Objects.requireNonNull(startPoll, "startPoll");
            java.util.Objects.requireNonNull(nextPoll, "nextPoll");
            java.util.Objects.requireNonNull(endPoll, "endPoll");
            java.util.Objects.requireNonNull(readOpcode, "readOpcode");
            java.util.Objects.requireNonNull(readVendorErr, "readVendorErr");
            java.util.Objects.requireNonNull(readByteLen, "readByteLen");
            java.util.Objects.requireNonNull(readImmData, "readImmData");
            java.util.Objects.requireNonNull(readQpNum, "readQpNum");
            java.util.Objects.requireNonNull(readSrcQp, "readSrcQp");
            java.util.Objects.requireNonNull(readWcFlags, "readWcFlags");
            java.util.Objects.requireNonNull(readSlid, "readSlid");
            java.util.Objects.requireNonNull(readSl, "readSl");
            java.util.Objects.requireNonNull(readDlidPathBits, "readDlidPathBits");
            java.util.Objects.requireNonNull(readCompletionTs, "readCompletionTs");
            java.util.Objects.requireNonNull(readCvlan, "readCvlan");
            java.util.Objects.requireNonNull(readFlowTag, "readFlowTag");
            java.util.Objects.requireNonNull(readCompletionWallclockNs, "readCompletionWallclockNs");
        }
    }

    /**
     * Reads every function pointer of {@code cqx} once, for the {@code Functions} invokers below
     * ({@link #startPoll(Functions, long, long)} etc.), which then read no pointer and allocate
     * nothing per call, even interpreted.
     *
     * @param cqx {@code struct ibv_cq_ex *}
     * @throws VerbsUnsupportedException when the provider left {@code start_poll},
     *         {@code next_poll} or {@code end_poll} NULL
     * @throws IllegalArgumentException if {@code cqx} is NULL
     */
    public static Functions resolve(long cqx) {
        return new Functions(
                MemorySegment.ofAddress(FunctionPointers.read(cqx, ibv_cq_ex.start_poll$OFFSET, "ibv_start_poll", STRUCT, "start_poll")),
                MemorySegment.ofAddress(FunctionPointers.read(cqx, ibv_cq_ex.next_poll$OFFSET, "ibv_next_poll", STRUCT, "next_poll")),
                MemorySegment.ofAddress(FunctionPointers.read(cqx, ibv_cq_ex.end_poll$OFFSET, "ibv_end_poll", STRUCT, "end_poll")),
                optional(cqx, ibv_cq_ex.read_opcode$OFFSET),
                optional(cqx, ibv_cq_ex.read_vendor_err$OFFSET),
                optional(cqx, ibv_cq_ex.read_byte_len$OFFSET),
                optional(cqx, ibv_cq_ex.read_imm_data$OFFSET),
                optional(cqx, ibv_cq_ex.read_qp_num$OFFSET),
                optional(cqx, ibv_cq_ex.read_src_qp$OFFSET),
                optional(cqx, ibv_cq_ex.read_wc_flags$OFFSET),
                optional(cqx, ibv_cq_ex.read_slid$OFFSET),
                optional(cqx, ibv_cq_ex.read_sl$OFFSET),
                optional(cqx, ibv_cq_ex.read_dlid_path_bits$OFFSET),
                optional(cqx, ibv_cq_ex.read_completion_ts$OFFSET),
                optional(cqx, ibv_cq_ex.read_cvlan$OFFSET),
                optional(cqx, ibv_cq_ex.read_flow_tag$OFFSET),
                optional(cqx, ibv_cq_ex.read_completion_wallclock_ns$OFFSET));
    }

    private static MemorySegment optional(long cqx, long offset) {
        return FunctionPointers.readOptional(cqx, offset);
    }

    /** {@code f}, unless the provider left it NULL. */
    private static MemorySegment present(MemorySegment f, String verb, String field) {
        return FunctionPointers.present(f, verb, STRUCT, field);
    }

    // ---- the data path: through resolved functions, allocation-free ----

    /**
     * {@code ibv_start_poll} through {@code fns.startPoll()}.
     *
     * @param fns  what {@link #resolve(long)} returned for this {@code cqx}
     * @param attr a {@code struct ibv_poll_cq_attr} ({@code comp_mask} 0)
     * @return true when a completion is current; false when the CQ was empty (ENOENT)
     * @throws VerbsException for any other answer
     */
    public static boolean startPoll(Functions fns, long cqx, long attr) {
        Memory.requireNonNull(cqx, "ibv_start_poll", "cq");
        Memory.requireNonNull(attr, "ibv_start_poll", "attr");
        int rc;
        try {
            rc = (int) INT_C_P.invokeExact(fns.startPoll(), cqx, attr);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
        return found(rc, "ibv_start_poll");
    }

    /** {@code ibv_next_poll} through {@code fns.nextPoll()}: false when none is left (ENOENT). */
    public static boolean nextPoll(Functions fns, long cqx) {
        Memory.requireNonNull(cqx, "ibv_next_poll", "cq");
        int rc;
        try {
            rc = (int) INT_C.invokeExact(fns.nextPoll(), cqx);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
        return found(rc, "ibv_next_poll");
    }

    /** {@code ibv_end_poll} through {@code fns.endPoll()}. */
    public static void endPoll(Functions fns, long cqx) {
        Memory.requireNonNull(cqx, "ibv_end_poll", "cq");
        try {
            VOID_C.invokeExact(fns.endPoll(), cqx);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wc_read_opcode} through {@code fns.readOpcode()} ({@code enum ibv_wc_opcode}). */
    public static int readOpcode(Functions fns, long cqx) {
        return readInt(present(fns.readOpcode(), "ibv_wc_read_opcode", "read_opcode"), cqx);
    }

    /** {@code ibv_wc_read_vendor_err} through {@code fns.readVendorErr()} (uint32_t). */
    public static int readVendorErr(Functions fns, long cqx) {
        return readInt(present(fns.readVendorErr(), "ibv_wc_read_vendor_err", "read_vendor_err"), cqx);
    }

    /** {@code ibv_wc_read_byte_len} through {@code fns.readByteLen()} (uint32_t: mask with 0xFFFFFFFFL). */
    public static int readByteLen(Functions fns, long cqx) {
        return readInt(present(fns.readByteLen(), "ibv_wc_read_byte_len", "read_byte_len"), cqx);
    }

    /** {@code ibv_wc_read_imm_data} through {@code fns.readImmData()} (__be32, as delivered). */
    public static int readImmData(Functions fns, long cqx) {
        return readInt(present(fns.readImmData(), "ibv_wc_read_imm_data", "read_imm_data"), cqx);
    }

    /** {@code ibv_wc_read_qp_num} through {@code fns.readQpNum()}. */
    public static int readQpNum(Functions fns, long cqx) {
        return readInt(present(fns.readQpNum(), "ibv_wc_read_qp_num", "read_qp_num"), cqx);
    }

    /** {@code ibv_wc_read_src_qp} through {@code fns.readSrcQp()}. */
    public static int readSrcQp(Functions fns, long cqx) {
        return readInt(present(fns.readSrcQp(), "ibv_wc_read_src_qp", "read_src_qp"), cqx);
    }

    /** {@code ibv_wc_read_wc_flags} through {@code fns.readWcFlags()} ({@code enum ibv_wc_flags} bits). */
    public static int readWcFlags(Functions fns, long cqx) {
        return readInt(present(fns.readWcFlags(), "ibv_wc_read_wc_flags", "read_wc_flags"), cqx);
    }

    /** {@code ibv_wc_read_slid} through {@code fns.readSlid()}. */
    public static int readSlid(Functions fns, long cqx) {
        return readInt(present(fns.readSlid(), "ibv_wc_read_slid", "read_slid"), cqx);
    }

    /** {@code ibv_wc_read_flow_tag} through {@code fns.readFlowTag()}. */
    public static int readFlowTag(Functions fns, long cqx) {
        return readInt(present(fns.readFlowTag(), "ibv_wc_read_flow_tag", "read_flow_tag"), cqx);
    }

    /** {@code ibv_wc_read_sl} through {@code fns.readSl()} (uint8_t, widened unsigned). */
    public static int readSl(Functions fns, long cqx) {
        return readByte(present(fns.readSl(), "ibv_wc_read_sl", "read_sl"), cqx);
    }

    /** {@code ibv_wc_read_dlid_path_bits} through {@code fns.readDlidPathBits()} (uint8_t, widened unsigned). */
    public static int readDlidPathBits(Functions fns, long cqx) {
        return readByte(present(fns.readDlidPathBits(), "ibv_wc_read_dlid_path_bits", "read_dlid_path_bits"), cqx);
    }

    /** {@code ibv_wc_read_cvlan} through {@code fns.readCvlan()} (uint16_t, widened unsigned). */
    public static int readCvlan(Functions fns, long cqx) {
        MemorySegment f = present(fns.readCvlan(), "ibv_wc_read_cvlan", "read_cvlan");
        Memory.requireNonNull(cqx, "ibv_wc_read_cvlan", "cq");
        try {
            return Short.toUnsignedInt((short) SHORT_C.invokeExact(f, cqx));
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    /** {@code ibv_wc_read_completion_ts} through {@code fns.readCompletionTs()} (uint64_t). */
    public static long readCompletionTs(Functions fns, long cqx) {
        return readLong(present(fns.readCompletionTs(), "ibv_wc_read_completion_ts", "read_completion_ts"), cqx);
    }

    /** {@code ibv_wc_read_completion_wallclock_ns} through {@code fns.readCompletionWallclockNs()}. */
    public static long readCompletionWallclockNs(Functions fns, long cqx) {
        return readLong(present(fns.readCompletionWallclockNs(), "ibv_wc_read_completion_wallclock_ns",
                "read_completion_wallclock_ns"), cqx);
    }

    private static int readInt(MemorySegment f, long cqx) {
        Memory.requireNonNull(cqx, "ibv_cq_ex", "cq");
        try {
            return (int) INT_C.invokeExact(f, cqx);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    private static int readByte(MemorySegment f, long cqx) {
        Memory.requireNonNull(cqx, "ibv_cq_ex", "cq");
        try {
            return Byte.toUnsignedInt((byte) BYTE_C.invokeExact(f, cqx));
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    private static long readLong(MemorySegment f, long cqx) {
        Memory.requireNonNull(cqx, "ibv_cq_ex", "cq");
        try {
            return (long) LONG_C.invokeExact(f, cqx);
        } catch (Throwable t) {
            throw Invoke.rethrow(t);
        }
    }

    // ---- plain fields, no function pointer ----

    private static boolean found(int rc, String verb) {
        if (rc == 0) {
            return true;
        }
        if (rc == Errno.ENOENT) {
            return false;
        }
        throw VerbsException.of(verb, Math.abs(rc)); // some providers answer -errno
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
}
