package dev.panamaverbs;

import dev.panamaverbs.internal.NativeCalls;
import dev.panamaverbs.values.ExtendedDeviceAttributes;
import dev.panamaverbs.gateway.IbverbsCalls;
import dev.panamaverbs.ffm.ibv_alloc_dm_attr;
import dev.panamaverbs.ffm.ibv_dm;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Memory on the device itself (C {@code struct ibv_dm}): allocated by
 * {@link Context#allocateDeviceMemory(long, int)} ({@code ibv_alloc_dm}), filled and read by copies
 * ({@code ibv_memcpy_to_dm}, {@code ibv_memcpy_from_dm}: the host cannot map it), and made
 * addressable by work requests through {@link ProtectionDomain#registerDeviceMemory}
 * ({@code ibv_reg_dm_mr}). {@link #close()} closes those regions first, then frees it
 * ({@code ibv_free_dm}). How much a device has is
 * {@link ExtendedDeviceAttributes#maxDeviceMemorySize()}; SoftRoCE has none and refuses the
 * allocation ({@link VerbsUnsupportedException}, EOPNOTSUPP).
 */
public final class DeviceMemory extends ResourceCreation.OnContext {
    private final long length;

    private DeviceMemory(VerbsResource context, MemorySegment handle, long length) {
        super("DeviceMemory", handle, context, "ibv_free_dm", IbverbsCalls::ibv_free_dm);
        this.length = length;
    }

    /** {@code ibv_alloc_dm}: the factory hook behind {@link Context#allocateDeviceMemory(long, int)}. */
    static DeviceMemory allocate(VerbsResource context, long length, int logAlignment) {
        String verb = "ibv_alloc_dm";
        Objects.requireNonNull(context, verb + ": context is null");
        if (length <= 0) {
            throw new IllegalArgumentException(verb + ": length must be above 0, got " + length);
        }
        if (logAlignment < 0 || logAlignment > 63) {
            throw new IllegalArgumentException(verb + ": log_align_req must be 0..63, got " + logAlignment);
        }
        return ResourceCreation.onContext(verb, ibv_dm.SIZE, context, arena -> {
            MemorySegment attr = arena.allocate(ibv_alloc_dm_attr.LAYOUT);
            ibv_alloc_dm_attr.length(attr, length);
            ibv_alloc_dm_attr.log_align_req(attr, logAlignment);
            return attr;
        }, IbverbsCalls::ibv_alloc_dm, (parent, handle) -> new DeviceMemory(parent, handle, length));
    }

    @Override
    protected String describe() {
        return "length=" + length;
    }

    /**
     * The bytes allocated ({@code ibv_alloc_dm_attr.length}).
     *
     * @return the length in bytes
     */
    public long length() {
        return whileOpen(length);
    }

    /**
     * {@code ibv_memcpy_to_dm}: copies all of {@code source} (native host memory) into this device
     * memory at {@code offset}.
     *
     * @param offset where in the device memory
     * @param source the bytes to copy, a native segment
     * @throws IllegalArgumentException for a heap segment or a range outside the device memory
     * @throws VerbsException if the provider refuses the copy
     */
    public void copyFrom(MemorySegment source, long offset) {
        checkRange("ibv_memcpy_to_dm", source, offset);
        acquire();
        try {
            NativeCalls.checkReturnedErrno("ibv_memcpy_to_dm",
                    IbverbsCalls.ibv_memcpy_to_dm(handleAddress(), offset, source.address(), source.byteSize()));
        } finally {
            release();
        }
    }

    /**
     * {@code ibv_memcpy_from_dm}: fills all of {@code target} (native host memory) from this device
     * memory at {@code offset}.
     *
     * @param target where the bytes go, a native writable segment
     * @param offset where in the device memory
     * @throws IllegalArgumentException for a heap or read-only segment or a range outside the device memory
     * @throws VerbsException if the provider refuses the copy
     */
    public void copyTo(MemorySegment target, long offset) {
        checkRange("ibv_memcpy_from_dm", target, offset);
        if (target.isReadOnly()) {
            throw new IllegalArgumentException("ibv_memcpy_from_dm: the target segment is read-only");
        }
        acquire();
        try {
            NativeCalls.checkReturnedErrno("ibv_memcpy_from_dm",
                    IbverbsCalls.ibv_memcpy_from_dm(target.address(), handleAddress(), offset, target.byteSize()));
        } finally {
            release();
        }
    }

    private void checkRange(String verb, MemorySegment host, long offset) {
        Objects.requireNonNull(host, verb + ": host segment is null");
        if (!host.isNative()) {
            throw new IllegalArgumentException(verb + ": the host segment must be native memory");
        }
        checkRange(verb, offset, host.byteSize());
    }

    /** Checks that {@code offset .. offset + bytes} lies within the allocation. */
    void checkRange(String verb, long offset, long bytes) {
        if (offset < 0 || bytes < 0 || offset > length || bytes > length - offset) {
            throw new IllegalArgumentException(verb + ": " + bytes + " bytes at offset " + offset
                    + " do not fit the device memory's " + length + " bytes");
        }
    }
}
