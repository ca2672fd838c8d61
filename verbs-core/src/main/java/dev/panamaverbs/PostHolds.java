package dev.panamaverbs;

import dev.panamaverbs.internal.Handles;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What one {@link SendWorkRequest} holds during a post ({@link ChainHolds#acquire} to
 * {@link ChainHolds#release}, or the same for one request of a batch): the resources it acquired, the BIND_MW and LOCAL_INV facts the bookkeeping
 * after the post needs, and the next request as it was when acquired. The release and that
 * bookkeeping read these, never the request again: a request changed by another thread while
 * it is posted (a user's race) cannot make the library release something it did not acquire, or
 * leave a use count raised. A request is in one post at a time, the post of one thread
 * ({@link #begin(Thread)}): a batch may name it several times (its provider copies each
 * into the queue), but two threads cannot post it at once.
 */
final class PostHolds {
    private static final VarHandle POSTER = Handles.field(MethodHandles.lookup(), "poster", Thread.class);

    /** The thread whose post holds this request, null when none does. */
    @SuppressWarnings("unused") // through POSTER
    private volatile Thread poster;
    private final VerbsResource[] held;
    private int count;
    /** What the request chained after this one when acquired holds (null: none). */
    PostHolds next;
    /** The address of the request's native {@code ibv_send_wr}, to tell it from {@code bad_wr}. */
    long requestAddress;
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

    /**
     * Starts a post of this request by {@code thread}, unless a post holds it already.
     *
     * @return null if the post started; else the thread whose post holds the request
     */
    Thread begin(Thread thread) {
        return (Thread) POSTER.compareAndExchange(this, (Thread) null, thread);
    }

    /**
     * Acquires {@code resource} and records it for {@link #end()}.
     *
     * @throws IllegalStateException if it is closed (nothing recorded)
     */
    void hold(VerbsResource resource) {
        if (count == held.length) {
            throw new IllegalStateException("ibv_post_send: the request changed while it was posted");
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
        POSTER.setRelease(this, null);
    }
}
