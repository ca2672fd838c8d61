package dev.panamaverbs;

import dev.panamaverbs.internal.ImmediateData;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.BitFlag;
import dev.panamaverbs.values.SendFlag;
import dev.panamaverbs.values.WorkRequestOpcode;
import dev.panamaverbs.ffm.ibv_send_wr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.Set;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * A reusable send work request: a preallocated native {@code struct ibv_send_wr}, its
 * {@code ibv_sge} array and the {@code bad_wr} out slot, posted with
 * {@link QueuePair#postSend(SendWorkRequest)}. Posting copies the request into the send queue,
 * so the same object can be changed and posted again at once; the memory its entries point to
 * belongs to the device until the request completes (inline data excepted: it is copied at post).
 *
 * <p>Setters write native memory directly, return {@code this} and allocate nothing (except
 * {@link #flags(Set)}, which iterates a set): fill a request once, then change only what differs
 * per post ({@code wrId}, an entry, the remote address). Argument checks run in the setters;
 * the checks that depend on the queue pair (transport, SGE and inline limits) run at post time as
 * a few int compares. Requests chain through {@code next(SendWorkRequest)}. Not thread-safe.
 *
 * <p>Memory: {@link #allocate(int)} uses an automatic (GC-managed) arena, usable from any
 * thread; {@link #allocate(Arena, int)} the caller's arena, which decides lifetime and thread
 * access. Posting a request whose arena is closed is an {@link IllegalStateException}. A post
 * passes the request (with its entry array) to the provider as a segment, so its arena stays open
 * until the provider returns: closing a shared arena while the provider runs throws
 * {@link IllegalStateException}, as for any FFM downcall argument. Chained requests and inline
 * data in other arenas are not covered by that: keep them alive until the post returns.
 */
public final class SendWorkRequest extends WorkRequest<SendWorkRequest> {
    static final String VERB = "ibv_post_send";

    static final int INLINE = SendFlag.INLINE.bit();
    private static final int SIGNALED = SendFlag.SIGNALED.bit();

    /** The scatter/gather list: {@code sg_list}, {@code num_sge} and their Java mirrors. */
    private final SendEntries entries;
    /** Whether {@code imm_data} holds an rkey from {@link #invalidateRkey(int)}. */
    private boolean invalidateRkeySet;
    private int opcode = WorkRequestOpcode.SEND.value();
    /** {@code opcode}'s bit in {@link SendOperations}' sets, computed when set: a post only compares. */
    private int opcodeBit = SendOperations.bit(opcode);
    private int flags;
    /** The {@code wr} union and {@code bind_mw}: what the remote side is. */
    private final SendWrUnion union;
    /** What a post of this request acquired, for its release. */
    private final PostHolds holds;

    private SendWorkRequest(Arena arena, int maxSge) {
        super(VERB, arena, ibv_send_wr.LAYOUT, maxSge);
        this.union = new SendWrUnion(request);
        this.entries = new SendEntries(arena, request, maxSge);
        this.holds = new PostHolds(maxSge);
        request.set(JAVA_INT, ibv_send_wr.opcode$OFFSET, opcode);
    }

    /**
     * A SEND request with room for {@code maxSge} scatter/gather entries, in an automatic arena.
     *
     * @param maxSge the maximum number of scatter/gather entries per work request
     * @return a SEND request with room for {@code maxSge} scatter/gather entries, in an automatic arena
     * @throws IllegalArgumentException unless {@code maxSge} is in 0..65536, before allocating
     */
    public static SendWorkRequest allocate(int maxSge) {
        return new SendWorkRequest(Arena.ofAuto(), maxSge);
    }

    /**
     * A SEND request with room for {@code maxSge} scatter/gather entries, in {@code arena}.
     *
     * @param arena the arena that owns the allocated memory
     * @param maxSge the maximum number of scatter/gather entries per work request
     * @return a SEND request with room for {@code maxSge} scatter/gather entries, in {@code arena}
     * @throws IllegalArgumentException unless {@code maxSge} is in 0..65536, before allocating
     */
    public static SendWorkRequest allocate(Arena arena, int maxSge) {
        return new SendWorkRequest(Objects.requireNonNull(arena, "arena"), maxSge);
    }

    // ---- common fields ----

    /**
     * Sets {@code opcode}. Whether the queue pair's transport accepts it is checked at post time
     * (e.g. RDMA READ on UD is an {@link IllegalArgumentException} naming {@code ibv_post_send}).
     *
     * @param opcode the operation the request asks for
     * @return this send work request
     */
    public SendWorkRequest opcode(WorkRequestOpcode opcode) {
        Objects.requireNonNull(opcode, VERB + ": opcode");
        this.opcode = opcode.value();
        this.opcodeBit = SendOperations.bit(this.opcode);
        request.set(JAVA_INT, ibv_send_wr.opcode$OFFSET, this.opcode);
        return this;
    }

    /** {@return {@code opcode}} */
    public WorkRequestOpcode opcode() {
        return WorkRequestOpcode.of(opcode);
    }

    /**
     * Sets {@code send_flags} to exactly these flags.
     *
     * @param flags every send flag the request carries (none: an empty set)
     * @return this send work request
     */
    public SendWorkRequest flags(Set<SendFlag> flags) {
        return writeFlags(BitFlag.toBits(flags));
    }

    /** {@return {@code send_flags}} */
    public Set<SendFlag> flags() {
        return BitFlag.fromBits(SendFlag.class, flags);
    }

    /**
     * Sets or clears {@link SendFlag#SIGNALED}: whether this request produces a completion.
     *
     * @param signaled true to request a completion
     * @return this send work request
     */
    public SendWorkRequest signaled(boolean signaled) {
        return writeFlags(signaled ? flags | SIGNALED : flags & ~SIGNALED);
    }

    /**
     * Sets or clears {@link SendFlag#INLINE}: the CPU copies the data into the request at post
     * time, lkeys are not checked. Up to the queue pair's {@code max_inline_data} bytes, SEND and
     * RDMA WRITE only (checked at post).
     *
     * @param inline true to send the data inline
     * @return this send work request
     */
    public SendWorkRequest inline(boolean inline) {
        return writeFlags(inline ? flags | INLINE : flags & ~INLINE);
    }

    private SendWorkRequest writeFlags(int bits) {
        flags = bits;
        request.set(JAVA_INT, ibv_send_wr.send_flags$OFFSET, bits);
        return this;
    }

    /**
     * Sets {@code imm_data} for {@code *_WITH_IMM} opcodes to the raw 32 bits (C's {@code __be32}
     * field as the host stores it), so the receiver's {@link Completions#immediateData} reads the
     * same int. A peer written in C that calls {@code ntohl(wc.imm_data)} reads
     * {@code Integer.reverseBytes(immediate)} on a little-endian host: use
     * {@link #immediateDataHostOrder(int)} to talk to such a peer.
     *
     * @param immediate the immediate data, raw
     * @return this send work request
     */
    public SendWorkRequest immediateData(int immediate) {
        request.set(JAVA_INT, ibv_send_wr.imm_data$OFFSET, immediate);
        invalidateRkeySet = false;
        return this;
    }

    /**
     * Sets {@code imm_data} for {@code *_WITH_IMM} opcodes to {@code value} in network byte order,
     * as C's {@code wr.imm_data = htonl(value)} does: a C peer's {@code ntohl(wc.imm_data)} and a
     * Java peer's {@link Completions#immediateDataHostOrder} read {@code value}.
     *
     * @param value the immediate value, in host order
     * @return this send work request
     */
    public SendWorkRequest immediateDataHostOrder(int value) {
        return immediateData(ImmediateData.toWire(value));
    }

    /**
     * Sets {@code invalidate_rkey} for SEND_WITH_INV and LOCAL_INV (shares imm_data's slot).
     *
     * @param rkey the remote key
     * @return this send work request
     */
    public SendWorkRequest invalidateRkey(int rkey) {
        request.set(JAVA_INT, ibv_send_wr.imm_data$OFFSET, rkey);
        invalidateRkeySet = true;
        return this;
    }

    // ---- scatter/gather entries ----

    /**
     * Sets entry {@code index} to {@code [offset, offset + length)} of {@code region} (address
     * and lkey from the region). Writing entry 0 starts a new list of one entry, so a request
     * reused with fewer entries keeps none of the old ones; writing entry {@code i > 0} makes the
     * list at least {@code i + 1} long, so one later entry can be changed in place. Write the
     * entries in order from 0; {@link #sgeCount(int)} sets the count explicitly.
     *
     * @throws IllegalArgumentException if {@code index} is not in {@code 0..maxSge-1} or the range
     *         is not inside the region
     * @throws IllegalStateException if the region is deregistered
     * @param index the scatter/gather entry, from 0 to {@code maxSge - 1}
     * @param region the memory region
     * @param offset the offset in bytes
     * @param length the length in bytes
     * @return this send work request
     */
    public SendWorkRequest sge(int index, MemoryRegion region, long offset, int length) {
        entries.setRegion(index, region, offset, length);
        return this;
    }

    /**
     * One entry: {@code sge(0, region, offset, length)} and {@code sgeCount(1)}.
     *
     * @param region the memory region
     * @param offset the offset in bytes
     * @param length the length in bytes
     * @return this send work request
     */
    public SendWorkRequest sge(MemoryRegion region, long offset, int length) {
        sge(0, region, offset, length);
        return sgeCount(1);
    }

    /**
     * Sets entry {@code index} to inline data taken from {@code data} (any native memory, no
     * registration) and sets {@link SendFlag#INLINE}. The entry count follows as for
     * {@link #sge(int, MemoryRegion, long, int)}: entry 0 starts a new list. The data is copied when the request is
     * posted, so {@code data} may change right after the post returns.
     *
     * @throws IllegalArgumentException for heap or closed memory, a file mapping (the provider's
     *         copy of a page its truncated file lost dies with SIGBUS), or more than 2^31-1 bytes
     * @param index the scatter/gather entry, from 0 to {@code maxSge - 1}
     * @param data the bytes to send inline (native memory, copied at post time)
     * @return this send work request
     */
    public SendWorkRequest inlineData(int index, MemorySegment data) {
        entries.setInline(index, data);
        return inline(true);
    }

    /**
     * One inline entry: {@code inlineData(0, data)} and {@code sgeCount(1)}.
     *
     * @param data the bytes to send inline (native memory, copied at post time)
     * @return this send work request
     */
    public SendWorkRequest inlineData(MemorySegment data) {
        inlineData(0, data);
        return sgeCount(1);
    }

    /**
     * Sets {@code num_sge}: how many entries the device gathers, in order.
     *
     * @throws IllegalArgumentException if {@code count} is not in {@code 0..maxSge}
     * @param count how many
     * @return this send work request
     */
    public SendWorkRequest sgeCount(int count) {
        entries.count(count);
        return this;
    }

    /** {@return {@code num_sge}} */
    public int sgeCount() {
        return entries.count;
    }

    /** {@return the number of entries this request has room for} */
    public int maxSge() {
        return entries.maxSge();
    }

    /**
     * {@return entry {@code index}'s device address ({@code sg_list[index].addr})}
     *
     * @param index the scatter/gather entry, from 0 to {@code maxSge - 1}
     */
    public long sgeAddress(int index) {
        return entries.address(index);
    }

    /**
     * {@return entry {@code index}'s length ({@code sg_list[index].length})}
     *
     * @param index the scatter/gather entry, from 0 to {@code maxSge - 1}
     */
    public int sgeLength(int index) {
        return entries.length(index);
    }

    /**
     * {@return entry {@code index}'s lkey ({@code sg_list[index].lkey})}
     *
     * @param index the scatter/gather entry, from 0 to {@code maxSge - 1}
     */
    public int sgeLkey(int index) {
        return entries.lkey(index);
    }

    /** {@return the bytes the entries in use cover ({@code num_sge} entries)} */
    public long totalLength() {
        return entries.totalLength();
    }

    // ---- the wr union: remote side ----

    /**
     * Sets {@code wr.rdma}: the remote address and rkey of RDMA WRITE / READ (the remote range
     * is the peer's {@link MemoryRegion#addressAt(long, long)} and {@link MemoryRegion#rkey()}).
     * Choose the opcode with {@link #opcode(WorkRequestOpcode)}.
     *
     * @param remoteAddress the remote virtual address
     * @param rkey the remote key
     * @return this send work request
     */
    public SendWorkRequest rdma(long remoteAddress, int rkey) {
        union.rdma(remoteAddress, rkey);
        return this;
    }

    /**
     * An atomic compare-and-swap: sets the opcode to {@link WorkRequestOpcode#ATOMIC_CMP_AND_SWP}
     * and {@code wr.atomic}. The 64-bit word at {@code remoteAddress} becomes {@code swap} if it
     * equals {@code compare}; its old value lands in the one 8-byte local entry.
     *
     * @throws IllegalArgumentException if {@code remoteAddress} is not 8-byte aligned
     * @param remoteAddress the remote virtual address
     * @param rkey the remote key
     * @param compare the value to compare with
     * @param swap the value to swap in
     * @return this send work request
     */
    public SendWorkRequest atomicCompareAndSwap(long remoteAddress, int rkey, long compare, long swap) {
        return atomic(WorkRequestOpcode.ATOMIC_CMP_AND_SWP, remoteAddress, rkey, compare, swap);
    }

    /**
     * An atomic fetch-and-add: sets the opcode to {@link WorkRequestOpcode#ATOMIC_FETCH_AND_ADD}
     * and {@code wr.atomic}. {@code add} is added to the 64-bit word at {@code remoteAddress};
     * its old value lands in the one 8-byte local entry.
     *
     * @throws IllegalArgumentException if {@code remoteAddress} is not 8-byte aligned
     * @param remoteAddress the remote virtual address
     * @param rkey the remote key
     * @param add the value to add
     * @return this send work request
     */
    public SendWorkRequest atomicFetchAndAdd(long remoteAddress, int rkey, long add) {
        return atomic(WorkRequestOpcode.ATOMIC_FETCH_AND_ADD, remoteAddress, rkey, add, 0);
    }

    private SendWorkRequest atomic(WorkRequestOpcode atomicOpcode, long remoteAddress, int rkey, long compareAdd, long swap) {
        union.atomic(atomicOpcode, remoteAddress, rkey, compareAdd, swap);
        return opcode(atomicOpcode);
    }

    /**
     * Sets {@code wr.ud}: the destination of a UD send. The address handle stays referenced by
     * this request and is held open while a post uses it.
     *
     * @param remoteQkey the destination's Q_Key (unsigned 32 bits)
     * @throws IllegalArgumentException if {@code remoteQpn} is not a 24-bit QP number
     * @param addressHandle the address handle
     * @param remoteQpn the remote queue pair number
     * @return this send work request
     */
    public SendWorkRequest ud(AddressHandle addressHandle, int remoteQpn, int remoteQkey) {
        union.ud(addressHandle, remoteQpn, remoteQkey);
        return this;
    }

    /**
     * A {@code BIND_MW} request binding the <b>type 2</b> window {@code window} to
     * {@code [offset, offset + length)} of {@code region}: sets the opcode to
     * {@link WorkRequestOpcode#BIND_MW} and fills {@code wr.bind_mw} ({@code mw}, {@code rkey},
     * {@code bind_info.mr}, {@code addr}, {@code length}, {@code mw_access_flags}). Window and
     * region stay referenced by this request; posting it holds them open during the post. Type 1
     * windows bind with {@link MemoryWindow#bind} instead.
     *
     * <p>{@code newRkey}: a type 2 window's rkey is its index (upper 24 bits, fixed by the device)
     * and a key the consumer chooses (low 8 bits). Pass {@link MemoryWindow#incrementRkey
     * MemoryWindow.incrementRkey(window.rkey())} (C's {@code ibv_inc_rkey}) or any value with the
     * window's upper 24 bits. Once the post succeeds the window's {@link MemoryWindow#rkey()} is
     * {@code newRkey}, and the window becomes a dependent of {@code region} as a type 1 bind
     * makes it (closing the region closes the window first). A type 2 window must be unbound
     * (freshly allocated, or invalidated by a {@code LOCAL_INV} / {@code SEND_WITH_INV} of its
     * rkey) before it is bound again; the binding cannot be zero length.
     *
     * <p>Checked here: a type 2 window and a region, both open and of the same protection domain,
     * the region registered with {@link AccessFlag#MW_BIND}; a non-empty range inside it; window
     * access made of {@link AccessFlag#REMOTE_READ}, {@link AccessFlag#REMOTE_WRITE},
     * {@link AccessFlag#REMOTE_ATOMIC} and {@link AccessFlag#ZERO_BASED} (remote write or atomic
     * needing a region with local write). At post: both still open and of the queue pair's
     * protection domain, and an RC or UC queue pair.
     *
     * @throws IllegalArgumentException if a requirement above is not met
     * @throws IllegalStateException if the window or region is closed
     * @param window the memory window
     * @param newRkey the new remote key
     * @param region the memory region
     * @param offset the offset in bytes
     * @param length the length in bytes
     * @param access the access flags
     * @return this send work request
     */
    public SendWorkRequest bindMemoryWindow(MemoryWindow window, int newRkey, MemoryRegion region, long offset,
            long length, Set<AccessFlag> access) {
        union.bindMemoryWindow(window, newRkey, region, offset, length, access);
        return opcode(WorkRequestOpcode.BIND_MW);
    }

    /** The {@code wr} union's writer and what it holds, for the post-time checks. */
    SendWrUnion union() {
        return union;
    }

    /** {@return the address handle of {@link #ud}, or {@code null}} */
    public AddressHandle addressHandle() {
        return union.addressHandle;
    }

    // ---- for QueuePair ----

    /**
     * The native {@code struct ibv_send_wr}, read-only, for callers of the generated layer that
     * inspect it. Read-only so that no caller can plant {@code sg_list}, {@code next} or
     * {@code wr.ud.ah} pointers the provider would follow: change the request through its setters.
     *
     * @return the native {@code struct ibv_send_wr}, read-only, for callers of the generated layer that inspect it
     */
    public MemorySegment segment() {
        return readOnlyRequest;
    }

    /** Entry {@code index}'s length, from the Java mirror. */
    int entryLength(int index) {
        return entries.lengths[index];
    }

    /** The region behind entry {@code index}, or {@code null} for an inline or never-set entry. */
    MemoryRegion region(int index) {
        return entries.regions[index];
    }

    /** {@code opcode} as its C value. */
    int opcodeValue() {
        return opcode;
    }

    /** {@code opcode}'s {@link SendOperations} bit (0 outside 0..31). */
    int opcodeBit() {
        return opcodeBit;
    }

    /** What the {@code wr} union holds: one of the {@code SendWrUnion.REMOTE_*} constants. */
    int remoteKind() {
        return union.kind;
    }

    /** {@code send_flags} as bits. */
    int flagBits() {
        return flags;
    }

    /** {@code invalidate_rkey} as {@link #invalidateRkey(int)} set it (meaningful when {@link #hasInvalidateRkey()}). */
    int invalidateRkeyValue() {
        return request.get(JAVA_INT, ibv_send_wr.imm_data$OFFSET);
    }

    /** Whether {@link #invalidateRkey(int)} set {@code invalidate_rkey} (and nothing overwrote it since). */
    boolean hasInvalidateRkey() {
        return invalidateRkeySet;
    }

    /** What a post of this request holds. */
    PostHolds holds() {
        return holds;
    }

    /** The memory of inline entry {@code index}, or {@code null} for a region entry. */
    MemorySegment inlineMemory(int index) {
        return entries.inlineMemory[index];
    }

    @Override
    public String toString() {
        return "SendWorkRequest[wr_id=" + wrId() + ", " + WorkRequestOpcode.orNull(opcode)
                + ", flags=" + flags() + ", num_sge=" + entries.count + "/" + entries.maxSge()
                + (next() == null ? "" : ", chained") + "]";
    }
}
