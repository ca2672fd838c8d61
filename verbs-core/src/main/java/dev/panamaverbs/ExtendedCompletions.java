package dev.panamaverbs;

import dev.panamaverbs.error.Errno;
import dev.panamaverbs.error.VerbsUnsupportedException;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_cq_ex;
import dev.panamaverbs.ffm.ibv_cq_init_attr_ex;
import dev.panamaverbs.ffm.ibv_poll_cq_attr;
import dev.panamaverbs.ffm.ibv_wc;
import dev.panamaverbs.loader.ExtendedOps;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.EnumSet;
import java.util.Set;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The {@code struct ibv_cq_ex} side of a {@link CompletionQueue}: creation through
 * {@code ibv_create_cq_ex} and polling with {@code ibv_start_poll} / {@code ibv_end_poll} and
 * the {@code ibv_wc_read_*} calls (all {@code static inline} in verbs.h,
 * reimplemented here as calls through the CQ's own function pointers), copying each completion
 * into a {@link Completions} entry so both CQ kinds are read the same way.
 *
 * <p>The function pointers are read once at creation (providers set them when creating the CQ)
 * and kept as segments, so polling allocates nothing. The handles are not {@code critical}:
 * {@code start_poll} may take a lock another thread holds across Java code until its
 * {@code end_poll}, and a critical call must never wait.
 */
final class ExtendedCompletions {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle INT_OF_CQ_ATTR = LINKER.downcallHandle(
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle INT_OF_CQ = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
    private static final MethodHandle BYTE_OF_CQ = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_BYTE, JAVA_LONG));
    private static final MethodHandle LONG_OF_CQ = LINKER.downcallHandle(FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    private static final MethodHandle VOID_OF_CQ = LINKER.downcallHandle(FunctionDescriptor.ofVoid(JAVA_LONG));

    private static final long WC_SIZE = ibv_wc.LAYOUT.byteSize();

    private final MemorySegment cq;
    private final long cqAddress;
    private final Set<CompletionField> fields;
    private final int fieldBits;
    /** {@code struct ibv_poll_cq_attr}, comp_mask 0, kept for every start_poll. */
    private final MemorySegment pollAttr;

    private final MemorySegment startPoll;
    private final MemorySegment endPoll;
    private final MemorySegment readOpcode;
    private final MemorySegment readVendorErr;
    private final MemorySegment readWcFlags;
    private final MemorySegment readByteLen;
    private final MemorySegment readImmData;
    private final MemorySegment readQpNum;
    private final MemorySegment readSrcQp;
    private final MemorySegment readSlid;
    private final MemorySegment readSl;
    private final MemorySegment readDlidPathBits;
    private final MemorySegment readCompletionTs;

    private ExtendedCompletions(MemorySegment cq, Set<CompletionField> fields) {
        this.cq = cq;
        this.cqAddress = cq.address();
        this.fields = fields.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(fields));
        this.fieldBits = BitFlag.toBits(fields);
        this.pollAttr = Arena.ofAuto().allocate(ibv_poll_cq_attr.LAYOUT);
        this.startPoll = required(ibv_cq_ex.start_poll(cq), "start_poll");
        this.endPoll = required(ibv_cq_ex.end_poll(cq), "end_poll");
        this.readOpcode = required(ibv_cq_ex.read_opcode(cq), "read_opcode");
        this.readVendorErr = required(ibv_cq_ex.read_vendor_err(cq), "read_vendor_err");
        this.readWcFlags = required(ibv_cq_ex.read_wc_flags(cq), "read_wc_flags");
        this.readByteLen = ifRequested(CompletionField.BYTE_LEN, ibv_cq_ex.read_byte_len(cq), "read_byte_len");
        this.readImmData = ifRequested(CompletionField.IMM, ibv_cq_ex.read_imm_data(cq), "read_imm_data");
        this.readQpNum = ifRequested(CompletionField.QP_NUM, ibv_cq_ex.read_qp_num(cq), "read_qp_num");
        this.readSrcQp = ifRequested(CompletionField.SRC_QP, ibv_cq_ex.read_src_qp(cq), "read_src_qp");
        this.readSlid = ifRequested(CompletionField.SLID, ibv_cq_ex.read_slid(cq), "read_slid");
        this.readSl = ifRequested(CompletionField.SL, ibv_cq_ex.read_sl(cq), "read_sl");
        this.readDlidPathBits = ifRequested(CompletionField.DLID_PATH_BITS, ibv_cq_ex.read_dlid_path_bits(cq),
                "read_dlid_path_bits");
        this.readCompletionTs = ifRequested(CompletionField.COMPLETION_TIMESTAMP, ibv_cq_ex.read_completion_ts(cq),
                "read_completion_ts");
    }

    private static MemorySegment required(MemorySegment pointer, String op) {
        if (pointer.equals(MemorySegment.NULL)) {
            throw new VerbsUnsupportedException("ibv_create_cq_ex", "the provider left ibv_cq_ex." + op + " NULL");
        }
        return pointer;
    }

    private MemorySegment ifRequested(CompletionField field, MemorySegment pointer, String op) {
        return (fieldBits & field.bit()) == 0 ? null : required(pointer, op);
    }

    /**
     * {@code ibv_create_cq_ex(context, &attr)} with {@code attr} built from {@code options}; the
     * caller has validated cqe and comp_vector and holds the context (and channel).
     */
    static ExtendedCompletions create(Context context, CompletionQueueOptions options) {
        long created;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_cq_init_attr_ex.LAYOUT);
            ibv_cq_init_attr_ex.cqe(attr, options.cqe());
            ibv_cq_init_attr_ex.channel(attr, options.channel() == null ? MemorySegment.NULL : options.channel().segment());
            ibv_cq_init_attr_ex.comp_vector(attr, options.completionVector());
            ibv_cq_init_attr_ex.wc_flags(attr, options.wcFlags());
            int flags = options.createFlags();
            if (flags != 0) {
                ibv_cq_init_attr_ex.comp_mask(attr, VerbsConstants.IBV_CQ_INIT_ATTR_MASK_FLAGS);
                ibv_cq_init_attr_ex.flags(attr, flags);
            }
            created = ExtendedOps.createCqEx(context.address(), attr.address());
        }
        MemorySegment cq = MemorySegment.ofAddress(created).reinterpret(ibv_cq_ex.LAYOUT.byteSize());
        try {
            return new ExtendedCompletions(cq, options.fields());
        } catch (RuntimeException unusable) {
            // A provider that creates the CQ but leaves a needed op NULL: free it again.
            CompletionQueue.destroyRaw(cq, unusable);
            throw unusable;
        }
    }

    /** The {@code struct ibv_cq_ex} (its prefix is the {@code struct ibv_cq}). */
    MemorySegment segment() {
        return cq;
    }

    /** The requested fields ({@code wc_flags}). */
    Set<CompletionField> fields() {
        return fields;
    }

    /**
     * Up to {@code max} completions into {@code batch}, one {@code ibv_start_poll} /
     * {@code ibv_end_poll} pair per completion. Not the man page's start/next.../end loop on
     * purpose: on rxe (rdma-core 44, the test VM) that loop, after a {@code next_poll} that
     * answered ENOENT, made a later poll report a completion twice (the consumer index moved on
     * twice). A start/end pair consumes exactly the one current entry on every provider.
     * {@code end_poll} runs only after a {@code start_poll} that returned 0.
     */
    int poll(Completions batch, int max) {
        int count = 0;
        while (count < max) {
            int rc;
            try {
                rc = (int) INT_OF_CQ_ATTR.invokeExact(startPoll, cqAddress, pollAttr.address());
            } catch (Throwable t) {
                throw NativeCalls.propagate("ibv_start_poll", t);
            }
            if (rc == Errno.ENOENT) {
                break;
            }
            if (rc != 0) {
                if (count > 0) {
                    break; // hand over what was consumed; the next poll reports the failure
                }
                throw NativeCalls.failure("ibv_start_poll", Math.abs(rc));
            }
            try {
                copyCurrent(batch, count++);
            } catch (Throwable t) {
                throw NativeCalls.propagate("ibv_wc_read_*", t);
            } finally {
                try {
                    VOID_OF_CQ.invokeExact(endPoll, cqAddress);
                } catch (Throwable t) {
                    throw NativeCalls.propagate("ibv_end_poll", t);
                }
            }
        }
        return count;
    }

    /** Copies the current completion into entry {@code index}: fields not requested read as 0. */
    private void copyCurrent(Completions batch, int index) throws Throwable {
        MemorySegment entries = batch.segment();
        long base = index * WC_SIZE;
        int status = cq.get(JAVA_INT, ibv_cq_ex.status$OFFSET);
        entries.set(JAVA_LONG, base + ibv_wc.wr_id$OFFSET, cq.get(JAVA_LONG, ibv_cq_ex.wr_id$OFFSET));
        entries.set(JAVA_INT, base + ibv_wc.status$OFFSET, status);
        entries.set(JAVA_INT, base + ibv_wc.opcode$OFFSET, (int) INT_OF_CQ.invokeExact(readOpcode, cqAddress));
        entries.set(JAVA_INT, base + ibv_wc.vendor_err$OFFSET, (int) INT_OF_CQ.invokeExact(readVendorErr, cqAddress));
        entries.set(JAVA_INT, base + ibv_wc.qp_num$OFFSET, readInt(readQpNum));
        boolean success = status == VerbsConstants.IBV_WC_SUCCESS;
        // Per verbs.h only wr_id, status, opcode, vendor_err and qp_num mean anything for a failure.
        entries.set(JAVA_INT, base + ibv_wc.wc_flags$OFFSET, success ? (int) INT_OF_CQ.invokeExact(readWcFlags, cqAddress) : 0);
        entries.set(JAVA_INT, base + ibv_wc.byte_len$OFFSET, success ? readInt(readByteLen) : 0);
        entries.set(JAVA_INT, base + ibv_wc.imm_data$OFFSET, success ? readInt(readImmData) : 0);
        entries.set(JAVA_INT, base + ibv_wc.src_qp$OFFSET, success ? readInt(readSrcQp) : 0);
        entries.set(JAVA_SHORT, base + ibv_wc.pkey_index$OFFSET, (short) 0);
        entries.set(JAVA_SHORT, base + ibv_wc.slid$OFFSET, (short) (success ? readInt(readSlid) : 0));
        entries.set(JAVA_BYTE, base + ibv_wc.sl$OFFSET, success ? readByte(readSl) : 0);
        entries.set(JAVA_BYTE, base + ibv_wc.dlid_path_bits$OFFSET, success ? readByte(readDlidPathBits) : 0);
        batch.timestampSlots().set(JAVA_LONG, (long) index * Long.BYTES,
                readCompletionTs == null ? 0L : (long) LONG_OF_CQ.invokeExact(readCompletionTs, cqAddress));
    }

    private int readInt(MemorySegment function) throws Throwable {
        return function == null ? 0 : (int) INT_OF_CQ.invokeExact(function, cqAddress);
    }

    private byte readByte(MemorySegment function) throws Throwable {
        return function == null ? 0 : (byte) BYTE_OF_CQ.invokeExact(function, cqAddress);
    }
}
