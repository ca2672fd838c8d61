package dev.panamaverbs.onesided;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Memory a process exposes to its peers for one-sided operations: a {@link MemoryRegion}
 * registered once, with remote read, write and atomic access. Peers reach it through its
 * {@link #descriptor()}; the owner names 8-byte words in it as {@link SignalSlot}s to wait on.
 *
 * <pre>{@code
 * Window window = Window.allocate(pd, 1 << 20);          // ibv_reg_mr, remote write/read/atomic
 * byte[] wire = window.descriptor().toBytes();           // 24 bytes for the peer
 * SignalSlot arrived = window.slot(0);                   // the peer adds to it
 * }</pre>
 *
 * <p><b>Closing.</b> {@link #close()} ends this process's use of the window, whichever way it
 * was made: from then on {@link #memory()}, {@link #slot} and {@link SignalSlot#read()} throw
 * {@link IllegalStateException}, a {@link OneSidedChannel} refuses it as a source, and a channel
 * wait under way on one of its slots (on any thread) ends with {@link ChannelClosedException}.
 * A window that {@linkplain #allocate allocated} its region also closes the region
 * ({@code ibv_dereg_mr}), which revokes the peers' access. A window made
 * {@linkplain #of of a caller's region} leaves the region to the caller, its owner in the
 * resource tree: the region stays registered, so peers holding the descriptor can still reach
 * it until the caller closes the region. Close is idempotent and safe from any thread.
 */
public final class Window implements AutoCloseable {
    /** The access {@link #allocate} registers with. */
    static final Set<AccessFlag> ACCESS = Set.copyOf(EnumSet.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE,
            AccessFlag.REMOTE_READ, AccessFlag.REMOTE_ATOMIC));

    /** The registered region; closed with the window when {@link #ownsRegion}. */
    private final MemoryRegion region;
    private final boolean ownsRegion;
    /** What peers need, made once. */
    private final WindowDescriptor descriptor;
    /** Set first by close, so a reader racing the close of an owned region sees why it failed. */
    private volatile boolean closed;

    private Window(MemoryRegion region, boolean ownsRegion) {
        this.descriptor = WindowDescriptor.of(region);
        this.region = region;
        this.ownsRegion = ownsRegion;
    }

    /**
     * {@code ibv_reg_mr} over {@code byteSize} new zeroed bytes with local write and remote
     * read, write and atomic access ({@link ProtectionDomain#allocateMemoryRegion}), owned by the window.
     *
     * @param pd the protection domain of the queue pairs that will reach the window
     * @param byteSize the size in bytes
     * @return the window
     * @throws IllegalArgumentException for a size not above 0
     */
    public static Window allocate(ProtectionDomain pd, long byteSize) {
        Objects.requireNonNull(pd, "pd");
        return new Window(pd.allocateMemoryRegion(byteSize, ACCESS), true);
    }

    /**
     * A window over the caller's registered {@code region}, which the window does not close.
     *
     * @param region a region with CPU-visible memory (not a dma-buf)
     * @return the window
     * @throws IllegalArgumentException for a dma-buf region or one without any remote access
     */
    public static Window of(MemoryRegion region) {
        Objects.requireNonNull(region, "region");
        if (region.isDmabuf()) {
            throw new IllegalArgumentException("a window needs memory the CPU can read, not the dma-buf " + region);
        }
        Set<AccessFlag> access = region.access();
        if (!access.contains(AccessFlag.REMOTE_WRITE) && !access.contains(AccessFlag.REMOTE_ATOMIC)
                && !access.contains(AccessFlag.REMOTE_READ)) {
            throw new IllegalArgumentException(region + " has no remote access: peers could not reach the window");
        }
        region.memory(); // a closed region fails here, not at the first slot
        return new Window(region, false);
    }

    /**
     * The registered region.
     *
     * @return the region
     */
    public MemoryRegion region() {
        return region;
    }

    /**
     * The 8-byte slot at {@code offset}: a signal or counter word.
     *
     * @param offset the slot's byte offset, a multiple of 8
     * @return the slot
     * @throws IllegalArgumentException if {@code offset} is not 8-byte aligned
     * @throws IndexOutOfBoundsException if the slot is not inside the window
     * @throws IllegalStateException once the window is closed
     */
    public SignalSlot slot(long offset) {
        return new SignalSlot(this, offset);
    }

    /**
     * The window's memory, as the CPU sees it ({@code memory().byteSize()} is the window's size).
     *
     * @return the memory
     * @throws IllegalStateException once the window or the region is closed
     */
    public MemorySegment memory() {
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
        return region.memory();
    }

    /**
     * Whether {@link #close()} has been called.
     *
     * @return true once closed
     */
    public boolean isClosed() {
        return closed;
    }

    /**
     * What a peer needs to reach this window.
     *
     * @return the region's iova, length and rkey
     */
    public WindowDescriptor descriptor() {
        return descriptor;
    }

    /**
     * Closes the window (see the class comment) and, if the window allocated its region, the
     * region ({@code ibv_dereg_mr}); idempotent, from any thread.
     */
    @Override
    public void close() {
        closed = true;
        if (ownsRegion) {
            region.close();
        }
    }

    @Override
    public String toString() {
        return (closed ? "closed Window[0x" : "Window[0x") + Long.toHexString(descriptor.address()) + ", " + descriptor.length() + " bytes, rkey=0x"
                + Integer.toHexString(descriptor.rkey()) + "]";
    }
}
