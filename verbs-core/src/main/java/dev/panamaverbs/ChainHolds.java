package dev.panamaverbs;

/**
 * The taking and giving back of what send requests hold during a post ({@link PostHolds}): for a
 * chain ({@link #acquire}, {@link #afterPost}, {@link #release}) or for one request of a batch
 * ({@link #acquireOne}, {@link #afterPostOne}, {@link #releaseOne}).
 */
final class ChainHolds {
    private static final String VERB = "ibv_post_send";

    private ChainHolds() {}

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
     *         another thread at the same time, or was linked into the chain twice meanwhile (then
     *         nothing stays held)
     */
    static int acquire(SendWorkRequest head) {
        int started = 0;
        try {
            for (SendWorkRequest r = head; r != null; ) {
                if (!begin(r)) {
                    // next(...) refuses loops: only another thread relinking the chain gets here.
                    throw new IllegalStateException(VERB + ": wr_id=" + r.wrId()
                            + " is in the chain twice: the chain changed while it was posted");
                }
                PostHolds holds = r.holds();
                started++;
                SendWorkRequest next = r.next();
                holds.next = next == null ? null : next.holds();
                holds.requestAddress = r.address();
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
     * with {@link #afterPostOne} and {@link #releaseOne}, once for each time it returned true.
     *
     * @return true if this started the request's post; false if this thread's post holds it
     *         already (the batch names it again), and nothing more was acquired
     * @throws IllegalStateException if a resource is closed, or the request is being posted by another thread
     */
    static boolean acquireOne(SendWorkRequest r) {
        if (!begin(r)) {
            return false;
        }
        PostHolds holds = r.holds();
        try {
            hold(r, holds);
        } catch (IllegalStateException closed) {
            afterPostOne(r, false, null);
            holds.end();
            throw closed;
        }
        return true;
    }

    /**
     * Starts {@code r}'s post by the calling thread. The owner is a thread, not a flag, so a
     * batch that names one request several times is told apart from a real race.
     *
     * @return true if {@code r} was in no post; false if this thread's post already holds it
     * @throws IllegalStateException if another thread's post holds it
     */
    private static boolean begin(SendWorkRequest r) {
        Thread current = Thread.currentThread();
        Thread owner = r.holds().begin(current);
        if (owner == null) {
            return true;
        }
        if (owner == current) {
            return false;
        }
        throw new IllegalStateException(VERB + ": wr_id=" + r.wrId() + " is being posted by another"
                + " thread at the same moment (a request is in one post at a time: give each thread its own requests)");
    }

    /** Acquires what request {@code r} names, recording it in {@code holds}. */
    private static void hold(SendWorkRequest r, PostHolds holds) {
        AddressHandle ah = r.addressHandle();
        if (ah != null) {
            holds.hold(ah);
        }
        // The union's window and region only for a BIND_MW: a UD or INLINE post reads no more of it.
        MemoryWindow window = r.remoteKind() == SendWrUnion.REMOTE_BIND ? r.union().bindWindow : null;
        MemoryRegion bindRegion = window != null ? r.union().bindRegion : null;
        if (window != null && bindRegion != null) {
            holds.hold(window);
            holds.hold(bindRegion);
            // Claimed before the post, atomically: a second bind of the window in this chain or
            // batch, or in another thread's post, is refused here instead of reaching the device.
            window.claimType2Bind(r.wrId());
            boolean added;
            try {
                // Before posting, as MemoryWindow.bind does: a closing region throws here and
                // nothing is posted; once added, the region's close closes the window first.
                added = !window.isBoundTo(bindRegion);
                bindRegion.addUser(window);
            } catch (RuntimeException e) {
                window.type2BindNotPosted();
                throw e;
            }
            holds.bindWindow = window;
            holds.bindRegion = bindRegion;
            holds.bindRkey = r.union().bindRkey;
            holds.bindAddedUser = added;
        }
        if (r.opcodeBit() == SendOperations.LOCAL_INV) {
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
        PostHolds holds = head.holds();
        for (int k = 0; k < started && holds != null; k++) {
            if (!success && holds.requestAddress == badAddress) {
                posted = false;
            }
            afterPost(holds, posted, pd);
            holds = holds.next;
        }
    }

    /** {@link #afterPost} for one request, {@code posted} or not, from what its post recorded. */
    static void afterPostOne(SendWorkRequest r, boolean posted, ProtectionDomain pd) {
        afterPost(r.holds(), posted, pd);
    }

    private static void afterPost(PostHolds holds, boolean posted, ProtectionDomain pd) {
        if (posted && pd != null && holds.localInvalidate) {
            pd.invalidated(holds.invalidateRkey);
        }
        if (holds.bindWindow != null) {
            if (posted) {
                holds.bindWindow.boundByRequest(holds.bindRegion, holds.bindRkey);
            } else {
                holds.bindWindow.type2BindNotPosted();
                if (holds.bindAddedUser) {
                    holds.bindRegion.removeUser(holds.bindWindow);
                }
            }
            holds.bindAddedUser = false;
            holds.bindWindow = null; // done once per acquisition
        }
    }

    /** Releases what {@link #acquire} held for the first {@code started} requests, and ends their posts. */
    static void release(SendWorkRequest head, int started) {
        PostHolds holds = head.holds();
        for (int k = 0; k < started && holds != null; k++) {
            PostHolds next = holds.next;
            holds.end();
            holds = next;
        }
    }

    /** Releases what {@link #acquireOne} held for {@code r}, and ends its post. */
    static void releaseOne(SendWorkRequest r) {
        r.holds().end();
    }
}
