package dev.panamaverbs.loader.internal;

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

    /** {@code memset(address, 0, size)}. */
    static void zero(long address, long size) {
        ALL.asSlice(address, size).fill((byte) 0);
    }

    /** Rejects a NULL pointer argument before it reaches C, naming the verb and the argument. */
    static void requireNonNull(long address, String verb, String argument) {
        if (address == 0) {
            throw new IllegalArgumentException(verb + ": " + argument + " is NULL");
        }
    }
}
