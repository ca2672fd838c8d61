package dev.panamaverbs;

import dev.panamaverbs.values.Errno;
import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.BitFlag;
import dev.panamaverbs.values.CompletionField;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.Pointers;
import dev.panamaverbs.ffm.VerbsConstants;
import dev.panamaverbs.ffm.ibv_cq_ex;
import dev.panamaverbs.ffm.ibv_cq_init_attr_ex;
import dev.panamaverbs.ffm.ibv_poll_cq_attr;
import dev.panamaverbs.ffm.ibv_wc;
import dev.panamaverbs.gateway.CqEx;
import dev.panamaverbs.gateway.CqExReaders;
import dev.panamaverbs.gateway.ExtendedOps;
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
 * <p>Creation resolves the CQ's function pointers once ({@link CqEx#resolve}) and checks that the
 * provider set every one polling will call (start/next/end and the fixed readers, and those of the
 * requested fields), so a CQ that could not be polled is never handed out.
 */
final class ExtendedCompletions {
    private static final long WC_SIZE = ibv_wc.LAYOUT.byteSize();

    private final MemorySegment cq;
    private final long cqAddress;
    private final Set<CompletionField> fields;
    private final int fieldBits;
    /** {@code struct ibv_poll_cq_attr}, comp_mask 0, kept for every start_poll (and alive as long as this). */
    private final MemorySegment pollAttr;
    /** The function pointers of {@code cq}, read once here: polling reads none and allocates nothing. */
    private final CqEx.Functions fns;

