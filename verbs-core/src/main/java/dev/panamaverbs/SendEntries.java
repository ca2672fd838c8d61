package dev.panamaverbs;

import dev.panamaverbs.ffm.ibv_send_wr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The scatter/gather list of one {@link SendWorkRequest}: its native {@code ibv_sge} array, the
 * request's {@code num_sge}, and the Java mirrors the post-time checks read (lengths, the region
 * or inline memory behind each entry). The setters allocate nothing. The mirrors are plain fields
 * that {@link SendWorkRequest}'s post-time accessors read directly: a post runs no code of this
 * file.
 */
final class SendEntries {
    private static final String VERB = "ibv_post_send";

    /**
     * Why the CPU-copy paths refuse file mappings: a copy from a page the file lost (truncated by
     * anyone, at any time) faults in the provider's C code, and SIGBUS there ends the JVM.
     */
    static final String MAPPED_COPY = "the provider copies it with the CPU, and a page its file lost (truncated)"
            + " would kill the process with SIGBUS in that copy; copy the data into native memory first";

    /** The request's native {@code struct ibv_send_wr}, for {@code num_sge}. */
    private final MemorySegment request;
    private final MemorySegment entries;
    private final int maxSge;
    /** Java mirrors of native fields the post-time checks read, so they read no native memory. */
    final int[] lengths;
    /** Inline-data entries keep their memory referenced (and checked alive at post). */
    final MemorySegment[] inlineMemory;
    /** The region behind each region entry (checked open, of the QP's domain, and for INLINE readable at post). */
    final MemoryRegion[] regions;
    /** {@code num_sge}, mirrored. */
    int count;

    /** Allocates the array in {@code arena} and points the request's {@code sg_list} at it. */
    SendEntries(Arena arena, MemorySegment request, int maxSge) {
        this.request = request;
        this.maxSge = maxSge;
        this.entries = ScatterGatherEntries.allocate(arena, Math.max(1, maxSge));
        this.lengths = new int[maxSge];
        this.inlineMemory = new MemorySegment[maxSge];
        this.regions = new MemoryRegion[maxSge];
        request.set(JAVA_LONG, ibv_send_wr.sg_list$OFFSET, entries.address());
    }

    /** Entry {@code index} := {@code [offset, offset + length)} of {@code region}; the count follows ({@link ScatterGatherEntries#countAfterWriting}). */
    void setRegion(int index, MemoryRegion region, long offset, int length) {
        checkIndex(index);
        ScatterGatherEntries.write(VERB, entries, index, region, offset, length);
        lengths[index] = length;
        inlineMemory[index] = null;
        regions[index] = region;
        setCount(ScatterGatherEntries.countAfterWriting(index, count));
    }

    /** Entry {@code index} := inline data from {@code data}; the count follows ({@link ScatterGatherEntries#countAfterWriting}). */
    void setInline(int index, MemorySegment data) {
        checkIndex(index);
        Objects.requireNonNull(data, VERB + ": inline data");
        if (!data.isNative()) {
            throw new IllegalArgumentException(VERB + ": inline data must be native memory, not a heap segment");
        }
        if (!data.scope().isAlive()) {
            throw new IllegalArgumentException(VERB + ": the inline data's arena is closed");
        }
        if (data.byteSize() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(VERB + ": inline data of " + data.byteSize() + " bytes is too long");
        }
        if (data.isMapped()) {
            throw new IllegalArgumentException(VERB + ": inline data from a file mapping: " + MAPPED_COPY);
        }
        ScatterGatherEntries.write(entries, index, data.address(), (int) data.byteSize(), 0);
        lengths[index] = (int) data.byteSize();
        inlineMemory[index] = data;
        regions[index] = null;
        setCount(ScatterGatherEntries.countAfterWriting(index, count));
    }

    /** {@code num_sge} := {@code count}, checked against {@code 0..maxSge}. */
    void count(int count) {
        if (count < 0 || count > maxSge) {
            throw new IllegalArgumentException(VERB + ": sge count must be in 0.." + maxSge + ", got " + count);
        }
        setCount(count);
    }

    private void setCount(int count) {
        this.count = count;
        request.set(JAVA_INT, ibv_send_wr.num_sge$OFFSET, count);
    }

    private void checkIndex(int index) {
        if (index < 0 || index >= maxSge) {
            throw new IllegalArgumentException(VERB + ": sge index must be in 0.." + (maxSge - 1)
                    + " (this request's maxSge " + maxSge + "), got " + index);
        }
    }

    int maxSge() {
        return maxSge;
    }

    long address(int index) {
        return ScatterGatherEntries.address(entries, Objects.checkIndex(index, maxSge));
    }

    int length(int index) {
        return ScatterGatherEntries.length(entries, Objects.checkIndex(index, maxSge));
    }

    int lkey(int index) {
        return ScatterGatherEntries.lkey(entries, Objects.checkIndex(index, maxSge));
    }

    /** The bytes the entries in use cover. */
    long totalLength() {
        long total = 0;
        for (int i = 0; i < count; i++) {
            total += Integer.toUnsignedLong(lengths[i]);
        }
        return total;
    }
}
