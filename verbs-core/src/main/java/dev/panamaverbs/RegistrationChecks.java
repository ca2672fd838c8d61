package dev.panamaverbs;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Argument checks for memory registration ({@code ibv_reg_mr}, {@code ibv_reg_mr_iova2},
 * {@code ibv_reg_dmabuf_mr}) and window binding. They run before any native call and need no
 * device, so a bad argument is always an {@link IllegalArgumentException} naming the verb, never
 * an errno from the kernel.
 */
final class RegistrationChecks {
    private RegistrationChecks() {}

    /**
     * The memory a region may cover: a native segment (heap arrays move with the GC, the NIC
     * would read stale pages), non-empty, whose arena is still open, writable if write access is
     * asked for.
     */
    static void checkMemory(String verb, MemorySegment memory, Set<AccessFlag> access) {
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
    static EnumSet<AccessFlag> checkAccess(String verb, Set<AccessFlag> access) {
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
    static void checkDmabuf(String verb, long offset, long length, int fd) {
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
     * Whether {@code [address, address + length)} lies inside {@code [start, start + size)}.
     * Addresses are unsigned 64-bit values; a range that wraps around never fits. An empty range
     * fits when its address is inside the region or at its end.
     */
    static boolean rangeInside(long start, long size, long address, long length) {
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
