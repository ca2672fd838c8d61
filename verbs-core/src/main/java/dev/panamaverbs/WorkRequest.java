package dev.panamaverbs;

import dev.panamaverbs.internal.SizeLimits;
import dev.panamaverbs.ffm.ibv_recv_wr;
import dev.panamaverbs.ffm.ibv_send_wr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * What {@link SendWorkRequest} and {@link ReceiveWorkRequest} share: the preallocated native
 * request with its read-only view, the post's {@code bad_wr} slot, {@code wr_id}, and the C
 * {@code wr->next} chain (the loop check before linking, and after a failed post, which request
 * of the chain the provider named in {@code bad_wr}). Nothing here allocates after construction.
 *
 * @param <W> the work request class
 */
abstract class WorkRequest<W extends WorkRequest<W>> {
    /** {@code wr_id} and {@code next} lead both C structs, at the same offsets. */
    private static final long WR_ID = ibv_send_wr.wr_id$OFFSET;
    private static final long NEXT = ibv_send_wr.next$OFFSET;

    static {
        if (ibv_recv_wr.wr_id$OFFSET != WR_ID || ibv_recv_wr.next$OFFSET != NEXT) {
            throw new AssertionError("struct ibv_recv_wr and struct ibv_send_wr disagree on wr_id/next");
        }
    }

    private final String verb;
    /** The native request, written by the setters. */
    final MemorySegment request;
    /** The read-only view {@code segment()} hands out, made once. */
    final MemorySegment readOnlyRequest;
    /**
     * The post's {@code bad_wr} out slot, in the request's arena, where the provider writes the
     * first refused request. Kept here (not in a helper object) so a post runs no other file's code
     * to clear and pass it.
     */
    private final MemorySegment badRequest;
    private long wrId;
    private W next;

    /**
     * Checks {@code maxSge} for {@code verb}, then allocates a zeroed {@code layout} and the
     * {@code bad_wr} slot in {@code arena}.
     *
     * @throws IllegalArgumentException if {@code maxSge} is negative or above 65536 (before allocating)
     */
    WorkRequest(String verb, Arena arena, MemoryLayout layout, int maxSge) {
        SizeLimits.checkMaxSge(verb, maxSge);
        this.verb = verb;
        this.request = arena.allocate(layout);
        this.readOnlyRequest = request.asReadOnly();
        this.badRequest = arena.allocate(ADDRESS);
    }

    @SuppressWarnings("unchecked")
    private W self() {
        return (W) this;
    }

    /**
     * Sets {@code wr_id}: the id the request's completion carries ({@link Completions#wrId}).
     *
     * @param wrId the work request id, returned in its completion
     * @return this work request
     */
    public W wrId(long wrId) {
        this.wrId = wrId;
        request.set(JAVA_LONG, WR_ID, wrId);
        return self();
    }

    /**
     * {@code wr_id}.
     *
     * @return {@code wr_id}
     */
    public long wrId() {
        return wrId;
    }

    /**
     * Chains {@code following} after this request ({@code wr->next}), or ends the chain here with
     * {@code null}. Posting this request then posts the whole chain in one call.
     *
     * @throws IllegalArgumentException if the chain would loop back to this request
     * @param following the next request, or {@code null}
     * @return this work request
     */
    public W next(W following) {
        for (WorkRequest<W> r = following; r != null; r = r.next) {
            if (r == this) {
                throw new IllegalArgumentException(verb + ": chaining would make a loop through wr_id=" + wrId);
            }
        }
        next = following;
        request.set(JAVA_LONG, NEXT, following == null ? 0L : following.address());
        return self();
    }

    /**
     * The request chained after this one, or {@code null}.
     *
     * @return the request chained after this one, or {@code null}
     */
    public W next() {
        return next;
    }

    /** The request's address, what {@code wr->next} and {@code bad_wr} hold. */
    final long address() {
        return request.address();
    }

    /**
     * The request as a segment of its arena, for the post downcall, which keeps that arena open
     * until the provider returns.
     */
    final MemorySegment nativeRequest() {
        return request;
    }

    /** The {@code bad_wr} slot as a segment, for the post downcall (which keeps its arena open). */
    final MemorySegment badRequestSlot() {
        return badRequest;
    }

    /** After a failed post: the {@code bad_wr} the provider reported (0 if none). */
    final long badRequestAddress() {
        return badRequest.get(JAVA_LONG, 0);
    }

    /** Before a post: no refused request yet. */
    final void clearBadRequest() {
        badRequest.set(JAVA_LONG, 0, 0L);
    }

    /** False once the arena holding the native request is closed. */
    final boolean isAlive() {
        return request.scope().isAlive();
    }

    /**
     * After a failed post: which request of this chain the provider reported in {@code bad_wr},
     * as {@code "bad_wr wr_id=N (request K of the chain)"}, for the exception message.
     */
    final String describeBadRequest() {
        long refused = badRequestAddress();
        if (refused == 0) {
            return "bad_wr not set";
        }
        int position = 0;
        for (WorkRequest<W> r = this; r != null; r = r.next, position++) {
            if (r.address() == refused) {
                return "bad_wr wr_id=" + r.wrId + " (request " + position + " of the chain)";
            }
        }
        return "bad_wr 0x" + Long.toHexString(refused) + " is not in the chain";
    }
}
