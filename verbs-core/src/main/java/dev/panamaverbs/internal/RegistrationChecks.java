package dev.panamaverbs.internal;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.values.MemoryWindowType;
import java.lang.foreign.MemorySegment;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Argument checks for memory registration ({@code ibv_reg_mr}, {@code ibv_reg_mr_iova2},
 * {@code ibv_reg_dmabuf_mr}) and window binding. They run before any native call and need no
 * device, so a bad argument is always an {@link IllegalArgumentException} naming the verb, never
 * an errno from the kernel.
 */
public final class RegistrationChecks {
    private RegistrationChecks() {}

    /**
     * The memory a region may cover: a native segment (heap arrays move with the GC, the NIC
     * would read stale pages), non-empty, whose arena is still open, writable if write access is
     * asked for.
     */
    public static void checkMemory(String verb, MemorySegment memory, Set<AccessFlag> access) {
        Objects.requireNonNull(memory, verb + ": memory segment is null");
        if (!memory.isNative()) {
            throw new IllegalArgumentException(verb + ": heap segments cannot be registered, use"
                    + " Arena.allocate(...) (or another native segment): the garbage collector moves heap"
                    + " arrays while the device reads and writes them");
        }
        if (memory.address() == 0) {
            throw new IllegalArgumentException(verb + ": the segment starts at address 0 (NULL)");
        }
        if (memory.byteSize() == 0) {
            throw new IllegalArgumentException(verb + ": length must be > 0, got an empty segment");
        }
        if (!memory.scope().isAlive()) {
            throw new IllegalArgumentException(verb + ": the segment's arena is already closed");
        }
        if (memory.isReadOnly() && grantsWrite(access)) {
            throw new IllegalArgumentException(verb + ": a read-only segment cannot be registered with "
                    + writeFlags(access) + " access");
        }
    }

    /**
     * The access rules of the verbs specification (and of the kernel's {@code ib_check_mr_access}):
     * the device may write into memory remotely only if it may write into it locally.
     *
     * @return the access flags as an independent {@link EnumSet}
     */
    public static EnumSet<AccessFlag> checkAccess(String verb, Set<AccessFlag> access) {
        Objects.requireNonNull(access, verb + ": access flags are null");
        EnumSet<AccessFlag> copy = access.isEmpty() ? EnumSet.noneOf(AccessFlag.class) : EnumSet.copyOf(access);
        if ((copy.contains(AccessFlag.REMOTE_WRITE) || copy.contains(AccessFlag.REMOTE_ATOMIC))
                && !copy.contains(AccessFlag.LOCAL_WRITE)) {
            throw new IllegalArgumentException(verb + ": " + writeFlags(copy)
                    + " requires LOCAL_WRITE as well (verbs spec: remote write or atomic access implies local write)");
        }
        return copy;
    }

    /** The plain arguments of {@code ibv_reg_dmabuf_mr}: an offset into the buffer, a length, a file descriptor. */
    public static void checkDmabuf(String verb, long offset, long length, int fd) {
        if (offset < 0) {
            throw new IllegalArgumentException(verb + ": offset must be >= 0, got " + offset);
        }
        if (length <= 0) {
            throw new IllegalArgumentException(verb + ": length must be > 0, got " + length);
        }
        if (fd < 0) {
            throw new IllegalArgumentException(verb + ": fd must be an open dma-buf file descriptor (>= 0), got " + fd);
        }
    }

    /**
     * The size of a region the binding allocates itself ({@code ibv_reg_mr} over new memory):
     * above 0 and at most the device's {@code max_mr_size}, an unsigned value (-1 means no limit).
     * The limit is asked for only once the size is positive, so a bad size needs no device.
     */
    public static void checkRegionSize(String verb, long byteSize, LongSupplier maxMrSizeQuery) {
        if (byteSize <= 0) {
            throw new IllegalArgumentException(verb + ": length must be > 0, got " + byteSize);
        }
        long maxMrSize = maxMrSizeQuery.getAsLong();
        if (Long.compareUnsigned(byteSize, maxMrSize) > 0) {
            throw new IllegalArgumentException(verb + ": length " + byteSize + " exceeds the device's max_mr_size of "
                    + Long.toUnsignedString(maxMrSize) + " bytes");
        }
    }

    /** The window access rights a bind may grant; everything else belongs to regions or queue pairs. */
    public static final Set<AccessFlag> BINDABLE_ACCESS = Collections.unmodifiableSet(EnumSet.of(
            AccessFlag.REMOTE_READ, AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_ATOMIC, AccessFlag.ZERO_BASED));

