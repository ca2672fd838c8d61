package dev.panamaverbs;

import dev.panamaverbs.error.VerbsUnsupportedException;
import dev.panamaverbs.ffm.ibv_mw;
import dev.panamaverbs.ffm.ibv_mw_bind;
import dev.panamaverbs.ffm.ibv_mw_bind_info;
import dev.panamaverbs.loader.CallState;
import dev.panamaverbs.loader.OpsTable;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * A memory window (C {@code struct ibv_mw}): a remote-access view onto part of a
 * {@link MemoryRegion}, with its own {@link #rkey()} that can be granted and revoked without
 * re-registering memory. Allocated by {@link ProtectionDomain#allocateMemoryWindow(MemoryWindowType)}
 * ({@code ibv_alloc_mw}); closing it frees it ({@code ibv_dealloc_mw}).
 *
 * <p>Type 1 windows are bound with {@link #bind} ({@code ibv_bind_mw}); type 2 windows are bound by
 * a {@code BIND_MW} send work request on a queue pair. A window without a binding grants nothing.
 */
public final class MemoryWindow extends VerbsResource {
    /** The window access rights a bind may grant; everything else belongs to regions or queue pairs. */
    private static final Set<AccessFlag> BINDABLE_ACCESS = EnumSet.of(
            AccessFlag.REMOTE_READ, AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_ATOMIC, AccessFlag.ZERO_BASED);

    private final ProtectionDomain protectionDomain;
    /** Whose ops table holds bind_mw. */
    private final Context context;
    private final MemoryWindowType type;
    /**
     * {@code ibv_mw.rkey}, copied after allocation and after each bind so that {@link #toString()}
     * never reads native memory, which is freed once the window is closed.
     */
    private volatile int rkey;
    /** The region of the last bind, which {@link #unbind} names again (never NULL, see there). */
    private volatile MemoryRegion boundRegion;

    private MemoryWindow(ProtectionDomain protectionDomain, MemorySegment handle, MemoryWindowType type) {
        super("MemoryWindow", handle, protectionDomain);
        this.protectionDomain = protectionDomain;
        this.context = protectionDomain.parentContext();
        this.type = type;
        this.rkey = ibv_mw.rkey(handle);
    }

    /** {@code ibv_alloc_mw}: the factory hook behind {@link ProtectionDomain#allocateMemoryWindow}. */
    static MemoryWindow allocate(ProtectionDomain pd, MemoryWindowType type) {
        Objects.requireNonNull(pd, "ibv_alloc_mw: protection domain is null");
        Objects.requireNonNull(type, "ibv_alloc_mw: window type is null");
        pd.acquire();
        try {
            long mw = OpsTable.allocMw(pd.handleAddress(), type.value());
            MemoryWindow window = new MemoryWindow(pd, MemorySegment.ofAddress(mw).reinterpret(ibv_mw.SIZE), type);
            window.register();
            return window;
        } finally {
            pd.release();
        }
    }

    /** {@code ibv_dealloc_mw}. */
    @Override
    void destroy() {
        OpsTable.deallocMw(handleAddress());
    }

    @Override
    String describe() {
        return type + ", rkey=0x" + Integer.toHexString(rkey);
    }

    /** The protection domain the window belongs to ({@code ibv_mw.pd}). */
    public ProtectionDomain protectionDomain() {
        requireOpen(this);
        return protectionDomain;
    }

    /** The window type ({@code ibv_mw.type}). */
    public MemoryWindowType type() {
        requireOpen(this);
        return type;
    }

    /**
     * The window's current remote key ({@code ibv_mw.rkey}). Binding a type 1 window changes it
     * (the provider increments its low 8 bits, {@code ibv_inc_rkey}), so read it after each bind.
     */
    public int rkey() {
        requireOpen(this);
        return rkey;
    }

    /**
     * {@code ibv_bind_mw}: binds this type 1 window to {@code [offset, offset + length)} of
     * {@code region}, granting {@code access} to remote peers. The bind is posted to
     * {@code queuePair}'s send queue as a work request: it takes effect in order with the sends
     * before it and reports a completion with {@code wrId} when {@code sendFlags} holds
     * {@link SendFlag#SIGNALED}.
     *
     * <p>Requirements checked here: a type 1 window; a region of the same protection domain,
     * registered with {@link AccessFlag#MW_BIND}; a range inside the region; window access made of
     * {@link AccessFlag#REMOTE_READ}, {@link AccessFlag#REMOTE_WRITE}, {@link AccessFlag#REMOTE_ATOMIC}
     * and {@link AccessFlag#ZERO_BASED}, where remote write or atomic needs a region with local write.
     *
     * @return the window's new {@link #rkey()}, valid once the bind has executed
     */
    public int bind(QueuePair queuePair, MemoryRegion region, long offset, long length, Set<AccessFlag> access,
            long wrId, Set<SendFlag> sendFlags) {
        String verb = "ibv_bind_mw";
        Objects.requireNonNull(queuePair, verb + ": queue pair is null");
        Objects.requireNonNull(region, verb + ": memory region is null");
        Objects.requireNonNull(sendFlags, verb + ": send flags are null");
        EnumSet<AccessFlag> flags = RegistrationChecks.checkAccess(verb, access);
        if (type != MemoryWindowType.TYPE_1) {
            throw new IllegalArgumentException(verb + ": only type 1 windows are bound with ibv_bind_mw; bind "
                    + this + " with a BIND_MW send work request");
        }
        for (AccessFlag flag : flags) {
            if (!BINDABLE_ACCESS.contains(flag)) {
                throw new IllegalArgumentException(verb + ": a window cannot grant " + flag + "; allowed: " + BINDABLE_ACCESS);
            }
        }
        if (region.protectionDomain() != protectionDomain) {
            throw new IllegalArgumentException(verb + ": " + region + " belongs to another protection domain than " + this);
        }
        EnumSet<AccessFlag> regionAccess = region.access();
        if (!regionAccess.contains(AccessFlag.MW_BIND)) {
            throw new IllegalArgumentException(verb + ": " + region + " was not registered with MW_BIND access");
        }
        if ((flags.contains(AccessFlag.REMOTE_WRITE) || flags.contains(AccessFlag.REMOTE_ATOMIC))
                && !regionAccess.contains(AccessFlag.LOCAL_WRITE)) {
            throw new IllegalArgumentException(verb + ": remote write or atomic access through a window needs a region"
                    + " registered with LOCAL_WRITE");
        }
        if (offset < 0 || length <= 0 || offset > region.length() - length) {
            throw new IllegalArgumentException(verb + ": range offset=" + offset + ", length=" + length
                    + " is not inside " + region);
        }
        acquire();
        try {
            region.acquire();
            try {
                queuePair.acquire();
                try {
                    int newRkey = postBind(queuePair, region.addressAt(offset, length), length, region.handleSegment(),
                            BitFlag.toBits(flags), wrId, BitFlag.toBits(sendFlags));
                    boundRegion = region;
                    return newRkey;
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

    /**
     * {@code ibv_bind_mw} with length 0: invalidates this type 1 window's binding, so no rkey of it
     * grants anything any more. The zero-length bind names the region of the last {@link #bind}
     * rather than none ({@code mr = NULL}, which the header allows): SoftRoCE's provider
     * dereferences {@code bind_info->mr} unconditionally and would crash the process.
     *
     * @return the window's new {@link #rkey()}
     * @throws IllegalStateException if the window was never bound, or that region is closed
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
        acquire();
        try {
            region.acquire();
            try {
                queuePair.acquire();
                try {
                    return postBind(queuePair, region.iova(), 0, region.handleSegment(), 0, wrId,
                            BitFlag.toBits(sendFlags));
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
        MemorySegment function = WindowOps.bindMwPointer(context.handleSegment());
        if (function.equals(MemorySegment.NULL)) {
            throw new VerbsUnsupportedException(verb, "the provider has no bind_mw operation");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bind = arena.allocate(ibv_mw_bind.LAYOUT);
            ibv_mw_bind.wr_id(bind, wrId);
            ibv_mw_bind.send_flags(bind, sendFlags);
            MemorySegment info = ibv_mw_bind.bind_info(bind);
            ibv_mw_bind_info.mr(info, mr);
            ibv_mw_bind_info.addr(info, address);
            ibv_mw_bind_info.length(info, length);
            ibv_mw_bind_info.mw_access_flags(info, access);
            MemorySegment state = CallState.allocate(arena);
            int rc = WindowOps.bindMw(function, state, queuePair.handleSegment(), handleSegment(), bind);
            // Providers return the errno (some also set errno); either way non-zero is failure.
            NativeCalls.checkErrno(verb, rc, rc > 0 ? rc : CallState.errno(state));
            rkey = ibv_mw.rkey(handleSegment());
            return rkey;
        }
    }
}
