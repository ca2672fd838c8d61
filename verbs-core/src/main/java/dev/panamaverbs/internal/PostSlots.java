package dev.panamaverbs.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The out-argument of one work request's post, in the request's arena: the {@code bad_wr} slot
 * the provider writes the first refused request to. Passed as a segment, so the downcall keeps
 * the arena open until the provider returns.
 */
public final class PostSlots {
    private final MemorySegment badRequest;

    public PostSlots(Arena arena) {
        this.badRequest = arena.allocate(ADDRESS);
    }

    /** The {@code bad_wr} slot, for the downcall. */
    public MemorySegment badRequest() {
        return badRequest;
    }

    /** The slot's own address (tests play the provider with it). */
    public long badRequestSlotAddress() {
        return badRequest.address();
    }

    /** After a failed post: the {@code bad_wr} the provider reported (0 if none). */
    public long badRequestAddress() {
        return badRequest.get(JAVA_LONG, 0);
    }

    /** Before a post: no refused request yet. */
    public void clearBadRequest() {
        badRequest.set(JAVA_LONG, 0, 0L);
    }
}
