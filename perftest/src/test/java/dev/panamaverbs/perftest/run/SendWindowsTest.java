package dev.panamaverbs.perftest.run;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The per-queue-pair counts the bandwidth runs share: room, signaling, and what a completion covers. */
class SendWindowsTest {
    private static final long TAG = 1L << 62;

    @Test
    void aQueuePairPostsUpToItsTxDepthAndItsIterations() {
        SendWindows windows = new SendWindows(2, 0, 48, 4, 2);
        windows.countPosted(0, 3);
        assertTrue(windows.hasRoom(0, 1, 100));
        assertFalse(windows.hasRoom(0, 2, 100), "3 outstanding + 2 exceed the tx depth of 4");
        assertFalse(windows.hasRoom(0, 1, 3), "all 3 iterations are posted");
        assertTrue(windows.hasRoom(1, 4, 100), "the other queue pair has its own window");
        assertEquals(3, windows.outstanding(0));
    }

    @Test
    void oneInCqModerationIsSignaledAndTheLast() {
        SendWindows windows = new SendWindows(1, 0, 48, 16, 4);
        StringBuilder signaled = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            signaled.append(windows.signalsNext(0, 10) ? 'S' : '-');
            windows.countPosted(0, 1);
        }
        assertEquals("---S---S-S", signaled.toString());
    }

    @Test
    void aBurstEndsSignaledWhereItFillsTheWindow() {
        SendWindows windows = new SendWindows(1, 0, 48, 3, 8);
        assertFalse(windows.signalsNextOfBurst(0));
        windows.countPosted(0, 2);
        assertTrue(windows.signalsNextOfBurst(0), "the third of a window of 3");
    }

    @Test
    void aCompletionCoversItsQueuePairsUnsignaledRequestsBeforeIt() {
        SendWindows windows = new SendWindows(3, TAG, 40, 8, 4);
        windows.countPosted(2, 6);
        long[] times = new long[8];
        int done = windows.complete(windows.wrId(2, 4), 77, times, 0);
        assertEquals(4, done);
        assertArrayEquals(new long[] {77, 77, 77, 77, 0, 0, 0, 0}, times);
        assertEquals(2, windows.outstanding(2));
        assertEquals(4, windows.complete(windows.wrId(2, 4), 78, times, 4), "nothing new: already covered");
        assertEquals(2, windows.complete(windows.wrId(2, 6)), "the duration mode's count: requests 5 and 6");
        assertEquals(0, windows.outstanding(2));
        assertEquals(0, windows.outstanding(0));
    }

    @Test
    void resetStartsANewRun() {
        SendWindows windows = new SendWindows(1, 0, 48, 8, 1);
        windows.countPosted(0, 5);
        windows.complete(windows.wrId(0, 2));
        windows.reset();
        assertEquals(0, windows.posted(0));
        assertEquals(0, windows.outstanding(0));
    }
}
