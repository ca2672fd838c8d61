package dev.panamaverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
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
        assertNull(holds.begin(Thread.currentThread()));
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
        Thread me = Thread.currentThread();
        assertNull(holds.begin(me));
        assertSame(me, holds.begin(me), "this thread's post holds it: a batch naming it again is told so");
        assertSame(me, holds.begin(new Thread(() -> { })), "another thread's post is refused: it names the owner");
        holds.hold(open);
        assertThrows(IllegalStateException.class, () -> holds.hold(closed));
        assertEquals(1, holds.heldCount(), "the closed resource was not recorded, so it is not released");
        holds.end();
        assertNull(holds.begin(me), "ended: the request may be posted again");
        holds.end();
        Thread closer = Thread.ofPlatform().start(open::close);
        assertTimeoutJoin(closer);
    }

    @Test
    void holdsHaveRoomForAnAddressHandleAWindowItsRegionAndEveryEntryButNoMore() {
        List<String> destroyed = new ArrayList<>();
        PostHolds holds = new PostHolds(2);
        holds.begin(Thread.currentThread());
        for (int i = 0; i < 5; i++) {
            holds.hold(FakeResource.open("r" + i, destroyed));
        }
        FakeResource extra = FakeResource.open("extra", destroyed);
        assertThrows(IllegalStateException.class, () -> holds.hold(extra));
        holds.end();
        Thread closer = Thread.ofPlatform().start(extra::close);
        assertTimeoutJoin(closer);
    }

    /**
     * A batch may name one request several times from one thread (only its first place holds it);
     * a post of it from another thread meanwhile is refused, and may go ahead once it ended.
     */
    @Test
    void oneThreadMayNameARequestTwiceAnotherThreadIsRefused() throws InterruptedException {
        SendWorkRequest request = SendWorkRequest.allocate(1).wrId(77);
        assertTrue(ChainHolds.acquireOne(request), "the first place starts the post");
        assertFalse(ChainHolds.acquireOne(request), "the second place of the same thread holds nothing more");
        IllegalStateException[] refused = new IllegalStateException[1];
        Thread other = Thread.ofPlatform().start(() -> {
            try {
                ChainHolds.acquireOne(request);
            } catch (IllegalStateException e) {
                refused[0] = e;
            }
        });
        assertTimeoutJoin(other);
        assertTrue(refused[0] != null && refused[0].getMessage().startsWith("ibv_post_send: wr_id=77 is being posted by"
                + " another thread at the same moment"), String.valueOf(refused[0]));
        ChainHolds.releaseOne(request);
        boolean[] started = new boolean[1];
        Thread after = Thread.ofPlatform().start(() -> {
            started[0] = ChainHolds.acquireOne(request);
            ChainHolds.releaseOne(request);
        });
        assertTimeoutJoin(after);
        assertTrue(started[0], "released: another thread may post it");
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
