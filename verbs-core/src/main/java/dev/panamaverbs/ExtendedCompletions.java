package dev.panamaverbs;

import dev.panamaverbs.error.VerbsException;
import dev.panamaverbs.error.VerbsUnsupportedException;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_cq_ex;
import dev.panamaverbs.ffm.ibv_cq_init_attr_ex;
import dev.panamaverbs.ffm.ibv_poll_cq_attr;
import dev.panamaverbs.ffm.ibv_wc;
import dev.panamaverbs.loader.CqEx;
import dev.panamaverbs.loader.ExtendedOps;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The {@code struct ibv_cq_ex} side of a {@link CompletionQueue}: creation through
 * {@code ibv_create_cq_ex} and polling with {@code ibv_start_poll} / {@code ibv_end_poll} and
 * the {@code ibv_wc_read_*} calls (all {@code static inline} in verbs.h, called through the
 * loader's {@link CqEx}), copying each completion into a {@link Completions} entry so both CQ
 * kinds are read the same way. Polling allocates nothing.
 *
 * <p>Creation checks that the provider set every function pointer polling will call (the fixed
 * ones and those of the requested fields), so a CQ that could not be polled is never handed out.
 */
final class ExtendedCompletions {
    private static final long WC_SIZE = ibv_wc.LAYOUT.byteSize();

    private final MemorySegment cq;
    private final long cqAddress;
    private final Set<CompletionField> fields;
    private final int fieldBits;
    /** {@code struct ibv_poll_cq_attr}, comp_mask 0, kept for every start_poll (and alive as long as this). */
    private final MemorySegment pollAttr;

    private ExtendedCompletions(MemorySegment cq, Set<CompletionField> fields) {
        this.cq = cq;
        this.cqAddress = cq.address();
        this.fields = fields.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(fields));
        this.fieldBits = BitFlag.toBits(fields);
        this.pollAttr = Arena.ofAuto().allocate(ibv_poll_cq_attr.LAYOUT);
        required(ibv_cq_ex.start_poll(cq), "start_poll");
        required(ibv_cq_ex.end_poll(cq), "end_poll");
        required(ibv_cq_ex.read_opcode(cq), "read_opcode");
        required(ibv_cq_ex.read_vendor_err(cq), "read_vendor_err");
        required(ibv_cq_ex.read_wc_flags(cq), "read_wc_flags");
        requiredIfRequested(CompletionField.BYTE_LEN, ibv_cq_ex.read_byte_len(cq), "read_byte_len");
        requiredIfRequested(CompletionField.IMM, ibv_cq_ex.read_imm_data(cq), "read_imm_data");
        requiredIfRequested(CompletionField.QP_NUM, ibv_cq_ex.read_qp_num(cq), "read_qp_num");
        requiredIfRequested(CompletionField.SRC_QP, ibv_cq_ex.read_src_qp(cq), "read_src_qp");
        requiredIfRequested(CompletionField.SLID, ibv_cq_ex.read_slid(cq), "read_slid");
        requiredIfRequested(CompletionField.SL, ibv_cq_ex.read_sl(cq), "read_sl");
        requiredIfRequested(CompletionField.DLID_PATH_BITS, ibv_cq_ex.read_dlid_path_bits(cq), "read_dlid_path_bits");
        requiredIfRequested(CompletionField.COMPLETION_TIMESTAMP, ibv_cq_ex.read_completion_ts(cq),
                "read_completion_ts");
    }

    private static void required(MemorySegment pointer, String op) {
        if (pointer.equals(MemorySegment.NULL)) {
            throw new VerbsUnsupportedException("ibv_create_cq_ex", "the provider left ibv_cq_ex." + op + " NULL");
        }
    }

    private void requiredIfRequested(CompletionField field, MemorySegment pointer, String op) {
        if (requested(field)) {
            required(pointer, op);
        }
    }

    private boolean requested(CompletionField field) {
        return (fieldBits & field.bit()) != 0;
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
            ibv_cq_init_attr_ex.channel(attr,
                    options.channel() == null ? MemorySegment.NULL : options.channel().handleSegment());
            ibv_cq_init_attr_ex.comp_vector(attr, options.completionVector());
            ibv_cq_init_attr_ex.wc_flags(attr, options.wcFlags());
            int flags = options.createFlags();
            if (flags != 0) {
                ibv_cq_init_attr_ex.comp_mask(attr, VerbsConstants.IBV_CQ_INIT_ATTR_MASK_FLAGS);
                ibv_cq_init_attr_ex.flags(attr, flags);
            }
            created = ExtendedOps.createCqEx(context.handleAddress(), attr.address());
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
     * purpose: rxe's {@code next_poll} that answers ENOENT moves the consumer index on, and its
     * {@code end_poll} moves it once more, so a later poll reports a stale completion again (a
     * provider bug, see {@link CqEx}). A start/end pair consumes exactly the one current entry on
     * every provider. {@code end_poll} runs only after a {@code start_poll} that found one.
     */
    int poll(Completions batch, int max) {
        if (!batch.isAlive()) {
            // Checked before start_poll: a completion consumed and then not copied would be lost.
            throw new IllegalStateException("ibv_start_poll: the arena of " + batch + " is closed");
        }
        int count = 0;
        while (count < max) {
            boolean found;
            try {
                found = CqEx.startPoll(cqAddress, pollAttr.address());
            } catch (VerbsException failed) {
                if (count > 0) {
                    break; // hand over what was consumed; the next poll reports the failure
                }
                throw failed;
            }
            if (!found) {
                break;
            }
            try {
                copyCurrent(batch, count++);
            } finally {
                CqEx.endPoll(cqAddress);
            }
        }
        return count;
    }

    /** Copies the current completion into entry {@code index}: fields not requested read as 0. */
    private void copyCurrent(Completions batch, int index) {
        MemorySegment entries = batch.segment();
        long base = index * WC_SIZE;
        int status = CqEx.status(cqAddress);
        entries.set(JAVA_LONG, base + ibv_wc.wr_id$OFFSET, CqEx.wrId(cqAddress));
        entries.set(JAVA_INT, base + ibv_wc.status$OFFSET, status);
        entries.set(JAVA_INT, base + ibv_wc.opcode$OFFSET, CqEx.readOpcode(cqAddress));
        entries.set(JAVA_INT, base + ibv_wc.vendor_err$OFFSET, CqEx.readVendorErr(cqAddress));
        entries.set(JAVA_INT, base + ibv_wc.qp_num$OFFSET,
                requested(CompletionField.QP_NUM) ? CqEx.readQpNum(cqAddress) : 0);
        boolean success = status == VerbsConstants.IBV_WC_SUCCESS;
        // Per verbs.h only wr_id, status, opcode, vendor_err and qp_num mean anything for a failure.
        entries.set(JAVA_INT, base + ibv_wc.wc_flags$OFFSET, success ? CqEx.readWcFlags(cqAddress) : 0);
        entries.set(JAVA_INT, base + ibv_wc.byte_len$OFFSET,
                success && requested(CompletionField.BYTE_LEN) ? CqEx.readByteLen(cqAddress) : 0);
        entries.set(JAVA_INT, base + ibv_wc.imm_data$OFFSET,
                success && requested(CompletionField.IMM) ? CqEx.readImmData(cqAddress) : 0);
        entries.set(JAVA_INT, base + ibv_wc.src_qp$OFFSET,
                success && requested(CompletionField.SRC_QP) ? CqEx.readSrcQp(cqAddress) : 0);
        entries.set(JAVA_SHORT, base + ibv_wc.pkey_index$OFFSET, (short) 0);
        entries.set(JAVA_SHORT, base + ibv_wc.slid$OFFSET,
                (short) (success && requested(CompletionField.SLID) ? CqEx.readSlid(cqAddress) : 0));
        entries.set(JAVA_BYTE, base + ibv_wc.sl$OFFSET,
                (byte) (success && requested(CompletionField.SL) ? CqEx.readSl(cqAddress) : 0));
        entries.set(JAVA_BYTE, base + ibv_wc.dlid_path_bits$OFFSET,
                (byte) (success && requested(CompletionField.DLID_PATH_BITS) ? CqEx.readDlidPathBits(cqAddress) : 0));
        batch.timestampSlots().set(JAVA_LONG, (long) index * Long.BYTES,
                requested(CompletionField.COMPLETION_TIMESTAMP) ? CqEx.readCompletionTs(cqAddress) : 0L);
    }
}
