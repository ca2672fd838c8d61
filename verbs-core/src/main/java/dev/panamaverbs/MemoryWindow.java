package dev.panamaverbs;

import dev.panamaverbs.internal.RegistrationChecks;
import dev.panamaverbs.internal.Handles;
import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.BitFlag;
import dev.panamaverbs.values.CompletionFlag;
import dev.panamaverbs.values.CompletionOpcode;
import dev.panamaverbs.values.MemoryWindowType;
import dev.panamaverbs.values.SendFlag;
import dev.panamaverbs.gateway.Pointers;
import dev.panamaverbs.ffm.ibv_mw;
import dev.panamaverbs.ffm.ibv_mw_bind;
import dev.panamaverbs.ffm.ibv_mw_bind_info;
import dev.panamaverbs.ffm.invoke.CallState;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.gateway.OpsTable;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * A memory window (C {@code struct ibv_mw}): a remote-access view onto part of a
 * {@link MemoryRegion}, with its own {@link #rkey()} that can be granted and revoked without
 * re-registering memory. Allocated by {@link ProtectionDomain#allocateMemoryWindow(MemoryWindowType)}
 * ({@code ibv_alloc_mw}); closing it frees it ({@code ibv_dealloc_mw}).
 *
 * <p>Type 1 windows are bound with {@link #bind} ({@code ibv_bind_mw}). Type 2 windows are bound
 * by a {@code BIND_MW} work request built with {@link SendWorkRequest#bindMemoryWindow} and posted
 * with {@link QueuePair#postSend} (RC or UC); their rkey is the one the consumer chose there
 * ({@link #incrementRkey}), which {@link #rkey()} reports once that post succeeds.
 *
 * <h2>Whether a type 2 window is bound</h2>
 * A bound type 2 window must be invalidated before it is bound again (IBA o10-36.2.2; on
 * SoftRoCE a second bind left a kernel warning and a context close of about 50 s). So the window
 * knows its state ({@link #isBound()}) and a {@code BIND_MW} of a bound window is an
 * {@link IllegalStateException} before the device, from {@link QueuePair#postSend} and
 * {@link SendBatch#complete()} alike. What it learns, and when:
 * <ul>
 *   <li><b>bound</b>: a post takes the window atomically before it reaches the provider, so two
 *       binds of one window in a chain or a batch, or in two threads' posts at once, are refused
 *       (the second); the post's success makes it bound, its failure frees it again;</li>
 *   <li><b>free</b> again: when a {@code LOCAL_INV} of its current rkey is posted on a queue pair
 *       of its protection domain (in an earlier post: a chain or batch that invalidates and then
 *       binds is refused), or when {@link #invalidatedByPeer} is handed the receive completion of
 *       a peer's {@code SEND_WITH_INV} that names its rkey ({@code IBV_WC_WITH_INV}; a received
 *       invalidation is seen by nothing else here).</li>
 * </ul>
 * Conservative where the library sees no completion: a bind that is posted but completes with an
 * error still counts as bound (close the window and allocate another), and a {@code LOCAL_INV}
 * counts when posted; if it then completes with an error (flushed by a queue pair in the error
 * state), the device still holds the binding: close the window rather than bind it again.
 * Invalidations do not change the dependency (the rkey stays, and the
 * window stays a dependent of its last region until it is closed, see below). A window without a binding grants nothing.
 * The queue pair, the region and the window must belong to the same protection domain.
 *
 * <h2>Closing a bound region</h2>
 * A provider may refuse to deregister a region while a window is bound to it (SoftRoCE does,
 * {@code ibv_dereg_mr} fails with EINVAL). So, from a {@link #bind} until the window is unbound,
 * bound to another region or closed, the window is a dependent of the region: <b>closing the
 * region closes the window first</b> ({@code ibv_dealloc_mw}, which ends the binding), then
 * deregisters the region (type 2 windows: from the successful post of their {@code BIND_MW}
 * request). A window whose region is closed is therefore closed as well, never left
 * bound to freed memory. The same holds when the protection domain closes, whatever the order in
 * which window and region were created. After {@link #unbind}, or a bind to another region,
 * closing the earlier region leaves the window open; wait for that bind's completion first, since
 * the provider releases the region only once the bind has executed. The binding followed here is
 * the one last posted: a bind that later completes with an error is not noticed.
 */
public final class MemoryWindow extends VerbsResource {
    private final MemoryWindowType type;
    /**
     * {@code ibv_mw.rkey}, copied after allocation and after each bind so that {@link #toString()}
     * never reads native memory, which is freed once the window is closed.
     */
    private volatile int rkey;

    private MemoryWindow(ProtectionDomain protectionDomain, MemorySegment handle, MemoryWindowType type) {
        super("MemoryWindow", handle, protectionDomain);
        this.type = type;
        this.rkey = ibv_mw.rkey(handle);
    }

    // The binding: changed by bind, unbind and the posts of BIND_MW and LOCAL_INV requests.
    /**
     * The region of the last bind, which {@link #unbind} names again (never NULL, see there). While
     * bound (not unbound since), this window is registered with it as a user ({@link VerbsResource#addUser}).
     */
    private volatile MemoryRegion boundRegion;
    /** True from a bind until an unbind: whether this window is registered with {@link #boundRegion}. */
    private volatile boolean bound;
    /**
     * Type 2 only: {@link #TYPE2_FREE}, {@link #TYPE2_BINDING} from the claim of a post that binds
     * it until that post returns, {@link #TYPE2_BOUND} from a posted BIND_MW until it is
     * invalidated. A bound type 2 window must be invalidated before it is bound again (IBA
     * o10-36.2.2); a BIND_MW of a window not free is refused before the device.
     */
    private volatile int type2State;
    private static final int TYPE2_FREE = 0, TYPE2_BINDING = 1, TYPE2_BOUND = 2;
    private static final VarHandle TYPE2_STATE = Handles.field(MethodHandles.lookup(), "type2State", int.class);

    /** {@code ibv_alloc_mw}: the factory hook behind {@link ProtectionDomain#allocateMemoryWindow}. */
    static MemoryWindow allocate(ProtectionDomain pd, MemoryWindowType type) {
        ResourceCreation.requireArguments("ibv_alloc_mw", pd, "protection domain is null", type, "window type is null");
        pd.acquire();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = CallState.allocate(arena);
            long mw = OpsTable.allocMw(state, pd.handleAddress(), type.value());
            NativeCalls.checkPointer("ibv_alloc_mw", MemorySegment.ofAddress(mw), CallState.errno(state));
            MemoryWindow window = new MemoryWindow(pd, Pointers.sized(mw, ibv_mw.SIZE), type);
            window.register();
            if (type == MemoryWindowType.TYPE_2) {
                pd.addType2Window(window);
            }
            return window;
        } finally {
            pd.release();
        }
    }

    /** {@code ibv_dealloc_mw}, then stops being a dependent of the bound region (see the class comment). */
    @Override
    protected void destroy() {
        try {
            NativeCalls.checkReturnedErrno("ibv_dealloc_mw", OpsTable.deallocMw(handleAddress()));
        } finally {
            if (type == MemoryWindowType.TYPE_2) {
                parentDomain().removeType2Window(this);
            }
            // No bind is under way any more (close waited for uses), so boundRegion is final here.
            MemoryRegion region = boundRegion;
            if (region != null) {
                region.removeUser(this);
            }
        }
    }

    @Override
    protected String describe() {
        return type + ", rkey=0x" + Integer.toHexString(rkey);
    }

    /**
     * The protection domain the window belongs to ({@code ibv_mw.pd}).
     *
     * @return the protection domain the window belongs to ({@code ibv_mw.pd})
     */
    public ProtectionDomain protectionDomain() {
        return whileOpen(parentDomain());
    }

    /** The protection domain without the closed check. */
    private ProtectionDomain parentDomain() {
        return parent();
    }

    /**
     * The window type ({@code ibv_mw.type}).
     *
     * @return the window type ({@code ibv_mw.type})
     */
    public MemoryWindowType type() {
        return whileOpen(type);
    }

    /**
     * The window's current remote key ({@code ibv_mw.rkey}). Binding a type 1 window changes it
     * (the provider increments its low 8 bits, {@code ibv_inc_rkey}), so read it after each bind.
     * A type 2 window reports the rkey of its last successfully posted
     * {@link SendWorkRequest#bindMemoryWindow BIND_MW} request (valid once that bind has executed).
     *
     * @return the window's current remote key ({@code ibv_mw.rkey})
     */
    public int rkey() {
        return whileOpen(rkey);
    }

    /**
     * C's {@code ibv_inc_rkey} (a static inline in {@code verbs.h}): {@code rkey} with its low 8
     * bits, the consumer's key, incremented modulo 256 and its upper 24 bits unchanged. The usual
     * new rkey of a type 2 window bind: {@code incrementRkey(window.rkey())}.
     *
     * @param rkey the remote key
     * @return C's {@code ibv_inc_rkey} (a static inline in {@code verbs.h}): {@code rkey} with its low 8 bits, the consumer's key, incremented modulo 256 and its upper 24 bits unchanged
     */
    public static int incrementRkey(int rkey) {
        return (rkey & ~0xFF) | ((rkey + 1) & 0xFF);
    }

    /**
     * Whether this window is bound as far as this library knows: a type 1 window from a
     * {@link #bind} until an {@link #unbind}; a type 2 window from the successful post of a
     * {@code BIND_MW} request until it is invalidated (see the class comment for how that is learned).
     * A type 2 window that is bound refuses another {@code BIND_MW}.
     *
     * @return true if bound
     * @throws IllegalStateException if the window is closed
     */
    public boolean isBound() {
        return whileOpen(type == MemoryWindowType.TYPE_2 ? type2State != TYPE2_FREE : bound);
    }

    /**
     * Tells a bound type 2 window that the peer invalidated it: {@code completions} entry
     * {@code index} is the successful receive ({@code IBV_WC_RECV}) of a {@code SEND_WITH_INV}
     * whose invalidated rkey ({@link Completions#invalidatedRkey}) is this window's. Then the
     * window is free to be bound again. The entry is checked, so a completion that did not
     * invalidate this window changes nothing and throws.
     *
     * <p>The invalidation flag: {@link CompletionFlag#WITH_INV}, or, without
     * {@link CompletionFlag#WITH_IMM}, bit 2: SoftRoCE (rxe) passes its completions to user space
     * with the kernel's {@code IB_WC_WITH_INVALIDATE} (1 &lt;&lt; 2), a bit libibverbs names
     * {@code IBV_WC_IP_CSUM_OK} (rxe reported flags 5, GRH and that bit, and the invalidated rkey).
     *
     * @param completions polled completions
     * @param index       the entry of the receive that carried the invalidation
     * @throws IllegalArgumentException if that entry failed, is not a receive, carries no
     *         invalidation, or names another rkey than this window's
     * @throws IllegalStateException if the window is closed, or is not a bound type 2 window
     */
    public void invalidatedByPeer(Completions completions, int index) {
        Objects.requireNonNull(completions, "completions");
        requireOpen(this);
        String problem = invalidationProblem(completions, index, rkey);
        if (problem != null) {
            throw new IllegalArgumentException("ibv_poll_cq: completion " + index + " did not invalidate " + this
                    + ": " + problem);
        }
        if (!TYPE2_STATE.compareAndSet(this, TYPE2_BOUND, TYPE2_FREE)) {
            throw new IllegalStateException("ibv_poll_cq: " + this + " is not a bound type 2 window");
        }
    }

    /** {@code IB_WC_WITH_INVALIDATE}, the kernel's value, which rxe hands to user space unchanged. */
    private static final int KERNEL_WITH_INVALIDATE = 1 << 2;

    /** Why entry {@code index} is not the receive of an invalidation of {@code rkey}, or null if it is. */
    static String invalidationProblem(Completions completions, int index, int rkey) {
        if (!completions.isSuccess(index)) {
            return "it failed (" + completions.status(index) + ")";
        }
        if (completions.opcodeValue(index) != CompletionOpcode.RECV.value()) {
            return "it is not a receive (opcode " + completions.opcode(index) + ")";
        }
        int flags = completions.flags(index);
        boolean invalidates = (flags & CompletionFlag.WITH_INV.bit()) != 0
                || ((flags & KERNEL_WITH_INVALIDATE) != 0 && (flags & CompletionFlag.WITH_IMM.bit()) == 0);
        if (!invalidates) {
            return "it has no IBV_WC_WITH_INV flag (flags 0x" + Integer.toHexString(flags) + ")";
        }
        int invalidated = completions.invalidatedRkey(index);
        if (invalidated != rkey) {
            return "it invalidated rkey 0x" + Integer.toHexString(invalidated) + ", not 0x" + Integer.toHexString(rkey);
        }
        return null;
    }

    /**
     * Claims this type 2 window for a post that binds it (before the post, atomically).
     *
     * @throws IllegalStateException if it is bound, or another post (or an earlier request of
     *         this chain or batch) is binding it
     */
    void claimType2Bind(long wrId) {
        int state = (int) TYPE2_STATE.compareAndExchange(this, TYPE2_FREE, TYPE2_BINDING);
        if (state != TYPE2_FREE) {
            throw new IllegalStateException("ibv_post_send: wr_id=" + wrId + ": BIND_MW names " + this
                    + (state == TYPE2_BOUND ? ", which an earlier BIND_MW bound" : ", which another request of this"
                    + " post (or another thread's post) binds") + ": a type 2 window is bound again only once"
                    + " invalidated (post a LOCAL_INV of its rkey first)");
        }
    }

    /** The post that claimed this window ({@link #claimType2Bind}) did not post its bind. */
    void type2BindNotPosted() {
        TYPE2_STATE.compareAndSet(this, TYPE2_BINDING, TYPE2_FREE);
    }

    /**
     * Type 2: whether a BIND_MW of this window was posted (or is being posted) and no
     * invalidation since, so that binding it again would fail on the device.
     */
    boolean isValidType2() {
        return type2State != TYPE2_FREE;
    }

    /** A LOCAL_INV of {@code invalidatedRkey} was posted in this window's domain: if it is this window's, it is free again. */
    void invalidatedIfRkey(int invalidatedRkey) {
        if (type2State == TYPE2_BOUND && rkey == invalidatedRkey) {
            TYPE2_STATE.compareAndSet(this, TYPE2_BOUND, TYPE2_FREE);
        }
    }

    /** Whether the last bind posted (and not unbound since) names {@code region}. */
    boolean isBoundTo(MemoryRegion region) {
        return bound && boundRegion == region;
    }

    /**
     * After a {@code BIND_MW} request for this type 2 window was posted (window and region held
     * open by the post): records the new rkey (also in {@code ibv_mw.rkey}, which providers read as
     * the window's current key when the next bind is posted) and makes the window a dependent of
     * {@code region} (registered by {@code ChainHolds.acquire} before the post), released from the
     * earlier one.
     */
    void boundByRequest(MemoryRegion region, int newRkey) {
        MemoryRegion previous = boundRegion;
        ibv_mw.rkey(handleSegment(), newRkey);
        rkey = newRkey;
        boundRegion = region;
        bound = true;
        type2State = TYPE2_BOUND;
        if (previous != null && previous != region) {
            previous.removeUser(this);
        }
    }

    /**
     * {@code ibv_bind_mw}: binds this type 1 window to {@code [offset, offset + length)} of
     * {@code region}, granting {@code access} to remote peers. The bind is posted to
     * {@code queuePair}'s send queue as a work request: it takes effect in order with the sends
     * before it and reports a completion with {@code wrId} when {@code sendFlags} holds
     * {@link SendFlag#SIGNALED}.
     *
     * <p>Requirements checked here: a type 1 window; a queue pair and a region of the window's
     * protection domain, the region registered with {@link AccessFlag#MW_BIND}; a range inside the
     * region; window access made of {@link AccessFlag#REMOTE_READ}, {@link AccessFlag#REMOTE_WRITE}, {@link AccessFlag#REMOTE_ATOMIC}
     * and {@link AccessFlag#ZERO_BASED}, where remote write or atomic needs a region with local write.
     *
     * <p>From now on closing {@code region} closes this window first (see the class comment).
     *
     * @return the window's new {@link #rkey()}, valid once the bind has executed
     * @throws IllegalArgumentException for a queue pair or region of another protection domain, or
     *         any other requirement above not met
     * @param queuePair the queue pair
     * @param region the memory region
     * @param offset the offset in bytes
     * @param length the length in bytes
     * @param access the access flags
     * @param wrId the work request id, returned in its completion
     * @param sendFlags the send flags
     */
    public int bind(QueuePair queuePair, MemoryRegion region, long offset, long length, Set<AccessFlag> access,
            long wrId, Set<SendFlag> sendFlags) {
        String verb = "ibv_bind_mw";
        Objects.requireNonNull(queuePair, verb + ": queue pair is null");
        Objects.requireNonNull(region, verb + ": memory region is null");
        Objects.requireNonNull(sendFlags, verb + ": send flags are null");
        EnumSet<AccessFlag> flags = RegistrationChecks.checkAccess(verb, access);
        ProtectionDomain own = parentDomain();
        RegistrationChecks.checkSameDomain(verb, this, own, queuePair, queuePair.protectionDomain());
        RegistrationChecks.checkSameDomain(verb, this, own, region, region.protectionDomain());
        RegistrationChecks.checkBind(verb, this, type, flags, region, region.access(), region.length(), offset, length);
        return whileHeld(region, queuePair, () -> {
            MemoryRegion previous = boundRegion;
            boolean alreadyUser = bound && previous == region;
            // Before posting: a closing region throws here and nothing is posted; once
            // added, the region's close closes this window (after this bind returns).
            region.addUser(this);
            boolean posted = false;
            try {
                int newRkey = postBind(queuePair, region.addressAt(offset, length), length,
                        region.handleSegment(), BitFlag.toBits(flags), wrId, BitFlag.toBits(sendFlags));
                posted = true;
                boundRegion = region;
                bound = true;
                if (previous != null && previous != region) {
                    previous.removeUser(this); // rebinding releases the earlier region
                }
                return newRkey;
            } finally {
                if (!posted && !alreadyUser) {
                    region.removeUser(this);
                }
            }
        });
    }

    /**
     * {@code ibv_bind_mw} with length 0: invalidates this type 1 window's binding, so no rkey of it
     * grants anything any more. The zero-length bind names the region of the last {@link #bind}
     * rather than none ({@code mr = NULL}, which the header allows): SoftRoCE's provider
     * dereferences {@code bind_info->mr} unconditionally and would crash the process.
     *
     * <p>Afterwards closing that region no longer closes this window (see the class comment).
     *
     * @return the window's new {@link #rkey()}
     * @throws IllegalStateException if the window was never bound, or that region is closed
     * @param queuePair the queue pair
     * @param wrId the work request id, returned in its completion
     * @param sendFlags the send flags
     */
    public int unbind(QueuePair queuePair, long wrId, Set<SendFlag> sendFlags) {
        String verb = "ibv_bind_mw";
        Objects.requireNonNull(queuePair, verb + ": queue pair is null");
        Objects.requireNonNull(sendFlags, verb + ": send flags are null");
        if (type != MemoryWindowType.TYPE_1) {
            throw new IllegalArgumentException(verb + ": only type 1 windows are unbound with ibv_bind_mw");
        }
        MemoryRegion region = boundRegion;
        if (region == null) {
            throw new IllegalStateException(verb + ": " + this + " was never bound");
        }
        return whileHeld(region, queuePair, () -> {
            int newRkey = postBind(queuePair, region.iova(), 0, region.handleSegment(), 0, wrId,
                    BitFlag.toBits(sendFlags));
            bound = false;
            region.removeUser(this); // a zero-length bind releases the region
            return newRkey;
        });
    }

    /** Bind and unbind both hold this window, the region and the queue pair open across the post. */
    private int whileHeld(MemoryRegion region, QueuePair queuePair, IntSupplier post) {
        acquire();
        try {
            region.acquire();
            try {
                queuePair.acquire();
                try {
                    return post.getAsInt();
                } finally {
                    queuePair.release();
                }
            } finally {
                region.release();
            }
        } finally {
            release();
        }
    }

    /** Fills a {@code struct ibv_mw_bind} and calls {@code ops.bind_mw}; runs with everything acquired. */
    private int postBind(QueuePair queuePair, long address, long length, MemorySegment mr, int access, long wrId,
            int sendFlags) {
        String verb = "ibv_bind_mw";
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bind = arena.allocate(ibv_mw_bind.LAYOUT);
            ibv_mw_bind.wr_id(bind, wrId);
            ibv_mw_bind.send_flags(bind, sendFlags);
            MemorySegment info = ibv_mw_bind.bind_info(bind);
            ibv_mw_bind_info.mr(info, mr);
            ibv_mw_bind_info.addr(info, address);
            ibv_mw_bind_info.length(info, length);
            ibv_mw_bind_info.mw_access_flags(info, access);
            int rc = OpsTable.bindMw(queuePair.handleAddress(), handleAddress(), bind.address());
            if (rc == OpsTable.EOPNOTSUPP) {
                throw new VerbsUnsupportedException(verb, "the provider has no bind_mw operation");
            }
            // Providers return the errno (some -errno); either way non-zero is failure.
            NativeCalls.checkReturnedErrno(verb, rc);
            rkey = ibv_mw.rkey(handleSegment());
            return rkey;
        }
    }
}
