package dev.panamaverbs.gateway;

import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_qp_ex;
import dev.panamaverbs.ffm.ibv_send_wr;
import dev.panamaverbs.ffm.ibv_sge;
import dev.panamaverbs.ffm.invoke.ibv_qp_ex$calls;
import dev.panamaverbs.ffm.invoke.verbs_h;

import java.lang.foreign.MemorySegment;

/**
 * The extended post API: each {@code static inline ibv_wr_*} of verbs.h is a call through a
 * function pointer of {@code struct ibv_qp_ex}; {@code wr_id} and {@code wr_flags} are plain
 * fields the provider reads when the next operation starts. Arguments are raw addresses; C's
 * return conventions; nothing allocates.
 *
 * <p>Usage: {@code qpx = toQpEx(errno, qp)} and {@code fns = resolve(qpx)} once; then per batch
 * {@code start(fns, qpx)}, {@link #post} per request (or the single setters), and
 * {@code complete(fns, qpx)} or {@code abort(fns, qpx)}. Providers take the send queue's lock in
 * {@code wr_start} and release it in {@code wr_complete}/{@code wr_abort}: a started batch must
 * always end in one of them, on the same thread.
 *
 * <p>{@link #post} turns one filled {@code struct ibv_send_wr} into the calls that post it:
 * {@code wr_id}, {@code wr_flags}, the opcode's {@code ibv_wr_*}, the address setter
 * ({@code ibv_wr_set_ud_addr} on UD, {@code ibv_wr_set_xrc_srqn} on XRC_SEND), then the data
 * setter: {@code ibv_wr_set_sge} for one entry, {@code ibv_wr_set_sge_list} for several (or
 * none), {@code ibv_wr_set_inline_data} when {@code IBV_SEND_INLINE} is set. Several inline
 * entries are copied, in order, into the caller's scratch buffer and passed as one
 * {@code ibv_wr_set_inline_data}, never as {@code ibv_wr_set_inline_data_list}: rxe's
 * {@code wr_set_inline_data_list} (rdma-core 44 and later) never adds the buffers' lengths up and
 * posts zero bytes with a successful completion (SendBatchDeviceTest saw it).
 */
public final class QpEx {
    private static final long WR_ID = ibv_qp_ex.wr_id$OFFSET;
    private static final long WR_FLAGS = ibv_qp_ex.wr_flags$OFFSET;
    private static final long RDMA_REMOTE_ADDR = ibv_send_wr.wr$OFFSET + ibv_send_wr.wr.rdma.remote_addr$OFFSET;
    private static final long RDMA_RKEY = ibv_send_wr.wr$OFFSET + ibv_send_wr.wr.rdma.rkey$OFFSET;
    private static final long ATOMIC_REMOTE_ADDR = ibv_send_wr.wr$OFFSET + ibv_send_wr.wr.atomic.remote_addr$OFFSET;
    private static final long ATOMIC_COMPARE_ADD = ibv_send_wr.wr$OFFSET + ibv_send_wr.wr.atomic.compare_add$OFFSET;
    private static final long ATOMIC_SWAP = ibv_send_wr.wr$OFFSET + ibv_send_wr.wr.atomic.swap$OFFSET;
    private static final long ATOMIC_RKEY = ibv_send_wr.wr$OFFSET + ibv_send_wr.wr.atomic.rkey$OFFSET;
    private static final long UD_AH = ibv_send_wr.wr$OFFSET + ibv_send_wr.wr.ud.ah$OFFSET;
    private static final long UD_REMOTE_QPN = ibv_send_wr.wr$OFFSET + ibv_send_wr.wr.ud.remote_qpn$OFFSET;
    private static final long UD_REMOTE_QKEY = ibv_send_wr.wr$OFFSET + ibv_send_wr.wr.ud.remote_qkey$OFFSET;
    private static final long XRC_REMOTE_SRQN = ibv_send_wr.qp_type$OFFSET + ibv_send_wr.qp_type.xrc.remote_srqn$OFFSET;
    private static final long BIND_MW = ibv_send_wr.bind_mw$OFFSET + ibv_send_wr.bind_mw.mw$OFFSET;
    private static final long BIND_RKEY = ibv_send_wr.bind_mw$OFFSET + ibv_send_wr.bind_mw.rkey$OFFSET;
    private static final long BIND_INFO = ibv_send_wr.bind_mw$OFFSET + ibv_send_wr.bind_mw.bind_info$OFFSET;
    private static final long SGE_SIZE = ibv_sge.SIZE;

    private static final int EINVAL = 22;

    private QpEx() {}

