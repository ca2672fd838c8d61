package dev.panamaverbs;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What one {@link SendWorkRequest} holds during a post ({@code SendPath.acquire} to
 * {@code release}): the resources it acquired, the BIND_MW and LOCAL_INV facts the bookkeeping
 * after the post needs, and the next request as it was when acquired. The release and that
 * bookkeeping read these, never the request again: a request changed by another thread while
 * it is posted (a user's race) cannot make the library release something it did not acquire, or
 * leave a use count raised. A request is in one post at a time ({@link #begin()}).
 */
final class PostHolds {
    private static final VarHandle POSTING;

    static {
        try {
            POSTING = MethodHandles.lookup().findVarHandle(PostHolds.class, "posting", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through POSTING
    private volatile int posting;
    private final VerbsResource[] held;
    private int count;
    /** The request chained after this one when acquired. */
    SendWorkRequest next;
    /** A BIND_MW's window, region and new rkey as acquired (window null: none). */
    MemoryWindow bindWindow;
    MemoryRegion bindRegion;
    int bindRkey;
    /** Whether acquiring added the window as a user of the region (to undo if not posted). */
    boolean bindAddedUser;
    /** A LOCAL_INV's rkey as acquired. */
    boolean localInvalidate;
    int invalidateRkey;

    /** Room for an address handle, a window and its region, and {@code maxSge} regions. */
    PostHolds(int maxSge) {
        this.held = new VerbsResource[maxSge + 3];
    }

    /** Starts a post of this request; false if another post of it is under way. */
    boolean begin() {
        return POSTING.compareAndSet(this, 0, 1);
    }

    /**
     * Acquires {@code resource} and records it for {@link #end()}.
     *
     * @throws IllegalStateException if it is closed (nothing recorded)
     */
    void hold(VerbsResource resource) {
        if (count == held.length) {
            throw new IllegalStateException(SendWorkRequest.VERB + ": the request changed while it was posted");
        }
        resource.acquire();
        held[count++] = resource;
    }

    /** How many resources are held. */
    int heldCount() {
        return count;
    }

    /** Releases exactly what {@link #hold} acquired, forgets the rest, and ends the post. */
    void end() {
        for (int i = 0; i < count; i++) {
            held[i].release();
            held[i] = null;
        }
        count = 0;
        next = null;
        bindWindow = null;
        bindRegion = null;
        bindAddedUser = false;
        localInvalidate = false;
        POSTING.setRelease(this, 0);
    }
}
