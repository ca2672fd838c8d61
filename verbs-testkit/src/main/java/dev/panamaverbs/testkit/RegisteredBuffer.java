package dev.panamaverbs.testkit;

import dev.panamaverbs.values.AccessFlag;
import dev.panamaverbs.MemoryRegion;
import dev.panamaverbs.ProtectionDomain;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.Assertions;

/**
 * Native memory registered as one {@link MemoryRegion}, with the helpers a data-path test needs:
 * fill with a reproducible pattern, and compare byte for byte with the first difference named.
 * Closing deregisters the region, then frees the memory.
 */
public final class RegisteredBuffer implements AutoCloseable {
    /** Every access right: local write, remote write, remote read, remote atomic. */
    public static final Set<AccessFlag> FULL_ACCESS = EnumSet.of(
            AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_WRITE, AccessFlag.REMOTE_READ, AccessFlag.REMOTE_ATOMIC);

    private final Arena arena;
    private final MemorySegment memory;
    private final MemoryRegion region;

    private RegisteredBuffer(Arena arena, MemorySegment memory, MemoryRegion region) {
        this.arena = arena;
        this.memory = memory;
        this.region = region;
    }

    /**
     * {@code size} zeroed bytes, page aligned, registered in {@code pd} with {@link #FULL_ACCESS}.
     *
     * @param pd the protection domain
     * @param size the size in bytes
     * @return this registered buffer
     */
    public static RegisteredBuffer allocate(ProtectionDomain pd, int size) {
        return allocate(pd, size, FULL_ACCESS);
    }

    /**
     * {@code size} zeroed bytes, page aligned, registered in {@code pd} with {@code access}.
     *
     * @param pd the protection domain
     * @param size the size in bytes
     * @param access the access flags
     * @return this registered buffer
     */
    public static RegisteredBuffer allocate(ProtectionDomain pd, int size, Set<AccessFlag> access) {
        Objects.requireNonNull(pd, "pd");
        Arena arena = Arena.ofShared();
        try {
            MemorySegment memory = arena.allocate(size, 4096);
            return new RegisteredBuffer(arena, memory, pd.register(memory, access));
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /**
     * The registered region (lkey, rkey, device addresses).
     *
     * @return the registered region (lkey, rkey, device addresses)
     */
    public MemoryRegion region() {
        return region;
    }

    /**
     * The memory itself.
     *
     * @return the memory itself
     */
    public MemorySegment memory() {
        return memory;
    }

    /**
     * Size in bytes.
     *
     * @return the size in bytes
     */
    public int size() {
        return (int) memory.byteSize();
    }

    /**
     * The device address of byte {@code offset}: what a peer's RDMA request names.
     *
     * @param offset the offset in bytes
     * @return the device address of byte {@code offset}: what a peer's RDMA request names
     */
    public long deviceAddress(long offset) {
        return region.addressAt(offset, 0);
    }

    /**
     * The byte the pattern {@code seed} has at {@code index}: distinct per seed, never all zero.
     *
     * @param seed the value the test pattern starts from
     * @param index the byte's offset in the buffer
     * @return the byte the pattern {@code seed} has at {@code index}: distinct per seed, never all zero
     */
    public static byte patternByte(long seed, long index) {
        long x = (index + 1) * 0x9E3779B97F4A7C15L ^ seed * 0xC2B2AE3D27D4EB4FL;
        x ^= x >>> 29;
        return (byte) (x * 0x94D049BB133111EBL >>> 56);
    }

    /**
     * Fills the whole buffer with the pattern {@code seed}.
     *
     * @param seed the value the test pattern starts from
     * @return this registered buffer
     */
    public RegisteredBuffer fillPattern(long seed) {
        return fillPattern(seed, 0, size());
    }

    /**
     * Fills {@code [offset, offset + length)} with the pattern {@code seed} (indexes relative to {@code offset}).
     *
     * @param seed the value the test pattern starts from
     * @param offset the offset in bytes
     * @param length the length in bytes
     * @return this registered buffer
     */
    public RegisteredBuffer fillPattern(long seed, long offset, long length) {
        for (long i = 0; i < length; i++) {
            memory.set(ValueLayout.JAVA_BYTE, offset + i, patternByte(seed, i));
        }
        return this;
    }

    /**
     * Sets every byte to {@code value}.
     *
     * @param value the byte to fill with
     * @return this registered buffer
     */
    public RegisteredBuffer fill(byte value) {
        memory.fill(value);
        return this;
    }

    /**
     * Asserts that {@code [offset, offset + length)} holds the pattern {@code seed}, naming the first wrong byte.
     *
     * @param seed the value the test pattern starts from
     * @param offset the offset in bytes
     * @param length the length in bytes
     */
    public void assertPattern(long seed, long offset, long length) {
        for (long i = 0; i < length; i++) {
            byte actual = memory.get(ValueLayout.JAVA_BYTE, offset + i);
            byte expected = patternByte(seed, i);
            if (actual != expected) {
                Assertions.fail("byte " + (offset + i) + " of " + region + ": expected " + expected
                        + " (pattern " + seed + " index " + i + "), got " + actual);
            }
        }
    }

    /**
     * Asserts that {@code length} bytes here from {@code offset} equal {@code other}'s from {@code otherOffset}.
     *
     * @param offset the offset in bytes
     * @param other the other one
     * @param otherOffset the offset in the other one
     * @param length the length in bytes
     */
    public void assertSameBytes(long offset, RegisteredBuffer other, long otherOffset, long length) {
        long mismatch = MemorySegment.mismatch(memory, offset, offset + length, other.memory, otherOffset, otherOffset + length);
        if (mismatch != -1) {
            Assertions.fail("byte " + (offset + mismatch) + " differs from byte " + (otherOffset + mismatch) + " of the other buffer: "
                    + memory.get(ValueLayout.JAVA_BYTE, offset + mismatch) + " vs "
                    + other.memory.get(ValueLayout.JAVA_BYTE, otherOffset + mismatch));
        }
    }

    /**
     * Asserts that every byte of {@code [offset, offset + length)} is {@code value}.
     *
     * @param value the byte every position must hold
     * @param offset the offset in bytes
     * @param length the length in bytes
     */
    public void assertFilled(byte value, long offset, long length) {
        for (long i = 0; i < length; i++) {
            byte actual = memory.get(ValueLayout.JAVA_BYTE, offset + i);
            if (actual != value) {
                Assertions.fail("byte " + (offset + i) + ": expected " + value + ", got " + actual);
            }
        }
    }

    /**
     * The 64-bit word at {@code offset} (host order, as RDMA atomics operate on it).
     *
     * @param offset the offset in bytes
     * @return the 64-bit word at {@code offset} (host order, as RDMA atomics operate on it)
     */
    public long getLong(long offset) {
        return memory.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
    }

    /**
     * Writes the 64-bit word at {@code offset}.
     *
     * @param offset the offset in bytes
     * @param value the word to write
     */
    public void putLong(long offset, long value) {
        memory.set(ValueLayout.JAVA_LONG_UNALIGNED, offset, value);
    }

    /** Deregisters, then frees the memory. */
    @Override
    public void close() {
        try {
            region.close();
        } finally {
            arena.close();
        }
    }
}
