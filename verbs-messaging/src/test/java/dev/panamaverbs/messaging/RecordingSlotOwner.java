package dev.panamaverbs.messaging;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A {@link ReceiveSlots.Owner} for tests: records every re-posted slot; closed when a test says so. */
final class RecordingSlotOwner implements ReceiveSlots.Owner {
    /** The slots re-posted, in order. */
    final List<Integer> reposts = Collections.synchronizedList(new ArrayList<>());
    /** What {@link #isClosed()} answers. */
    volatile boolean closed;

    @Override
    public void repost(int slot) {
        reposts.add(slot);
    }

    @Override
    public boolean isClosed() {
        return closed;
    }
}