    /**
     * The checks of {@code ibv_bind_mw} on plain values: a type 1 window, then
     * {@link #checkBindRange}. {@code window} and {@code region} only name the objects in messages.
     */
    public static void checkBind(String verb, Object window, MemoryWindowType type, Set<AccessFlag> windowAccess,
            Object region, Set<AccessFlag> regionAccess, long regionLength, long offset, long length) {
        if (type != MemoryWindowType.TYPE_1) {
            throw new IllegalArgumentException(verb + ": only type 1 windows are bound with ibv_bind_mw; "
                    + window + " is type 2, bound by a BIND_MW work request: post"
                    + " SendWorkRequest.bindMemoryWindow(...) with QueuePair.postSend");
        }
        checkBindRange(verb, windowAccess, region, regionAccess, regionLength, offset, length);
    }

    /**
     * The checks every window bind shares (type 1 through {@code ibv_bind_mw}, type 2 through a
     * {@code BIND_MW} work request): window access (already through {@link #checkAccess}) made of
     * {@link #BINDABLE_ACCESS}; a region registered with {@link AccessFlag#MW_BIND}, and with
     * {@link AccessFlag#LOCAL_WRITE} when the window grants remote write or atomics;
     * {@code [offset, offset + length)} non-empty and inside the region.
     */
    public static void checkBindRange(String verb, Set<AccessFlag> windowAccess, Object region, Set<AccessFlag> regionAccess,
            long regionLength, long offset, long length) {
        for (AccessFlag flag : windowAccess) {
            if (!BINDABLE_ACCESS.contains(flag)) {
                throw new IllegalArgumentException(verb + ": a window cannot grant " + flag + "; allowed: "
                        + BINDABLE_ACCESS);
            }
        }
        if (!regionAccess.contains(AccessFlag.MW_BIND)) {
            throw new IllegalArgumentException(verb + ": " + region + " was not registered with MW_BIND access");
        }
        if ((windowAccess.contains(AccessFlag.REMOTE_WRITE) || windowAccess.contains(AccessFlag.REMOTE_ATOMIC))
                && !regionAccess.contains(AccessFlag.LOCAL_WRITE)) {
            throw new IllegalArgumentException(verb + ": remote write or atomic access through a window needs a region"
                    + " registered with LOCAL_WRITE");
        }
        if (offset < 0 || length <= 0 || offset > regionLength - length) {
            throw new IllegalArgumentException(verb + ": range offset=" + offset + ", length=" + length
                    + " is not inside " + region);
        }
    }

    /**
     * That {@code resource} (a queue pair, region or address handle) lives in {@code domain}, the
     * protection domain of {@code user}: verbs objects of different domains cannot be combined.
     *
     * @param resourceDomain the protection domain of {@code resource}
     */
    public static void checkSameDomain(String verb, Object user, Object domain, Object resource, Object resourceDomain) {
        if (resourceDomain != domain) {
            throw new IllegalArgumentException(verb + ": " + resource + " belongs to " + resourceDomain
                    + ", not to " + domain + " of " + user);
        }
    }

    /**
     * Whether {@code [address, address + length)} lies inside {@code [start, start + size)}.
     * Addresses are unsigned 64-bit values; a range that wraps around never fits. An empty range
     * fits when its address is inside the region or at its end.
     */
    public static boolean rangeInside(long start, long size, long address, long length) {
        if (length < 0) {
            return false;
        }
        long offset = address - start;
        return Long.compareUnsigned(offset, size) <= 0 && Long.compareUnsigned(length, size - offset) <= 0;
    }

    private static boolean grantsWrite(Set<AccessFlag> access) {
        return access.contains(AccessFlag.LOCAL_WRITE) || access.contains(AccessFlag.REMOTE_WRITE)
                || access.contains(AccessFlag.REMOTE_ATOMIC);
    }

    private static String writeFlags(Set<AccessFlag> access) {
        EnumSet<AccessFlag> writes = EnumSet.noneOf(AccessFlag.class);
        for (AccessFlag flag : access) {
            if (flag == AccessFlag.LOCAL_WRITE || flag == AccessFlag.REMOTE_WRITE || flag == AccessFlag.REMOTE_ATOMIC) {
                writes.add(flag);
            }
        }
        return writes.toString().replace("[", "").replace("]", "");
    }
}
