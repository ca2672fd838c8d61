package dev.panamaverbs;

import dev.panamaverbs.ffm.ibv_recv_wr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A reusable receive work request: a preallocated native {@code struct ibv_recv_wr}, its
 * {@code ibv_sge} array and the {@code bad_wr} out slot, posted with
 * {@link SharedReceiveQueue#postReceive} or {@code QueuePair.postReceive}. Posting copies the
 * request into the queue, so the same object can be changed and posted again at once; the
 * buffers its entries point to belong to the device until the receive completes.
 *
 * <p>Setters return {@code this} and allocate nothing. Requests chain through {@code next(ReceiveWorkRequest)}
 * (one post call for the whole chain, as C's {@code wr->next}). Not thread-safe.
 *
 * <p>Memory: {@link #allocate(int)} uses an automatic (GC-managed) arena;
 * {@link #allocate(Arena, int)} the caller's. A post passes the request (with its entry array)
 * to the provider as a segment, so its arena stays open until the provider returns: closing a
 * shared arena while the provider runs throws {@link IllegalStateException}, as for any
 * FFM downcall argument. Requests chained after the first, when they live in other arenas, are
 * not covered by that.
 */
public final class ReceiveWorkRequest extends WorkRequest<ReceiveWorkRequest> {
    static final String VERB = "ibv_post_recv";

    private final MemorySegment entries;
    /** The region behind each entry (checked open and of the queue's protection domain at post). */
    private final MemoryRegion[] regions;
    private final int maxSge;
    private int sgeCount;

    private ReceiveWorkRequest(Arena arena, int maxSge) {
        super(VERB, arena, ibv_recv_wr.LAYOUT, maxSge);
        this.maxSge = maxSge;
        this.regions = new MemoryRegion[maxSge];
        this.entries = ScatterGatherEntries.allocate(arena, Math.max(1, maxSge));
        request.set(JAVA_LONG, ibv_recv_wr.sg_list$OFFSET, entries.address());
    }

    /**
     * A request with room for {@code maxSge} scatter/gather entries, in an automatic arena.
     *
     * @param maxSge the maximum number of scatter/gather entries per work request
     * @return a request with room for {@code maxSge} scatter/gather entries, in an automatic arena
     * @throws IllegalArgumentException if {@code maxSge} is negative or above 65536 (before allocating)
     */
    public static ReceiveWorkRequest allocate(int maxSge) {
        return new ReceiveWorkRequest(Arena.ofAuto(), maxSge);
    }

    /**
     * A request with room for {@code maxSge} scatter/gather entries, in {@code arena}.
     *
     * @param arena the arena that owns the allocated memory
     * @param maxSge the maximum number of scatter/gather entries per work request
     * @return a request with room for {@code maxSge} scatter/gather entries, in {@code arena}
     * @throws IllegalArgumentException if {@code maxSge} is negative or above 65536 (before allocating)
     */
    public static ReceiveWorkRequest allocate(Arena arena, int maxSge) {
        return new ReceiveWorkRequest(Objects.requireNonNull(arena, "arena"), maxSge);
    }

    /**
     * Sets scatter/gather entry {@code index} to {@code [offset, offset + length)} of
     * {@code region} (address and lkey from the region). Writing entry 0 starts a new list of one
     * entry, so a request reused with fewer entries keeps none of the old ones; writing entry
     * {@code i > 0} makes the list at least {@code i + 1} long, so one later entry can be changed
     * in place. Write the entries in order from 0; {@link #sgeCount(int)} sets the count explicitly.
     *
     * @throws IllegalArgumentException if {@code index} is not in {@code 0..maxSge-1} or the range
     *         is not inside the region
     * @throws IllegalStateException if the region is deregistered
     * @param index the scatter/gather entry, from 0 to {@code maxSge - 1}
     * @param region the memory region
     * @param offset the offset in bytes
     * @param length the length in bytes
     * @return this receive work request
     */
    public ReceiveWorkRequest sge(int index, MemoryRegion region, long offset, int length) {
        if (index < 0 || index >= maxSge) {
            throw new IllegalArgumentException(VERB + ": sge index must be in 0.." + (maxSge - 1)
                    + " (this request's maxSge " + maxSge + "), got " + index);
        }
        ScatterGatherEntries.write(VERB, entries, index, region, offset, length);
        regions[index] = region;
        setCount(ScatterGatherEntries.countAfterWriting(index, sgeCount));
        return this;
    }

    /**
     * Sets {@code num_sge}: how many of the entries the device fills, in order.
     *
     * @throws IllegalArgumentException if {@code count} is not in {@code 0..maxSge}
     * @param count how many
     * @return this receive work request
     */
    public ReceiveWorkRequest sgeCount(int count) {
        if (count < 0 || count > maxSge) {
            throw new IllegalArgumentException(VERB + ": sge count must be in 0.." + maxSge + ", got " + count);
        }
        setCount(count);
        return this;
    }

    private void setCount(int count) {
        sgeCount = count;
        request.set(JAVA_INT, ibv_recv_wr.num_sge$OFFSET, count);
    }

    /**
     * {@code num_sge}.
     *
     * @return {@code num_sge}
     */
    public int sgeCount() {
        return sgeCount;
    }

    /**
     * The number of entries this request has room for.
     *
     * @return the number of entries this request has room for
     */
    public int maxSge() {
        return maxSge;
    }

    /**
     * Entry {@code index}'s device address ({@code sg_list[index].addr}).
     *
     * @param index the scatter/gather entry, from 0 to {@code maxSge - 1}
     * @return entry {@code index}'s device address ({@code sg_list[index].addr})
     */
    public long sgeAddress(int index) {
        return ScatterGatherEntries.address(entries, Objects.checkIndex(index, maxSge));
    }

    /**
     * Entry {@code index}'s length ({@code sg_list[index].length}).
     *
     * @param index the scatter/gather entry, from 0 to {@code maxSge - 1}
     * @return entry {@code index}'s length ({@code sg_list[index].length})
     */
    public int sgeLength(int index) {
        return ScatterGatherEntries.length(entries, Objects.checkIndex(index, maxSge));
    }

    /**
     * Entry {@code index}'s lkey ({@code sg_list[index].lkey}).
     *
     * @param index the scatter/gather entry, from 0 to {@code maxSge - 1}
     * @return entry {@code index}'s lkey ({@code sg_list[index].lkey})
     */
    public int sgeLkey(int index) {
        return ScatterGatherEntries.lkey(entries, Objects.checkIndex(index, maxSge));
    }

    /**
     * The native {@code struct ibv_recv_wr}, read-only, for callers of the generated layer that
     * inspect it. Read-only so that no caller can plant {@code sg_list} or {@code next} pointers
     * the provider would follow: change the request through its setters.
     *
     * @return the native {@code struct ibv_recv_wr}, read-only, for callers of the generated layer that inspect it
     */
    public MemorySegment segment() {
        return readOnlyRequest;
    }

    /** The region behind entry {@code index}, or {@code null} if the entry was never set. */
    MemoryRegion region(int index) {
        return regions[index];
    }

    @Override
    public String toString() {
        return "ReceiveWorkRequest[wr_id=" + wrId() + ", num_sge=" + sgeCount + "/" + maxSge
                + (next() == null ? "" : ", chained") + "]";
    }
}
