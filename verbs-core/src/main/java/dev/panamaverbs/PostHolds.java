package dev.panamaverbs;

import dev.panamaverbs.values.WorkRequestOpcode;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What one {@link SendWorkRequest} holds during a post, and the taking and giving back of it for
 * a chain ({@link #acquire}, {@link #afterPost}, {@link #release}) or one request of a batch.
 * What one request holds during a post ({@code PostHolds.acquire} to
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

    /**
     * Holds open, for the duration of a post, what the provider reads during it: the address
     * handles of UD requests, the window and region of BIND_MW requests and the memory regions
     * INLINE requests copy from, so closing one concurrently waits instead of freeing that
     * memory. Each request records what it acquired ({@link PostHolds}), and the next request as
     * it was then: {@link #afterPost} and {@link #release} read those records, not the requests,
     * which another thread may change meanwhile.
     *
     * @return how many requests of the chain were started: pass it to {@link #afterPost} and {@link #release}
     * @throws IllegalStateException if a resource is closed, or a request is being posted by
     *         another thread at the same time (then nothing stays held)
     */
    static int acquire(SendWorkRequest head) {
        int started = 0;
        try {
            for (SendWorkRequest r = head; r != null; ) {
                PostHolds holds = begin(r);
                started++;
                SendWorkRequest next = r.next();
                holds.next = next;
                hold(r, holds);
                r = next;
            }
        } catch (IllegalStateException closed) {
            afterPost(head, false, head.address(), null, started);
            release(head, started);
            throw closed;
        }
        return started;
    }

    /**
     * {@link #acquire} for one request of a batch ({@link SendBatch}), all or nothing: end it
     * with {@link #afterPostOne} and {@link #releaseOne}.
     *
     * @throws IllegalStateException if a resource is closed, or the request is being posted by another thread
     */
    static void acquireOne(SendWorkRequest r) {
        PostHolds holds = begin(r);
        try {
            hold(r, holds);
        } catch (IllegalStateException closed) {
            afterPostOne(r, false, null);
            holds.end();
            throw closed;
        }
    }

    /** Starts {@code r}'s post: its record of what it holds, once no other post of it is under way. */
    private static PostHolds begin(SendWorkRequest r) {
        PostHolds holds = r.holds();
        if (!holds.begin()) {
            throw new IllegalStateException(SendWorkRequest.VERB + ": wr_id=" + r.wrId()
                    + " is being posted by another thread (a request is in one post at a time)");
        }
        return holds;
    }

    /** Acquires what request {@code r} names, recording it in {@code holds}. */
    private static void hold(SendWorkRequest r, PostHolds holds) {
        AddressHandle ah = r.addressHandle();
        if (ah != null) {
            holds.hold(ah);
        }
        MemoryWindow window = r.union().bindWindow();
        MemoryRegion bindRegion = r.union().bindRegion();
        if (window != null && bindRegion != null) {
            holds.hold(window);
            holds.hold(bindRegion);
            // Before posting, as MemoryWindow.bind does: a closing region throws here and
            // nothing is posted; once added, the region's close closes the window first.
            boolean added = !window.isBoundTo(bindRegion);
            bindRegion.addUser(window);
            holds.bindWindow = window;
            holds.bindRegion = bindRegion;
            holds.bindRkey = r.union().bindRkey();
            holds.bindAddedUser = added;
        }
        if (r.opcodeValue() == WorkRequestOpcode.LOCAL_INV.value()) {
            holds.localInvalidate = true;
            holds.invalidateRkey = r.invalidateRkeyValue();
        }
        if ((r.flagBits() & SendWorkRequest.INLINE) != 0) {
            for (int i = 0; i < r.sgeCount(); i++) {
                MemoryRegion region = r.region(i);
                if (region != null) {
                    holds.hold(region);
                }
            }
        }
    }

    /**
     * After a post, while {@link #acquire} still holds everything: the BIND_MW requests the
     * provider took (all on success, those before {@code bad_wr} on failure) make their window
     * bound to the region with the new rkey; the others undo the dependency {@link #acquire} added.
     * The LOCAL_INV requests it took free the type 2 window of {@code pd} they name (null: none).
     *
     * @param badAddress on failure, the address of the first request not posted (0: none was)
     * @param started    what {@link #acquire} returned
     */
    static void afterPost(SendWorkRequest head, boolean success, long badAddress, ProtectionDomain pd, int started) {
        boolean posted = success || badAddress != 0;
        SendWorkRequest r = head;
        for (int k = 0; k < started && r != null; k++) {
            if (!success && r.address() == badAddress) {
                posted = false;
            }
            afterPostOne(r, posted, pd);
            r = r.holds().next;
        }
    }

    /** {@link #afterPost} for one request, {@code posted} or not, from what its post recorded. */
    static void afterPostOne(SendWorkRequest r, boolean posted, ProtectionDomain pd) {
        PostHolds holds = r.holds();
        if (posted && pd != null && holds.localInvalidate) {
            pd.invalidated(holds.invalidateRkey);
        }
        if (holds.bindWindow != null) {
            if (posted) {
                holds.bindWindow.boundByRequest(holds.bindRegion, holds.bindRkey);
            } else if (holds.bindAddedUser) {
                holds.bindRegion.removeUser(holds.bindWindow);
            }
            holds.bindAddedUser = false;
        }
    }

    /** Releases what {@link #acquire} held for the first {@code started} requests, and ends their posts. */
    static void release(SendWorkRequest head, int started) {
        SendWorkRequest r = head;
        for (int k = 0; k < started && r != null; k++) {
            PostHolds holds = r.holds();
            SendWorkRequest next = holds.next;
            holds.end();
            r = next;
        }
    }

    /** Releases what {@link #acquireOne} held for {@code r}, and ends its post. */
    static void releaseOne(SendWorkRequest r) {
        r.holds().end();
    }
}
