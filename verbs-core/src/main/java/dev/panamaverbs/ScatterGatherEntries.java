package dev.panamaverbs;

import dev.panamaverbs.ffm.ibv_sge;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The one writer of {@code struct ibv_sge} arrays, shared by receive and send work requests:
 * checks a (region, offset, length) triple against the memory region and writes the entry with
 * plain stores, no allocation.
 */
final class ScatterGatherEntries {
    /** {@code sizeof(struct ibv_sge)}. */
    static final long SGE_SIZE = ibv_sge.LAYOUT.byteSize();

    private ScatterGatherEntries() {}

    /** A zeroed array of {@code count} entries in {@code arena}. */
    static MemorySegment allocate(Arena arena, int count) {
        return arena.allocate(ibv_sge.LAYOUT, count);
    }

    /**
     * The device address of {@code [offset, offset + length)} of {@code region}, after checking
     * that the range lies inside it.
     *
     * @throws IllegalArgumentException naming {@code verb} when the range is outside the region
     * @throws IllegalStateException if the region is deregistered
     */
    static long checkedAddress(String verb, MemoryRegion region, long offset, int length) {
        if (region == null) {
            throw new IllegalArgumentException(verb + ": scatter/gather entry needs a memory region, got null");
        }
        checkRange(verb, region, region.length(), offset, length);
        return region.iova() + offset;
    }

    /**
     * Checks that {@code [offset, offset + length)} lies inside {@code [0, regionLength)};
     * {@code region} only names the region in the message.
     *
     * @throws IllegalArgumentException naming {@code verb} otherwise
     */
    static void checkRange(String verb, Object region, long regionLength, long offset, int length) {
        if (offset < 0 || length < 0 || offset > regionLength || length > regionLength - offset) {
            throw new IllegalArgumentException(verb + ": scatter/gather range [offset=" + offset + ", length=" + length
                    + "] is outside " + region + " (length " + regionLength + ")");
        }
    }

    /**
     * The entry count after entry {@code index} was written over a list of {@code count}: writing
     * entry 0 starts a new list of one entry (so a request reused with fewer entries keeps none
     * of the old ones), writing entry {@code i > 0} makes the list at least {@code i + 1} long
     * (so changing one later entry in place keeps the others).
     */
    static int countAfterWriting(int index, int count) {
        return index == 0 ? 1 : Math.max(count, index + 1);
    }

    /** Writes entry {@code index} of {@code array}: {@code addr}, {@code length}, {@code lkey}. */
    static void write(MemorySegment array, int index, long address, int length, int lkey) {
        long base = index * SGE_SIZE;
        array.set(JAVA_LONG, base + ibv_sge.addr$OFFSET, address);
        array.set(JAVA_INT, base + ibv_sge.length$OFFSET, length);
        array.set(JAVA_INT, base + ibv_sge.lkey$OFFSET, lkey);
    }

    /** Writes entry {@code index} for {@code [offset, offset + length)} of {@code region}, checked. */
    static void write(String verb, MemorySegment array, int index, MemoryRegion region, long offset, int length) {
        long address = checkedAddress(verb, region, offset, length);
        write(array, index, address, length, region.lkey());
    }

    /** Entry {@code index}'s {@code addr}. */
    static long address(MemorySegment array, int index) {
        return array.get(JAVA_LONG, index * SGE_SIZE + ibv_sge.addr$OFFSET);
    }

    /** Entry {@code index}'s {@code length}. */
    static int length(MemorySegment array, int index) {
        return array.get(JAVA_INT, index * SGE_SIZE + ibv_sge.length$OFFSET);
    }

    /** Entry {@code index}'s {@code lkey}. */
    static int lkey(MemorySegment array, int index) {
        return array.get(JAVA_INT, index * SGE_SIZE + ibv_sge.lkey$OFFSET);
    }
}