    /**
     * The function pointers of one {@code struct ibv_qp_ex}, read once by {@link #resolve(long)}:
     * the provider sets them at creation (those of operations not in {@code send_ops_flags} may
     * be NULL, {@link MemorySegment#NULL} here; {@link #missing} names them before a batch).
     *
     * @param start {@code wr_start}
     * @param complete {@code wr_complete}
     * @param abort {@code wr_abort}
     * @param send {@code wr_send}
     * @param sendImm {@code wr_send_imm}
     * @param sendInv {@code wr_send_inv}
     * @param rdmaWrite {@code wr_rdma_write}
     * @param rdmaWriteImm {@code wr_rdma_write_imm}
     * @param rdmaRead {@code wr_rdma_read}
     * @param atomicCmpSwp {@code wr_atomic_cmp_swp}
     * @param atomicFetchAdd {@code wr_atomic_fetch_add}
     * @param bindMw {@code wr_bind_mw}
     * @param localInv {@code wr_local_inv}
     * @param atomicWrite {@code wr_atomic_write}
     * @param setUdAddr {@code wr_set_ud_addr}
     * @param setXrcSrqn {@code wr_set_xrc_srqn}
     * @param setInlineData {@code wr_set_inline_data}
     * @param setInlineDataList {@code wr_set_inline_data_list}
     * @param setSge {@code wr_set_sge}
     * @param setSgeList {@code wr_set_sge_list}
     */
    public record Functions(MemorySegment start, MemorySegment complete, MemorySegment abort,
                            MemorySegment send, MemorySegment sendImm, MemorySegment sendInv,
                            MemorySegment rdmaWrite, MemorySegment rdmaWriteImm, MemorySegment rdmaRead,
                            MemorySegment atomicCmpSwp, MemorySegment atomicFetchAdd, MemorySegment bindMw,
                            MemorySegment localInv, MemorySegment atomicWrite, MemorySegment setUdAddr,
                            MemorySegment setXrcSrqn, MemorySegment setInlineData, MemorySegment setInlineDataList,
                            MemorySegment setSge, MemorySegment setSgeList) {
    }

    /**
     * {@code ibv_qp_to_qp_ex(qp)}: the {@code struct ibv_qp_ex} of a queue pair created through
     * {@code ibv_create_qp_ex}, or 0 (the queue pair is not extended).
     *
     * @param errno a {@code CallState} segment: the errno on failure
     * @param qp the queue pair
     * @return the {@code struct ibv_qp_ex *}, or 0
     */
    public static long toQpEx(MemorySegment errno, long qp) {
        Memory.requireNonNull(qp, "ibv_qp_to_qp_ex", "qp");
        return verbs_h.ibv_qp_to_qp_ex(errno, MemorySegment.ofAddress(qp)).address();
    }