    private ExtendedCompletions(MemorySegment cq, Set<CompletionField> fields) {
        this.cq = cq;
        this.cqAddress = cq.address();
        this.fields = fields.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(fields));
        this.fieldBits = BitFlag.toBits(fields);
        this.pollAttr = Arena.ofAuto().allocate(ibv_poll_cq_attr.LAYOUT);
        // Checked here first so a NULL one is reported against the creating verb (resolve would
        // name ibv_start_poll etc.).
        required(ibv_cq_ex.start_poll(cq), "start_poll");
        required(ibv_cq_ex.end_poll(cq), "end_poll");
        this.fns = CqEx.resolve(cqAddress);
        required(fns.readOpcode(), "read_opcode");
        required(fns.readVendorErr(), "read_vendor_err");
        required(fns.readWcFlags(), "read_wc_flags");
        requiredIfRequested(CompletionField.BYTE_LEN, fns.readByteLen(), "read_byte_len");
        requiredIfRequested(CompletionField.IMM, fns.readImmData(), "read_imm_data");
        requiredIfRequested(CompletionField.QP_NUM, fns.readQpNum(), "read_qp_num");
        requiredIfRequested(CompletionField.SRC_QP, fns.readSrcQp(), "read_src_qp");
        requiredIfRequested(CompletionField.SLID, fns.readSlid(), "read_slid");
        requiredIfRequested(CompletionField.SL, fns.readSl(), "read_sl");
        requiredIfRequested(CompletionField.DLID_PATH_BITS, fns.readDlidPathBits(), "read_dlid_path_bits");
        requiredIfRequested(CompletionField.COMPLETION_TIMESTAMP, fns.readCompletionTs(), "read_completion_ts");
        requiredIfRequested(CompletionField.COMPLETION_TIMESTAMP_WALLCLOCK, fns.readCompletionWallclockNs(),
                "read_completion_wallclock_ns");
        requiredIfRequested(CompletionField.FLOW_TAG, fns.readFlowTag(), "read_flow_tag");
    }

    private static void required(MemorySegment pointer, String op) {
        if (pointer.address() == 0) {
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
    static ExtendedCompletions create(VerbsResource context, CompletionQueueOptions options) {
        MemorySegment created;
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
            MemorySegment state = CallState.allocate(arena);
            created = NativeCalls.checkPointer("ibv_create_cq_ex",
                    MemorySegment.ofAddress(IbverbsCalls.ibv_create_cq_ex(state, context.handleAddress(), attr.address())),
                    CallState.errno(state));
        }
        MemorySegment cq = Pointers.sized(created, ibv_cq_ex.LAYOUT.byteSize());
        try {
            return new ExtendedCompletions(cq, options.fields());
        } catch (RuntimeException unusable) {
            // A provider that creates the CQ but leaves a needed op NULL: free it again.
            try {
                NativeCalls.destroy("ibv_destroy_cq", IbverbsCalls::ibv_destroy_cq, cq); // it never became a CompletionQueue
            } catch (RuntimeException e) {
                unusable.addSuppressed(e);
            }
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
            int rc = CqEx.startPoll(fns, cqAddress, pollAttr.address());
            if (rc == Errno.ENOENT) {
                break;
            }
            if (rc != 0) {
                if (count > 0) {
                    break; // hand over what was consumed; the next poll reports the failure
                }
                throw NativeCalls.failure("ibv_start_poll", Math.abs(rc)); // some providers answer -errno
            }
            try {
                copyCurrent(batch, count++);
            } finally {
                CqEx.endPoll(fns, cqAddress);
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
        entries.set(JAVA_INT, base + ibv_wc.opcode$OFFSET, CqExReaders.readOpcode(fns, cqAddress));
        entries.set(JAVA_INT, base + ibv_wc.vendor_err$OFFSET, CqExReaders.readVendorErr(fns, cqAddress));
        entries.set(JAVA_INT, base + ibv_wc.qp_num$OFFSET,
                requested(CompletionField.QP_NUM) ? CqExReaders.readQpNum(fns, cqAddress) : 0);
        boolean success = status == VerbsConstants.IBV_WC_SUCCESS;
        // Per verbs.h only wr_id, status, opcode, vendor_err and qp_num mean anything for a failure.
        entries.set(JAVA_INT, base + ibv_wc.wc_flags$OFFSET, success ? CqExReaders.readWcFlags(fns, cqAddress) : 0);
        entries.set(JAVA_INT, base + ibv_wc.byte_len$OFFSET,
                success && requested(CompletionField.BYTE_LEN) ? CqExReaders.readByteLen(fns, cqAddress) : 0);
        entries.set(JAVA_INT, base + ibv_wc.imm_data$OFFSET,
                success && requested(CompletionField.IMM) ? CqExReaders.readImmData(fns, cqAddress) : 0);
        entries.set(JAVA_INT, base + ibv_wc.src_qp$OFFSET,
                success && requested(CompletionField.SRC_QP) ? CqExReaders.readSrcQp(fns, cqAddress) : 0);
        entries.set(JAVA_SHORT, base + ibv_wc.pkey_index$OFFSET, (short) 0);
        entries.set(JAVA_SHORT, base + ibv_wc.slid$OFFSET,
                (short) (success && requested(CompletionField.SLID) ? CqExReaders.readSlid(fns, cqAddress) : 0));
        entries.set(JAVA_BYTE, base + ibv_wc.sl$OFFSET,
                (byte) (success && requested(CompletionField.SL) ? CqExReaders.readSl(fns, cqAddress) : 0));
        entries.set(JAVA_BYTE, base + ibv_wc.dlid_path_bits$OFFSET,
                (byte) (success && requested(CompletionField.DLID_PATH_BITS) ? CqExReaders.readDlidPathBits(fns, cqAddress) : 0));
        batch.setExtendedFields(index,
                requested(CompletionField.COMPLETION_TIMESTAMP) ? CqExReaders.readCompletionTs(fns, cqAddress) : 0L,
                requested(CompletionField.COMPLETION_TIMESTAMP_WALLCLOCK)
                        ? CqExReaders.readCompletionWallclockNs(fns, cqAddress) : 0L,
                success && requested(CompletionField.FLOW_TAG) ? CqExReaders.readFlowTag(fns, cqAddress) : 0);
    }
}
