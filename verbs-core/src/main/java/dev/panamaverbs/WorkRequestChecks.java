package dev.panamaverbs;

/**
 * The post-time checks shared by every post verb (a queue pair's {@code postSend} and
 * {@code postReceive}, a shared receive queue's {@code postReceive}): the request's arena is
 * alive, and each scatter/gather entry's memory region is open and of the queue's protection
 * domain. A few field reads per request and entry; allocation-free unless it throws. The send path
 * tests the same facts inline and comes here only to word a refusal. The domain is compared by
 * identity only, so it is taken as the resource it is.
 */
final class WorkRequestChecks {
    private WorkRequestChecks() {}

    /**
     * @throws IllegalStateException naming {@code verb} and {@code wrId} if the request's arena is closed
     */
    static void requireAlive(String verb, boolean alive, long wrId) {
        if (!alive) {
            throw arenaClosed(verb, wrId);
        }
    }

    /** The refusal of a request whose arena is closed (the send path tests liveness itself). */
    static IllegalStateException arenaClosed(String verb, long wrId) {
        return new IllegalStateException(verb + ": the arena of the request with wr_id=" + wrId + " is closed");
    }

    /**
     * Checks the region behind entry {@code index} of the request {@code wrId} ({@code null}: the
     * entry was not set from a region, nothing to check).
     *
     * @throws IllegalStateException if the region is deregistered
     * @throws IllegalArgumentException if it belongs to another protection domain than {@code pd}
     */
    static void checkRegion(String verb, MemoryRegion region, int index, long wrId, VerbsResource pd) {
        if (region == null) {
            return;
        }
        if (region.isClosed()) {
            throw new IllegalStateException(verb + ": wr_id=" + wrId + ": entry " + index + " names " + region
                    + ", which is closed");
        }
        VerbsResource regionPd;
        try {
            regionPd = region.protectionDomain();
        } catch (IllegalStateException closedMeanwhile) {
            throw new IllegalStateException(verb + ": wr_id=" + wrId + ": entry " + index + " names " + region
                    + ", which is closed", closedMeanwhile);
        }
        if (regionPd != pd) {
            throw new IllegalArgumentException(verb + ": wr_id=" + wrId + ": entry " + index + " names " + region
                    + ", which belongs to " + regionPd + ", not to " + pd);
        }
    }

    /**
     * Checks {@code head} and every receive request chained after it: arena alive, at most
     * {@code maxSge} entries, each entry's region open and of {@code pd}.
     *
     * @param verb     the post verb, for messages
     * @param maxSge   the queue's entry limit
     * @param limit    what the limit is, for messages (e.g. "the queue pair's max_recv_sge")
     * @throws IllegalStateException if a request's arena or region is closed
     * @throws IllegalArgumentException if a request has too many entries or a foreign region
     */
    static void checkReceiveChain(String verb, ReceiveWorkRequest head, int maxSge, String limit, VerbsResource pd) {
        for (ReceiveWorkRequest r = head; r != null; r = r.next()) {
            requireAlive(verb, r.isAlive(), r.wrId());
            int count = r.sgeCount();
            if (count > maxSge) {
                throw new IllegalArgumentException(verb + ": wr_id=" + r.wrId() + ": " + count + " entries exceed "
                        + limit + " " + maxSge);
            }
            for (int i = 0; i < count; i++) {
                checkRegion(verb, r.region(i), i, r.wrId(), pd);
            }
        }
    }
}