    /**
     * Reads every function pointer of {@code qpx} once.
     *
     * @param qpx {@code struct ibv_qp_ex *}
     * @return the function pointers
     * @throws IllegalArgumentException if {@code qpx} is NULL
     */
    public static Functions resolve(long qpx) {
        Memory.requireNonNull(qpx, "ibv_qp_to_qp_ex", "qp");
        MemorySegment[] f = new MemorySegment[FUNCTION_OFFSETS.length];
        for (int i = 0; i < f.length; i++) {
            long function = Memory.readLong(qpx + FUNCTION_OFFSETS[i]);
            f[i] = function == 0 ? MemorySegment.NULL : MemorySegment.ofAddress(function);
        }
        return new Functions(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11], f[12], f[13],
                f[14], f[15], f[16], f[17], f[18], f[19]);
    }

    /** The offsets of {@link Functions}' pointers in {@code struct ibv_qp_ex}, in the record's order. */
    private static final long[] FUNCTION_OFFSETS = {
        ibv_qp_ex.wr_start$OFFSET, ibv_qp_ex.wr_complete$OFFSET, ibv_qp_ex.wr_abort$OFFSET,
        ibv_qp_ex.wr_send$OFFSET, ibv_qp_ex.wr_send_imm$OFFSET, ibv_qp_ex.wr_send_inv$OFFSET,
        ibv_qp_ex.wr_rdma_write$OFFSET, ibv_qp_ex.wr_rdma_write_imm$OFFSET, ibv_qp_ex.wr_rdma_read$OFFSET,
        ibv_qp_ex.wr_atomic_cmp_swp$OFFSET, ibv_qp_ex.wr_atomic_fetch_add$OFFSET, ibv_qp_ex.wr_bind_mw$OFFSET,
        ibv_qp_ex.wr_local_inv$OFFSET, ibv_qp_ex.wr_atomic_write$OFFSET, ibv_qp_ex.wr_set_ud_addr$OFFSET,
        ibv_qp_ex.wr_set_xrc_srqn$OFFSET, ibv_qp_ex.wr_set_inline_data$OFFSET,
        ibv_qp_ex.wr_set_inline_data_list$OFFSET, ibv_qp_ex.wr_set_sge$OFFSET, ibv_qp_ex.wr_set_sge_list$OFFSET,
    };

    /**
     * {@code ibv_wr_start(qp)}.
     *
     * @param fns the resolved function pointers
     * @param qpx the extended queue pair
     */
    public static void start(Functions fns, long qpx) {
        ibv_qp_ex$calls.wr_start$raw(fns.start(), qp(qpx));
    }

    /**
     * {@code ibv_wr_complete(qp)}: 0 when the batch was posted, else the provider's errno (none
     * of the batch is posted then).
     *
     * @param fns the resolved function pointers
     * @param qpx the extended queue pair
     * @return 0, or the errno
     */
    public static int complete(Functions fns, long qpx) {
        return ibv_qp_ex$calls.wr_complete$raw(fns.complete(), qp(qpx));
    }

    /**
     * {@code ibv_wr_abort(qp)}: drops the requests made since {@link #start}.
     *
     * @param fns the resolved function pointers
     * @param qpx the extended queue pair
     */
    public static void abort(Functions fns, long qpx) {
        ibv_qp_ex$calls.wr_abort$raw(fns.abort(), qp(qpx));
    }

    /**
     * The {@code ibv_qp_ex} function {@link #post} would call for {@code wr} on a queue pair of
     * C type {@code qpType} that the provider left NULL, by its field name; null when all are set
     * (or the opcode is one {@link #post} does not translate: {@code "opcode"}).
     *
     * @param fns the resolved function pointers
     * @param qpType the queue pair's {@code enum ibv_qp_type} value
     * @param wr a filled {@code struct ibv_send_wr}
     * @return the missing field's name, or null
     */
    public static String missing(Functions fns, int qpType, long wr) {
        Memory.requireNonNull(wr, "ibv_wr_start", "wr");
        int opcode = Memory.readInt(wr + ibv_send_wr.opcode$OFFSET);
        MemorySegment op = opcodeFunction(fns, opcode);
        if (op == null) {
            return "opcode";
        }
        if (op.address() == 0) {
            return opcodeFunctionName(opcode);
        }
        if (qpType == VerbsConstants.IBV_QPT_UD && fns.setUdAddr().address() == 0) {
            return "wr_set_ud_addr";
        }
        if (qpType == VerbsConstants.IBV_QPT_XRC_SEND && fns.setXrcSrqn().address() == 0) {
            return "wr_set_xrc_srqn";
        }
        if (!carriesData(opcode)) {
            return null;
        }
        boolean inline = (Memory.readInt(wr + ibv_send_wr.send_flags$OFFSET) & VerbsConstants.IBV_SEND_INLINE) != 0;
        boolean one = Memory.readInt(wr + ibv_send_wr.num_sge$OFFSET) == 1;
        if (inline) {
            return fns.setInlineData().address() == 0 ? "wr_set_inline_data" : null;
        }
        return one ? (fns.setSge().address() == 0 ? "wr_set_sge" : null)
                : (fns.setSgeList().address() == 0 ? "wr_set_sge_list" : null);
    }

    /**
     * Makes the {@code ibv_wr_*} calls that post one filled {@code struct ibv_send_wr} inside a
     * started batch: {@code qp->wr_id}, {@code qp->wr_flags} (its {@code send_flags}), the
     * opcode's call, the address setter, the data setter (see the class comment). ATOMIC_WRITE
     * passes {@code sg_list[0].addr} as the CPU address of its 8 bytes. {@code next} is not
     * followed. Check {@link #missing} first: a NULL function is an exception from the linker.
     *
     * @param fns the resolved function pointers
     * @param qpx the extended queue pair (inside {@link #start})
     * @param qpType the queue pair's {@code enum ibv_qp_type} value
     * @param wr a filled {@code struct ibv_send_wr}
     * @param inlineScratch room for the request's inline bytes when it has several inline entries
     *                 (they are gathered there; the provider copies them during the call)
     * @return 0, or EINVAL for an opcode this method does not translate (nothing was called)
     */
    public static int post(Functions fns, long qpx, int qpType, long wr, long inlineScratch) {
        qp(qpx);
        Memory.requireNonNull(wr, "ibv_wr_start", "wr");
        int opcode = Memory.readInt(wr + ibv_send_wr.opcode$OFFSET);
        if (opcodeFunction(fns, opcode) == null) {
            return EINVAL;
        }
        int flags = Memory.readInt(wr + ibv_send_wr.send_flags$OFFSET);
        Memory.writeLong(qpx + WR_ID, Memory.readLong(wr + ibv_send_wr.wr_id$OFFSET));
        Memory.writeInt(qpx + WR_FLAGS, flags);
        int imm = Memory.readInt(wr + ibv_send_wr.imm_data$OFFSET);
        long sgList = Memory.readLong(wr + ibv_send_wr.sg_list$OFFSET);
        switch (opcode) {
            case VerbsConstants.IBV_WR_SEND -> ibv_qp_ex$calls.wr_send$raw(fns.send(), qpx);
            case VerbsConstants.IBV_WR_SEND_WITH_IMM -> ibv_qp_ex$calls.wr_send_imm$raw(fns.sendImm(), qpx, imm);
            case VerbsConstants.IBV_WR_SEND_WITH_INV -> ibv_qp_ex$calls.wr_send_inv$raw(fns.sendInv(), qpx, imm);
            case VerbsConstants.IBV_WR_RDMA_WRITE -> ibv_qp_ex$calls.wr_rdma_write$raw(fns.rdmaWrite(), qpx,
                    Memory.readInt(wr + RDMA_RKEY), Memory.readLong(wr + RDMA_REMOTE_ADDR));
            case VerbsConstants.IBV_WR_RDMA_WRITE_WITH_IMM -> ibv_qp_ex$calls.wr_rdma_write_imm$raw(fns.rdmaWriteImm(),
                    qpx, Memory.readInt(wr + RDMA_RKEY), Memory.readLong(wr + RDMA_REMOTE_ADDR), imm);
            case VerbsConstants.IBV_WR_RDMA_READ -> ibv_qp_ex$calls.wr_rdma_read$raw(fns.rdmaRead(), qpx,
                    Memory.readInt(wr + RDMA_RKEY), Memory.readLong(wr + RDMA_REMOTE_ADDR));
            case VerbsConstants.IBV_WR_ATOMIC_CMP_AND_SWP -> ibv_qp_ex$calls.wr_atomic_cmp_swp$raw(fns.atomicCmpSwp(),
                    qpx, Memory.readInt(wr + ATOMIC_RKEY), Memory.readLong(wr + ATOMIC_REMOTE_ADDR),
                    Memory.readLong(wr + ATOMIC_COMPARE_ADD), Memory.readLong(wr + ATOMIC_SWAP));
            case VerbsConstants.IBV_WR_ATOMIC_FETCH_AND_ADD -> ibv_qp_ex$calls.wr_atomic_fetch_add$raw(
                    fns.atomicFetchAdd(), qpx, Memory.readInt(wr + ATOMIC_RKEY),
                    Memory.readLong(wr + ATOMIC_REMOTE_ADDR), Memory.readLong(wr + ATOMIC_COMPARE_ADD));
            case VerbsConstants.IBV_WR_BIND_MW -> ibv_qp_ex$calls.wr_bind_mw$raw(fns.bindMw(), qpx,
                    Memory.readLong(wr + BIND_MW), Memory.readInt(wr + BIND_RKEY), wr + BIND_INFO);
            case VerbsConstants.IBV_WR_LOCAL_INV -> ibv_qp_ex$calls.wr_local_inv$raw(fns.localInv(), qpx, imm);
            default -> ibv_qp_ex$calls.wr_atomic_write$raw(fns.atomicWrite(), qpx, Memory.readInt(wr + RDMA_RKEY),
                    Memory.readLong(wr + RDMA_REMOTE_ADDR), Memory.readLong(sgList + ibv_sge.addr$OFFSET));
        }
        if (qpType == VerbsConstants.IBV_QPT_UD) {
            ibv_qp_ex$calls.wr_set_ud_addr$raw(fns.setUdAddr(), qpx, Memory.readLong(wr + UD_AH),
                    Memory.readInt(wr + UD_REMOTE_QPN), Memory.readInt(wr + UD_REMOTE_QKEY));
        } else if (qpType == VerbsConstants.IBV_QPT_XRC_SEND) {
            ibv_qp_ex$calls.wr_set_xrc_srqn$raw(fns.setXrcSrqn(), qpx, Memory.readInt(wr + XRC_REMOTE_SRQN));
        }
        if (carriesData(opcode)) {
            setData(fns, qpx, flags, sgList, Memory.readInt(wr + ibv_send_wr.num_sge$OFFSET), inlineScratch);
        }
        return 0;
    }

    private static void setData(Functions fns, long qpx, int flags, long sgList, int count, long inlineScratch) {
        if ((flags & VerbsConstants.IBV_SEND_INLINE) != 0) {
            long address = Memory.readLong(sgList + ibv_sge.addr$OFFSET);
            long length = count == 0 ? 0 : Integer.toUnsignedLong(Memory.readInt(sgList + ibv_sge.length$OFFSET));
            if (count > 1) {
                Memory.requireNonNull(inlineScratch, "ibv_wr_set_inline_data", "inline scratch");
                length = 0;
                for (int i = 0; i < count; i++) {
                    long sge = sgList + i * SGE_SIZE;
                    long part = Integer.toUnsignedLong(Memory.readInt(sge + ibv_sge.length$OFFSET));
                    Memory.copy(Memory.readLong(sge + ibv_sge.addr$OFFSET), inlineScratch + length, part);
                    length += part;
                }
                address = inlineScratch;
            }
            ibv_qp_ex$calls.wr_set_inline_data$raw(fns.setInlineData(), qpx, address, length);
            return;
        }
        if (count == 1) {
            ibv_qp_ex$calls.wr_set_sge$raw(fns.setSge(), qpx, Memory.readInt(sgList + ibv_sge.lkey$OFFSET),
                    Memory.readLong(sgList + ibv_sge.addr$OFFSET), Memory.readInt(sgList + ibv_sge.length$OFFSET));
        } else {
            ibv_qp_ex$calls.wr_set_sge_list$raw(fns.setSgeList(), qpx, count, sgList);
        }
    }

    /** Whether the opcode takes a data setter (bind, local invalidate and atomic write do not). */
    private static boolean carriesData(int opcode) {
        return opcode != VerbsConstants.IBV_WR_BIND_MW && opcode != VerbsConstants.IBV_WR_LOCAL_INV
                && opcode != VerbsConstants.IBV_WR_ATOMIC_WRITE;
    }

    /** The opcode's {@code ibv_qp_ex} function, or null for an opcode {@link #post} does not translate. */
    private static MemorySegment opcodeFunction(Functions fns, int opcode) {
        return switch (opcode) {
            case VerbsConstants.IBV_WR_SEND -> fns.send();
            case VerbsConstants.IBV_WR_SEND_WITH_IMM -> fns.sendImm();
            case VerbsConstants.IBV_WR_SEND_WITH_INV -> fns.sendInv();
            case VerbsConstants.IBV_WR_RDMA_WRITE -> fns.rdmaWrite();
            case VerbsConstants.IBV_WR_RDMA_WRITE_WITH_IMM -> fns.rdmaWriteImm();
            case VerbsConstants.IBV_WR_RDMA_READ -> fns.rdmaRead();
            case VerbsConstants.IBV_WR_ATOMIC_CMP_AND_SWP -> fns.atomicCmpSwp();
            case VerbsConstants.IBV_WR_ATOMIC_FETCH_AND_ADD -> fns.atomicFetchAdd();
            case VerbsConstants.IBV_WR_BIND_MW -> fns.bindMw();
            case VerbsConstants.IBV_WR_LOCAL_INV -> fns.localInv();
            case VerbsConstants.IBV_WR_ATOMIC_WRITE -> fns.atomicWrite();
            default -> null;
        };
    }

    private static String opcodeFunctionName(int opcode) {
        return switch (opcode) {
            case VerbsConstants.IBV_WR_SEND -> "wr_send";
            case VerbsConstants.IBV_WR_SEND_WITH_IMM -> "wr_send_imm";
            case VerbsConstants.IBV_WR_SEND_WITH_INV -> "wr_send_inv";
            case VerbsConstants.IBV_WR_RDMA_WRITE -> "wr_rdma_write";
            case VerbsConstants.IBV_WR_RDMA_WRITE_WITH_IMM -> "wr_rdma_write_imm";
            case VerbsConstants.IBV_WR_RDMA_READ -> "wr_rdma_read";
            case VerbsConstants.IBV_WR_ATOMIC_CMP_AND_SWP -> "wr_atomic_cmp_swp";
            case VerbsConstants.IBV_WR_ATOMIC_FETCH_AND_ADD -> "wr_atomic_fetch_add";
            case VerbsConstants.IBV_WR_BIND_MW -> "wr_bind_mw";
            case VerbsConstants.IBV_WR_LOCAL_INV -> "wr_local_inv";
            default -> "wr_atomic_write";
        };
    }

    private static long qp(long qpx) {
        Memory.requireNonNull(qpx, "ibv_wr_start", "qp");
        return qpx;
    }
}
