package dev.panamaverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a post holds: exactly what it acquired is released, and a request is in one post at a time. */
class PostHoldsTest {

    @Test
    void endReleasesWhatWasAcquiredSoCloseDoesNotWait() {
        List<String> destroyed = new ArrayList<>();
        FakeResource ah = FakeResource.open("ah", destroyed);
        FakeResource mr = FakeResource.open("mr", destroyed);
        PostHolds holds = new PostHolds(1);
        assertTrue(holds.begin());
        holds.hold(ah);
        holds.hold(mr);
        assertEquals(2, holds.heldCount());
        holds.end();
        assertEquals(0, holds.heldCount());
        // Had a use count stayed raised, these closes would wait for ever.
        Thread closer = Thread.ofPlatform().start(() -> {
            ah.close();
            mr.close();
        });
        assertTimeoutJoin(closer);
        assertEquals(List.of("ah", "mr"), destroyed);
    }

    @Test
    void aClosedResourceIsNotRecordedAndARequestIsInOnePostAtATime() {
        List<String> destroyed = new ArrayList<>();
        FakeResource open = FakeResource.open("open", destroyed);
        FakeResource closed = FakeResource.open("closed", destroyed);
        closed.close();
        PostHolds holds = new PostHolds(0);
        assertTrue(holds.begin());
        assertFalse(holds.begin(), "a second post of the same request while the first runs");
        holds.hold(open);
        assertThrows(IllegalStateException.class, () -> holds.hold(closed));
        assertEquals(1, holds.heldCount(), "the closed resource was not recorded, so it is not released");
        holds.end();
        assertTrue(holds.begin(), "ended: the request may be posted again");
        holds.end();
        Thread closer = Thread.ofPlatform().start(open::close);
        assertTimeoutJoin(closer);
    }

    @Test
    void holdsHaveRoomForAnAddressHandleAWindowItsRegionAndEveryEntryButNoMore() {
        List<String> destroyed = new ArrayList<>();
        PostHolds holds = new PostHolds(2);
        holds.begin();
        for (int i = 0; i < 5; i++) {
            holds.hold(FakeResource.open("r" + i, destroyed));
        }
        FakeResource extra = FakeResource.open("extra", destroyed);
        assertThrows(IllegalStateException.class, () -> holds.hold(extra));
        holds.end();
        Thread closer = Thread.ofPlatform().start(extra::close);
        assertTimeoutJoin(closer);
    }

    private static void assertTimeoutJoin(Thread thread) {
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        assertFalse(thread.isAlive(), "close waited for a use count left raised");
    }
}
