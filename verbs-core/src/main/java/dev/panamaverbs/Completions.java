package dev.panamaverbs;

import dev.panamaverbs.internal.ImmediateData;
import dev.panamaverbs.jfr.FlightEvents;
import dev.panamaverbs.internal.SizeLimits;
import dev.panamaverbs.values.CompletionField;
import dev.panamaverbs.values.CompletionFlag;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.values.CompletionStatus;
import dev.panamaverbs.ffm.ibv_wc;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * A preallocated native array of {@code struct ibv_wc} that {@link CompletionQueue#poll(Completions)}
 * fills, read by index without allocating: the data path's completion buffer.
 *
 * <p>Memory: {@link #allocate(int)} takes it from an automatic arena (freed by the GC once this
 * object is unreachable, usable from any thread); {@link #allocate(Arena, int)} from the
 * caller's arena, which decides lifetime and thread access (a confined arena is the fastest to
 * read, but only its owner thread may poll into it). Entries past the count the last poll
 * returned hold stale data from earlier polls. Not thread-safe: one poller per instance. A poll
 * passes the array to the provider as a segment, so its arena stays open until the provider
 * returns (closing a shared arena while the provider runs throws {@link IllegalStateException}).
 *
 * <p>Per {@code verbs.h}, only {@link #wrId}, {@link #status}, {@link #vendorError} and
 * {@link #qpNumber} are defined for a failed completion; the other fields are meaningful only
 * when {@link #isSuccess} is true.
 */
public final class Completions {
    private static final long WC_SIZE = ibv_wc.LAYOUT.byteSize();

    private final MemorySegment entries;
    private final MemorySegment timestamps;
    private final MemorySegment wallclocks;
    private final MemorySegment flowTags;
    private final int capacity;

    private Completions(Arena arena, int capacity) {
        SizeLimits.checkCompletions("ibv_poll_cq", capacity);
        this.capacity = capacity;
        this.entries = arena.allocate(ibv_wc.LAYOUT, capacity);
        this.timestamps = arena.allocate(JAVA_LONG, capacity);
        this.wallclocks = arena.allocate(JAVA_LONG, capacity);
        this.flowTags = arena.allocate(JAVA_INT, capacity);
    }

    /**
     * A batch of {@code capacity} zeroed entries in an automatic (GC-managed) arena.
     *
     * @param capacity the number of entries
     * @return a batch of {@code capacity} zeroed entries in an automatic (GC-managed) arena
     * @throws IllegalArgumentException unless {@code capacity} is in 1..2^22 (the largest completion
     *         queue a device reports), before allocating
     */
    public static Completions allocate(int capacity) {
        return new Completions(Arena.ofAuto(), capacity);
    }

    /**
     * A batch of {@code capacity} zeroed entries in {@code arena}; it lives as long as the arena.
     *
     * @param arena the arena that owns the allocated memory
     * @param capacity the number of entries
     * @return a batch of {@code capacity} zeroed entries in {@code arena}
     * @throws IllegalArgumentException unless {@code capacity} is in 1..2^22 (the largest completion
     *         queue a device reports), before allocating
     */
    public static Completions allocate(Arena arena, int capacity) {
        return new Completions(Objects.requireNonNull(arena, "arena"), capacity);
    }

    /**
     * How many entries one poll can return.
     *
     * @return how many entries one poll can return
     */
    public int capacity() {
        return capacity;
    }

    /**
     * The {@code ibv_wc} array, for callers of the generated layer.
     *
     * @return the {@code ibv_wc} array, for callers of the generated layer
     */
    public MemorySegment segment() {
        return entries;
    }

    /** False once the arena holding the entries is closed: polling into it would write freed memory. */
    boolean isAlive() {
        return entries.scope().isAlive();
    }

    /** The array, passed to {@code ibv_poll_cq} as a segment (its arena stays open during the call). */
    MemorySegment entries() {
        return entries;
    }

    /** The entry {@code index} as its own segment, for the extended-CQ copy path and tests. */
    MemorySegment entry(int index) {
        return entries.asSlice(offset(index), WC_SIZE);
    }

    /**
     * Entry {@code index}'s fields that only extended CQs report, in their parallel slot arrays:
     * the completion timestamp, the wall-clock timestamp and the flow tag.
     */
    void setExtendedFields(int index, long timestamp, long wallclock, int flowTag) {
        timestamps.set(JAVA_LONG, (long) index * Long.BYTES, timestamp);
        wallclocks.set(JAVA_LONG, (long) index * Long.BYTES, wallclock);
        flowTags.set(JAVA_INT, (long) index * Integer.BYTES, flowTag);
    }

    private long offset(int index) {
        return Objects.checkIndex(index, capacity) * WC_SIZE;
    }

    /**
     * {@code wc.wr_id}: the work request id the poster chose.
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return {@code wc.wr_id}: the work request id the poster chose
     */
    public long wrId(int index) {
        return entries.get(JAVA_LONG, offset(index) + ibv_wc.wr_id$OFFSET);
    }

    /**
     * {@code wc.status} as its C value.
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return {@code wc.status} as its C value
     */
    public int statusValue(int index) {
        return entries.get(JAVA_INT, offset(index) + ibv_wc.status$OFFSET);
    }

    /**
     * {@code wc.status}; decoded through a table, no allocation.
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return {@code wc.status}
     */
    public CompletionStatus status(int index) {
        return CompletionStatus.of(statusValue(index));
    }

    /**
     * True when {@code wc.status == IBV_WC_SUCCESS}.
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return true when {@code wc.status == IBV_WC_SUCCESS}
     */
    public boolean isSuccess(int index) {
        return statusValue(index) == CompletionStatus.SUCCESS.value();
    }

    /**
     * {@code wc.opcode} as its C value (undefined for failed completions).
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return {@code wc.opcode} as its C value (undefined for failed completions)
     */
    public int opcodeValue(int index) {
        return entries.get(JAVA_INT, offset(index) + ibv_wc.opcode$OFFSET);
    }

    /**
     * {@code wc.opcode}, or {@code null} when the value is not a known opcode (a failed
     * completion leaves it undefined).
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return {@code wc.opcode}, or {@code null} when the value is not a known opcode (a failed completion leaves it undefined)
     */
    public CompletionOpcode opcode(int index) {
        return CompletionOpcode.orNull(opcodeValue(index));
    }

    /**
     * {@code wc.vendor_err}: the provider's own error code for a failed completion.
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return {@code wc.vendor_err}: the provider's own error code for a failed completion
     */
    public int vendorError(int index) {
        return entries.get(JAVA_INT, offset(index) + ibv_wc.vendor_err$OFFSET);
    }

    /**
     * {@code wc.byte_len}: bytes received (receive completions) or transferred. Unsigned in C.
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return {@code wc.byte_len}: bytes received (receive completions) or transferred
     */
    public int byteLength(int index) {
        return entries.get(JAVA_INT, offset(index) + ibv_wc.byte_len$OFFSET);
    }

    /**
     * {@code wc.imm_data}, valid with {@link CompletionFlag#WITH_IMM}: the raw 32 bits, as the
     * host stores C's {@code __be32} field (what {@link SendWorkRequest#immediateData} sent).
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return {@code wc.imm_data}, raw
     */
    public int immediateData(int index) {
        return entries.get(JAVA_INT, offset(index) + ibv_wc.imm_data$OFFSET);
    }

    /**
     * {@code ntohl(wc.imm_data)}, valid with {@link CompletionFlag#WITH_IMM}: the value a C sender
     * wrote with {@code htonl(value)}, or a Java sender with
     * {@link SendWorkRequest#immediateDataHostOrder}.
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return {@code wc.imm_data} in host order
     */
    public int immediateDataHostOrder(int index) {
        return ImmediateData.fromWire(immediateData(index));
    }

    /**
     * {@code wc.invalidated_rkey}, valid with {@link CompletionFlag#WITH_INV} (shares imm_data's slot).
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return {@code wc.invalidated_rkey}, valid with {@link CompletionFlag#WITH_INV} (shares imm_data's slot)
     */
    public int invalidatedRkey(int index) {
        return entries.get(JAVA_INT, offset(index) + ibv_wc.invalidated_rkey$OFFSET);
    }

    /**
     * {@code wc.qp_num}: the local QP this completion belongs to.
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return {@code wc.qp_num}: the local QP this completion belongs to
     */
    public int qpNumber(int index) {
        return entries.get(JAVA_INT, offset(index) + ibv_wc.qp_num$OFFSET);
    }

    /**
     * {@code wc.src_qp}: the remote QP number (UD receive completions).
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return {@code wc.src_qp}: the remote QP number (UD receive completions)
     */
    public int sourceQp(int index) {
        return entries.get(JAVA_INT, offset(index) + ibv_wc.src_qp$OFFSET);
    }

    /**
     * {@code wc.wc_flags}: bits of {@link CompletionFlag}.
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return {@code wc.wc_flags}: bits of {@link CompletionFlag}
     */
    public int flags(int index) {
        return entries.get(JAVA_INT, offset(index) + ibv_wc.wc_flags$OFFSET);
    }

    /**
     * True when {@code flag} is set in {@code wc.wc_flags}.
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @param flag the {@code wc_flags} bit asked about
     * @return true when {@code flag} is set in {@code wc.wc_flags}
     */
    public boolean hasFlag(int index, CompletionFlag flag) {
        return (flags(index) & flag.bit()) != 0;
    }

    /**
     * {@code wc.pkey_index} (UD/GSI), 0..65535.
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return {@code wc.pkey_index} (UD/GSI), 0..65535
     */
    public int pkeyIndex(int index) {
        return Short.toUnsignedInt(entries.get(JAVA_SHORT, offset(index) + ibv_wc.pkey_index$OFFSET));
    }

    /**
     * {@code wc.slid}: the source LID (UD on InfiniBand), 0..65535.
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return {@code wc.slid}: the source LID (UD on InfiniBand), 0..65535
     */
    public int slid(int index) {
        return Short.toUnsignedInt(entries.get(JAVA_SHORT, offset(index) + ibv_wc.slid$OFFSET));
    }

    /**
     * {@code wc.sl}: the service level (UD on InfiniBand), 0..255.
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return {@code wc.sl}: the service level (UD on InfiniBand), 0..255
     */
    public int sl(int index) {
        return Byte.toUnsignedInt(entries.get(JAVA_BYTE, offset(index) + ibv_wc.sl$OFFSET));
    }

    /**
     * {@code wc.dlid_path_bits} (UD on InfiniBand), 0..255.
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return {@code wc.dlid_path_bits} (UD on InfiniBand), 0..255
     */
    public int dlidPathBits(int index) {
        return Byte.toUnsignedInt(entries.get(JAVA_BYTE, offset(index) + ibv_wc.dlid_path_bits$OFFSET));
    }

    /**
     * {@code ibv_wc_read_completion_ts}: the completion's timestamp in device clock ticks. Filled
     * only by an extended CQ created with {@link CompletionField#COMPLETION_TIMESTAMP}; 0 otherwise.
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return {@code ibv_wc_read_completion_ts}: the completion's timestamp in device clock ticks
     */
    public long completionTimestamp(int index) {
        return timestamps.get(JAVA_LONG, (long) Objects.checkIndex(index, capacity) * Long.BYTES);
    }

    /**
     * {@code ibv_wc_read_completion_wallclock_ns}: the completion's timestamp in nanoseconds of the
     * host's real-time clock, as the provider converts it. Filled only by an extended CQ created
     * with {@link CompletionField#COMPLETION_TIMESTAMP_WALLCLOCK}; 0 otherwise.
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return the completion's wall-clock timestamp in nanoseconds (unsigned), or 0
     */
    public long completionWallclockNanos(int index) {
        return wallclocks.get(JAVA_LONG, (long) Objects.checkIndex(index, capacity) * Long.BYTES);
    }

    /**
     * {@code ibv_wc_read_flow_tag}: the tag of the flow rule that steered the received packet
     * ({@link FlowRule.Builder#tag(int)}). Filled only by an extended CQ created with
     * {@link CompletionField#FLOW_TAG}; 0 otherwise.
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     * @return the flow tag (a uint32_t), or 0
     */
    public int flowTag(int index) {
        return flowTags.get(JAVA_INT, (long) Objects.checkIndex(index, capacity) * Integer.BYTES);
    }

    /**
     * Throws {@link CompletionFailedException} (naming status, wr_id, vendor error and QP) when
     * entry {@code index} did not succeed; returns normally otherwise. Allocates only when it throws.
     *
     * @param index which completion of the batch, from 0 to the count the poll returned, minus 1
     */
    public void throwIfFailed(int index) {
        if (!isSuccess(index)) {
            throw new CompletionFailedException(statusValue(index), wrId(index), vendorError(index), qpNumber(index));
        }
    }

    /**
     * Records each failed entry among the first {@code count} as a
     * {@code dev.panamaverbs.FailedCompletion} JFR event of device {@code device}. With recording
     * off it returns after one check, reading no entry; with it on it reads each status and
     * allocates only for a failed entry, so the poll path stays allocation-free with recording off.
     */
    void recordFailures(String device, int count) {
        if (!FlightEvents.recordsFailedCompletions()) {
            return;
        }
        for (int i = 0; i < count; i++) {
            int status = statusValue(i);
            if (status != CompletionStatus.SUCCESS.value()) {
                CompletionStatus known = CompletionStatus.orNull(status);
                FlightEvents.failedCompletion(device, qpNumber(i), wrId(i), known != null ? known.name() : "UNKNOWN",
                        status, vendorError(i));
            }
        }
    }

    @Override
    public String toString() {
        return "Completions[capacity=" + capacity + "]";
    }
}
