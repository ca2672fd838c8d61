package dev.panamaverbs.gateway;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Plain reads and writes at raw addresses the provider handed out (its structs, its ops tables).
 * One global segment spanning the address space, sized once, so the data path creates nothing.
 */
@SuppressWarnings("restricted") // native access is granted to this module on purpose
final class Memory {
    /** Every address; bounds are the caller's business, as they are in C. */
    static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private Memory() {}

    static long readLong(long address) {
        return ALL.get(JAVA_LONG, address);
    }

    static int readInt(long address) {
        return ALL.get(JAVA_INT, address);
    }

    static void writeLong(long address, long value) {
        ALL.set(JAVA_LONG, address, value);
    }

    static void writeInt(long address, int value) {
        ALL.set(JAVA_INT, address, value);
    }

    /** Copies {@code bytes} bytes from {@code from} to {@code to} (no allocation). */
    static void copy(long from, long to, long bytes) {
        MemorySegment.copy(ALL, from, ALL, to, bytes);
    }

    /** {@code memset(address, 0, size)}. */
    static void zero(long address, long size) {
        ALL.asSlice(address, size).fill((byte) 0);
    }

    /**
     * The lowest address a Linux process can map ({@code vm.mmap_min_addr}'s default, 64 KiB):
     * nothing below it, nor above the user half of the address space (a negative {@code long}),
     * can be a pointer a provider handed out.
     */
    static final long LOWEST_USER_ADDRESS = 0x10000;

    /**
     * Rejects a pointer argument that cannot point at anything, before it reaches C: NULL, an
     * address below {@link #LOWEST_USER_ADDRESS}, or one in the kernel's half. A cheap check,
     * not a proof: only pointers the provider handed out are valid.
     */
    static void requireNonNull(long address, String verb, String argument) {
        if (address == 0) {
            throw new IllegalArgumentException(verb + ": " + argument + " is NULL");
        }
        if (address < LOWEST_USER_ADDRESS) { // signed: the kernel's half is negative
            throw new IllegalArgumentException(verb + ": " + argument + " 0x" + Long.toHexString(address)
                    + " is not a user-space pointer");
        }
    }

    /**
     * Checks an output array argument: {@code count} is not negative and, when it is positive,
     * {@code array} is a user-space pointer (several verbs take such a count and array pair).
     */
    static void requireArray(long array, long count, String verb, String arrayName, String countName) {
        if (count < 0) {
            throw new IllegalArgumentException(verb + ": " + countName + " " + count + " is negative");
        }
        if (count > 0) {
            requireNonNull(array, verb, arrayName);
        }
    }
}
