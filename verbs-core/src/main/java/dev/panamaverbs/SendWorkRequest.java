package dev.panamaverbs;

import dev.panamaverbs.ffm.ibv_mw_bind_info;
import dev.panamaverbs.ffm.ibv_send_wr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A reusable send work request: a preallocated native {@code struct ibv_send_wr}, its
 * {@code ibv_sge} array and the {@code bad_wr} out slot, posted with
 * {@link QueuePair#postSend(SendWorkRequest)}. Posting copies the request into the send queue,
 * so the same object can be changed and posted again at once; the memory its entries point to
 * belongs to the device until the request completes (inline data excepted: it is copied at post).
 *
 * <p>Setters write native memory directly, return {@code this} and allocate nothing (except
 * {@link #flags(Set)}, which iterates a set): fill a request once, then change only what differs
 * per post ({@link #wrId}, an entry, the remote address). Argument checks run in the setters;
 * the checks that depend on the queue pair (transport, SGE and inline limits) run at post time as
 * a few int compares. Requests chain through {@link #next(SendWorkRequest)}. Not thread-safe.
 *
 * <p>Memory: {@link #allocate(int)} uses an automatic (GC-managed) arena, usable from any
 * thread; {@link #allocate(Arena, int)} the caller's arena, which decides lifetime and thread
 * access. Posting a request whose arena is closed is an {@link IllegalStateException}.
 */
public final class SendWorkRequest {
    static final String VERB = "ibv_post_send";
    private static final WorkRequestChain<SendWorkRequest> CHAIN = new WorkRequestChain<>(VERB,
            SendWorkRequest::next, SendWorkRequest::address, SendWorkRequest::wrId);

    private static final long WR_UNION = ibv_send_wr.LAYOUT.byteOffset(groupElement("wr"));
    private static final long RDMA_REMOTE_ADDR = unionOffset("rdma", "remote_addr");
    private static final long RDMA_RKEY = unionOffset("rdma", "rkey");
    private static final long ATOMIC_REMOTE_ADDR = unionOffset("atomic", "remote_addr");
    private static final long ATOMIC_COMPARE_ADD = unionOffset("atomic", "compare_add");
    private static final long ATOMIC_SWAP = unionOffset("atomic", "swap");
    private static final long ATOMIC_RKEY = unionOffset("atomic", "rkey");
    private static final long UD_AH = unionOffset("ud", "ah");
    private static final long UD_REMOTE_QPN = unionOffset("ud", "remote_qpn");
    private static final long UD_REMOTE_QKEY = unionOffset("ud", "remote_qkey");
    private static final long BIND_MW = ibv_send_wr.bind_mw$OFFSET;
    private static final long BIND_MW_MW = BIND_MW + ibv_send_wr.bind_mw.mw$OFFSET;
    private static final long BIND_MW_RKEY = BIND_MW + ibv_send_wr.bind_mw.rkey$OFFSET;
    private static final long BIND_INFO = BIND_MW + ibv_send_wr.bind_mw.bind_info$OFFSET;

    /** What the {@code wr} union holds, so a post can tell an RDMA request from an atomic one. */
    static final int REMOTE_NONE = 0;
    static final int REMOTE_RDMA = 1;
    static final int REMOTE_ATOMIC = 2;
    static final int REMOTE_UD = 3;
    static final int REMOTE_BIND = 4;

    static final int INLINE = SendFlag.INLINE.bit();
    private static final int SIGNALED = SendFlag.SIGNALED.bit();
    static final int INLINE_OPCODES = SendOperations.bit(WorkRequestOpcode.SEND.value())
            | SendOperations.bit(WorkRequestOpcode.SEND_WITH_IMM.value())
            | SendOperations.bit(WorkRequestOpcode.RDMA_WRITE.value())
            | SendOperations.bit(WorkRequestOpcode.RDMA_WRITE_WITH_IMM.value());
    static final int RDMA_OPCODES = SendOperations.bit(WorkRequestOpcode.RDMA_WRITE.value())
            | SendOperations.bit(WorkRequestOpcode.RDMA_WRITE_WITH_IMM.value())
            | SendOperations.bit(WorkRequestOpcode.RDMA_READ.value())
            | SendOperations.bit(WorkRequestOpcode.ATOMIC_WRITE.value());
    /** Opcodes whose {@code invalidate_rkey} must come from {@link #invalidateRkey(int)}. */
    static final int INVALIDATE_OPCODES = SendOperations.bit(WorkRequestOpcode.LOCAL_INV.value())
            | SendOperations.bit(WorkRequestOpcode.SEND_WITH_INV.value());
    /**
     * Opcodes that need {@code wr} union members this class never fills ({@code tso}) or
     * provider-private semantics: refused at post, the provider would follow garbage pointers.
     * BIND_MW is posted only as filled by {@link #bindMemoryWindow} (checked at post).
     */
    static final int UNFILLED_OPCODES = SendOperations.bit(WorkRequestOpcode.TSO.value())
            | SendOperations.bit(WorkRequestOpcode.DRIVER1.value());
    static final int ATOMIC_OPCODES = SendOperations.bit(WorkRequestOpcode.ATOMIC_CMP_AND_SWP.value())
            | SendOperations.bit(WorkRequestOpcode.ATOMIC_FETCH_AND_ADD.value());

    private final MemorySegment request;
    /** The read-only view {@link #segment()} hands out, made once. */
    private final MemorySegment readOnlyRequest;
    private final MemorySegment entries;
    private final MemorySegment badRequestSlot;
    private final int maxSge;
    /** Java mirrors of native fields the post-time checks read, so they read no native memory. */
    private final int[] lengths;
    /** Inline-data entries keep their memory referenced (and checked alive at post). */
    private final MemorySegment[] inlineMemory;
    /** The region behind each region entry (checked open, of the QP's domain, and for INLINE readable at post). */
    private final MemoryRegion[] regions;
    /** Whether {@code imm_data} holds an rkey from {@link #invalidateRkey(int)}. */
    private boolean invalidateRkeySet;
    private long wrId;
    private int sgeCount;
    private int opcode = WorkRequestOpcode.SEND.value();
    private int flags;
    private int remoteKind = REMOTE_NONE;
    private AddressHandle addressHandle;
    /** The window and region of {@link #bindMemoryWindow}, and the rkey it asks for. */
    private MemoryWindow bindWindow;
    private MemoryRegion bindRegion;
    private int bindRkey;
    /** During a post: whether acquiring made the window a dependent of the region (undone if not posted). */
    private boolean bindAddedUser;
    private SendWorkRequest next;

    private SendWorkRequest(Arena arena, int maxSge) {
        if (maxSge < 0) {
            throw new IllegalArgumentException(VERB + ": maxSge must be >= 0, got " + maxSge);
        }
        this.maxSge = maxSge;
        this.request = arena.allocate(ibv_send_wr.LAYOUT);
        this.readOnlyRequest = request.asReadOnly();
        this.entries = ScatterGatherEntries.allocate(arena, Math.max(1, maxSge));
        this.badRequestSlot = arena.allocate(ADDRESS);
        this.lengths = new int[maxSge];
        this.inlineMemory = new MemorySegment[maxSge];
        this.regions = new MemoryRegion[maxSge];
        request.set(JAVA_LONG, ibv_send_wr.sg_list$OFFSET, entries.address());
        request.set(JAVA_INT, ibv_send_wr.opcode$OFFSET, opcode);
    }

    /** A SEND request with room for {@code maxSge} scatter/gather entries, in an automatic arena. */
    public static SendWorkRequest allocate(int maxSge) {
        return new SendWorkRequest(Arena.ofAuto(), maxSge);
    }

    /** A SEND request with room for {@code maxSge} scatter/gather entries, in {@code arena}. */
    public static SendWorkRequest allocate(Arena arena, int maxSge) {
        return new SendWorkRequest(Objects.requireNonNull(arena, "arena"), maxSge);
    }

    private static long unionOffset(String member, String field) {
        return WR_UNION + ibv_send_wr.LAYOUT.select(groupElement("wr"))
                .byteOffset(groupElement(member), groupElement(field));
    }

    // ---- common fields ----

    /** Sets {@code wr_id}: the id the request's completion carries ({@link Completions#wrId}). */
    public SendWorkRequest wrId(long wrId) {
        this.wrId = wrId;
        request.set(JAVA_LONG, ibv_send_wr.wr_id$OFFSET, wrId);
        return this;
    }

    /** {@code wr_id}. */
    public long wrId() {
        return wrId;
    }

    /**
     * Sets {@code opcode}. Whether the queue pair's transport accepts it is checked at post time
     * (e.g. RDMA READ on UD is an {@link IllegalArgumentException} naming {@code ibv_post_send}).
     */
    public SendWorkRequest opcode(WorkRequestOpcode opcode) {
        Objects.requireNonNull(opcode, VERB + ": opcode");
        this.opcode = opcode.value();
        request.set(JAVA_INT, ibv_send_wr.opcode$OFFSET, this.opcode);
        return this;
    }

    /** {@code opcode}. */
    public WorkRequestOpcode opcode() {
        return WorkRequestOpcode.of(opcode);
    }

    /** Sets {@code send_flags} to exactly these flags. */
    public SendWorkRequest flags(Set<SendFlag> flags) {
        return writeFlags(BitFlag.toBits(flags));
    }

    /** {@code send_flags}. */
    public Set<SendFlag> flags() {
        return BitFlag.fromBits(SendFlag.class, flags);
    }

    /** Sets or clears {@link SendFlag#SIGNALED}: whether this request produces a completion. */
    public SendWorkRequest signaled(boolean signaled) {
        return writeFlags(signaled ? flags | SIGNALED : flags & ~SIGNALED);
    }

    /**
     * Sets or clears {@link SendFlag#INLINE}: the CPU copies the data into the request at post
     * time, lkeys are not checked. Up to the queue pair's {@code max_inline_data} bytes, SEND and
     * RDMA WRITE only (checked at post).
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
     * Sets {@code imm_data} for {@code *_WITH_IMM} opcodes: the 32 bits go out as given (C's
     * {@code __be32}), so the receiver's {@link Completions#immediateData} reads the same int.
     */
    public SendWorkRequest immediateData(int immediate) {
        request.set(JAVA_INT, ibv_send_wr.imm_data$OFFSET, immediate);
        invalidateRkeySet = false;
        return this;
    }

    /** Sets {@code invalidate_rkey} for SEND_WITH_INV and LOCAL_INV (shares imm_data's slot). */
    public SendWorkRequest invalidateRkey(int rkey) {
        request.set(JAVA_INT, ibv_send_wr.imm_data$OFFSET, rkey);
        invalidateRkeySet = true;
        return this;
    }

    // ---- scatter/gather entries ----

    /**
     * Sets entry {@code index} to {@code [offset, offset + length)} of {@code region} (address
     * and lkey from the region); the entry count grows to cover {@code index}.
     *
     * @throws IllegalArgumentException if {@code index} is not in {@code 0..maxSge-1} or the range
     *         is not inside the region
     * @throws IllegalStateException if the region is deregistered
     */
    public SendWorkRequest sge(int index, MemoryRegion region, long offset, int length) {
        checkIndex(index);
        ScatterGatherEntries.write(VERB, entries, index, region, offset, length);
        lengths[index] = length;
        inlineMemory[index] = null;
        regions[index] = region;
        if (index >= sgeCount) {
            setCount(index + 1);
        }
        return this;
    }

    /** One entry: {@code sge(0, region, offset, length)} and {@code sgeCount(1)}. */
    public SendWorkRequest sge(MemoryRegion region, long offset, int length) {
        sge(0, region, offset, length);
        return sgeCount(1);
    }

    /**
     * Sets entry {@code index} to inline data taken from {@code data} (any native memory, no
     * registration) and sets {@link SendFlag#INLINE}. The data is copied when the request is
     * posted, so {@code data} may change right after the post returns.
     *
     * @throws IllegalArgumentException for heap or closed memory, or more than 2^31-1 bytes
     */
    public SendWorkRequest inlineData(int index, MemorySegment data) {
        checkIndex(index);
        Objects.requireNonNull(data, VERB + ": inline data");
        if (!data.isNative()) {
            throw new IllegalArgumentException(VERB + ": inline data must be native memory, not a heap segment");
        }
        if (!data.scope().isAlive()) {
            throw new IllegalArgumentException(VERB + ": the inline data's arena is closed");
        }
        if (data.byteSize() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(VERB + ": inline data of " + data.byteSize() + " bytes is too long");
        }
        ScatterGatherEntries.write(entries, index, data.address(), (int) data.byteSize(), 0);
        lengths[index] = (int) data.byteSize();
        inlineMemory[index] = data;
        regions[index] = null;
        if (index >= sgeCount) {
            setCount(index + 1);
        }
        return inline(true);
    }

    /** One inline entry: {@code inlineData(0, data)} and {@code sgeCount(1)}. */
    public SendWorkRequest inlineData(MemorySegment data) {
        inlineData(0, data);
        return sgeCount(1);
    }

    /**
     * Sets {@code num_sge}: how many entries the device gathers, in order.
     *
     * @throws IllegalArgumentException if {@code count} is not in {@code 0..maxSge}
     */
    public SendWorkRequest sgeCount(int count) {
        if (count < 0 || count > maxSge) {
            throw new IllegalArgumentException(VERB + ": sge count must be in 0.." + maxSge + ", got " + count);
        }
        setCount(count);
        return this;
    }

    private void setCount(int count) {
        sgeCount = count;
        request.set(JAVA_INT, ibv_send_wr.num_sge$OFFSET, count);
    }

    private void checkIndex(int index) {
        if (index < 0 || index >= maxSge) {
            throw new IllegalArgumentException(VERB + ": sge index must be in 0.." + (maxSge - 1)
                    + " (this request's maxSge " + maxSge + "), got " + index);
        }
    }

    /** {@code num_sge}. */
    public int sgeCount() {
        return sgeCount;
    }

    /** The number of entries this request has room for. */
    public int maxSge() {
        return maxSge;
    }

    /** Entry {@code index}'s device address ({@code sg_list[index].addr}). */
    public long sgeAddress(int index) {
        return ScatterGatherEntries.address(entries, Objects.checkIndex(index, maxSge));
    }

    /** Entry {@code index}'s length ({@code sg_list[index].length}). */
    public int sgeLength(int index) {
        return ScatterGatherEntries.length(entries, Objects.checkIndex(index, maxSge));
    }

    /** Entry {@code index}'s lkey ({@code sg_list[index].lkey}). */
    public int sgeLkey(int index) {
        return ScatterGatherEntries.lkey(entries, Objects.checkIndex(index, maxSge));
    }

    /** The bytes the entries in use cover ({@code num_sge} entries). */
    public long totalLength() {
        long total = 0;
        for (int i = 0; i < sgeCount; i++) {
            total += Integer.toUnsignedLong(lengths[i]);
        }
        return total;
    }

    // ---- the wr union: remote side ----

    /**
     * Sets {@code wr.rdma}: the remote address and rkey of RDMA WRITE / READ (the remote range
     * is the peer's {@link MemoryRegion#addressAt(long, long)} and {@link MemoryRegion#rkey()}).
     * Choose the opcode with {@link #opcode(WorkRequestOpcode)}.
     */
    public SendWorkRequest rdma(long remoteAddress, int rkey) {
        clearUnion();
        request.set(JAVA_LONG, RDMA_REMOTE_ADDR, remoteAddress);
        request.set(JAVA_INT, RDMA_RKEY, rkey);
        remoteKind = REMOTE_RDMA;
        return this;
    }

    /**
     * An atomic compare-and-swap: sets the opcode to {@link WorkRequestOpcode#ATOMIC_CMP_AND_SWP}
     * and {@code wr.atomic}. The 64-bit word at {@code remoteAddress} becomes {@code swap} if it
     * equals {@code compare}; its old value lands in the one 8-byte local entry.
     *
     * @throws IllegalArgumentException if {@code remoteAddress} is not 8-byte aligned
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
     */
    public SendWorkRequest atomicFetchAndAdd(long remoteAddress, int rkey, long add) {
        return atomic(WorkRequestOpcode.ATOMIC_FETCH_AND_ADD, remoteAddress, rkey, add, 0);
    }

    private SendWorkRequest atomic(WorkRequestOpcode atomicOpcode, long remoteAddress, int rkey, long compareAdd, long swap) {
        if ((remoteAddress & 7) != 0) {
            throw new IllegalArgumentException(VERB + ": " + atomicOpcode
                    + " needs an 8-byte aligned remote address, got 0x" + Long.toHexString(remoteAddress));
        }
        clearUnion();
        request.set(JAVA_LONG, ATOMIC_REMOTE_ADDR, remoteAddress);
        request.set(JAVA_LONG, ATOMIC_COMPARE_ADD, compareAdd);
        request.set(JAVA_LONG, ATOMIC_SWAP, swap);
        request.set(JAVA_INT, ATOMIC_RKEY, rkey);
        remoteKind = REMOTE_ATOMIC;
        return opcode(atomicOpcode);
    }

    /**
     * Sets {@code wr.ud}: the destination of a UD send. The address handle stays referenced by
     * this request and is held open while a post uses it.
     *
     * @param remoteQkey the destination's Q_Key (unsigned 32 bits)
     * @throws IllegalArgumentException if {@code remoteQpn} is not a 24-bit QP number
     */
    public SendWorkRequest ud(AddressHandle addressHandle, int remoteQpn, int remoteQkey) {
        Objects.requireNonNull(addressHandle, VERB + ": address handle");
        if (remoteQpn < 0 || remoteQpn > 0xFF_FFFF) {
            throw new IllegalArgumentException(VERB + ": remote_qpn must be in 0..16777215, got " + remoteQpn);
        }
        if (addressHandle.isClosed()) {
            throw addressHandle.closedException();
        }
        clearUnion();
        request.set(JAVA_LONG, UD_AH, addressHandle.handleAddress());
        request.set(JAVA_INT, UD_REMOTE_QPN, remoteQpn);
        request.set(JAVA_INT, UD_REMOTE_QKEY, remoteQkey);
        this.addressHandle = addressHandle;
        remoteKind = REMOTE_UD;
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
     */
    public SendWorkRequest bindMemoryWindow(MemoryWindow window, int newRkey, MemoryRegion region, long offset,
            long length, Set<AccessFlag> access) {
        String verb = VERB + " BIND_MW";
        Objects.requireNonNull(window, verb + ": memory window is null");
        Objects.requireNonNull(region, verb + ": memory region is null");
        EnumSet<AccessFlag> flags = RegistrationChecks.checkAccess(verb, access);
        if (window.type() != MemoryWindowType.TYPE_2) {
            throw new IllegalArgumentException(verb + ": " + window + " is type 1: bind it with MemoryWindow.bind(...)"
                    + " (ibv_bind_mw); BIND_MW work requests bind type 2 windows");
        }
        RegistrationChecks.checkSameDomain(verb, window, window.protectionDomain(), region, region.protectionDomain());
        RegistrationChecks.checkBindRange(verb, flags, region, region.access(), region.length(), offset, length);
        int current = window.rkey();
        if ((newRkey >>> 8) != (current >>> 8)) {
            throw new IllegalArgumentException(verb + ": new rkey 0x" + Integer.toHexString(newRkey)
                    + " does not keep the upper 24 bits (the window index) of " + window
                    + "; only the low 8 bits are the consumer's key: use MemoryWindow.incrementRkey(window.rkey())");
        }
        long address = region.addressAt(offset, length);
        clearUnion();
        request.set(ADDRESS, BIND_MW_MW, window.handleSegment());
        request.set(JAVA_INT, BIND_MW_RKEY, newRkey);
        request.set(ADDRESS, BIND_INFO + ibv_mw_bind_info.mr$OFFSET, region.handleSegment());
        request.set(JAVA_LONG, BIND_INFO + ibv_mw_bind_info.addr$OFFSET, address);
        request.set(JAVA_LONG, BIND_INFO + ibv_mw_bind_info.length$OFFSET, length);
        request.set(JAVA_INT, BIND_INFO + ibv_mw_bind_info.mw_access_flags$OFFSET, BitFlag.toBits(flags));
        bindWindow = window;
        bindRegion = region;
        bindRkey = newRkey;
        remoteKind = REMOTE_BIND;
        return opcode(WorkRequestOpcode.BIND_MW);
    }

    private void clearUnion() {
        request.asSlice(WR_UNION, ibv_send_wr.LAYOUT.select(groupElement("wr")).byteSize()).fill((byte) 0);
        addressHandle = null;
        bindWindow = null;
        bindRegion = null;
        remoteKind = REMOTE_NONE;
    }

    /** The window of {@link #bindMemoryWindow}, or {@code null}. */
    MemoryWindow bindWindow() {
        return bindWindow;
    }

    /** The region of {@link #bindMemoryWindow}, or {@code null}. */
    MemoryRegion bindRegion() {
        return bindRegion;
    }

    /** The rkey {@link #bindMemoryWindow} asks for. */
    int bindRkey() {
        return bindRkey;
    }

    boolean bindAddedUser() {
        return bindAddedUser;
    }

    void bindAddedUser(boolean added) {
        bindAddedUser = added;
    }

    /** The address handle of {@link #ud}, or {@code null}. */
    public AddressHandle addressHandle() {
        return addressHandle;
    }

    // ---- chaining ----

    /**
     * Chains {@code following} after this request ({@code wr->next}), or ends the chain here with
     * {@code null}. Posting this request then posts the whole chain in one call.
     *
     * @throws IllegalArgumentException if the chain would loop back to this request
     */
    public SendWorkRequest next(SendWorkRequest following) {
        CHAIN.checkNoLoop(this, following);
        next = following;
        request.set(JAVA_LONG, ibv_send_wr.next$OFFSET, CHAIN.nextAddress(following));
        return this;
    }

    /** The request chained after this one, or {@code null}. */
    public SendWorkRequest next() {
        return next;
    }

    // ---- for QueuePair ----

    /**
     * The native {@code struct ibv_send_wr}, read-only, for callers of the generated layer that
     * inspect it. Read-only so that no caller can plant {@code sg_list}, {@code next} or
     * {@code wr.ud.ah} pointers the provider would follow: change the request through its setters.
     */
    public MemorySegment segment() {
        return readOnlyRequest;
    }

    long address() {
        return request.address();
    }

    long badRequestSlotAddress() {
        return badRequestSlot.address();
    }

    /** After a failed post: the {@code bad_wr} the provider reported (0 if none). */
    long badRequestAddress() {
        return badRequestSlot.get(JAVA_LONG, 0);
    }

    void clearBadRequest() {
        badRequestSlot.set(JAVA_LONG, 0, 0L);
    }

    /** False once the arena holding the native request is closed. */
    boolean isAlive() {
        return request.scope().isAlive();
    }

    /** {@code opcode} as its C value. */
    int opcodeValue() {
        return opcode;
    }

    /** {@code send_flags} as bits. */
    int flagBits() {
        return flags;
    }

    /** What the {@code wr} union holds: one of the {@code REMOTE_*} constants. */
    int remoteKind() {
        return remoteKind;
    }

    /** Entry {@code index}'s length, from the Java mirror. */
    int entryLength(int index) {
        return lengths[index];
    }

    /** The region behind entry {@code index}, or {@code null} for an inline or never-set entry. */
    MemoryRegion region(int index) {
        return regions[index];
    }

    /** Whether {@link #invalidateRkey(int)} set {@code invalidate_rkey} (and nothing overwrote it since). */
    boolean hasInvalidateRkey() {
        return invalidateRkeySet;
    }

    /** The memory of inline entry {@code index}, or {@code null} for a region entry. */
    MemorySegment inlineMemory(int index) {
        return inlineMemory[index];
    }

    /**
     * After a failed post: which request of this chain the provider reported in {@code bad_wr},
     * as {@code "bad_wr wr_id=N (request K of the chain)"}, for the exception message.
     */
    String describeBadRequest() {
        return CHAIN.describeBadRequest(this, badRequestSlot.get(JAVA_LONG, 0));
    }

    @Override
    public String toString() {
        return "SendWorkRequest[wr_id=" + wrId + ", " + WorkRequestOpcode.orNull(opcode)
                + ", flags=" + flags() + ", num_sge=" + sgeCount + "/" + maxSge
                + (next == null ? "" : ", chained") + "]";
    }
}
