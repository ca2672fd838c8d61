package dev.panamaverbs.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The shared receive pool's books without a device: admission, hand-back once, and what a closed channel still holds. */
class PoolLedgerTest {
    @Test
    void admitsWindowsUpToTheBuffersAndNoFurther() {
        PoolLedger ledger = new PoolLedger(12);
        PoolLedger.Reservation a = ledger.reserve(6);
        PoolLedger.Reservation b = ledger.reserve(6);
        assertNotNull(a);
        assertNotNull(b);
        assertNull(ledger.reserve(1), "every buffer is reserved");
        assertEquals(12, ledger.reservedBuffers());
        assertEquals(2, ledger.channels());
        ledger.detach(a, slot -> false, slot -> { });
        assertEquals(6, ledger.reservedBuffers());
        assertNotNull(ledger.reserve(6), "a closed channel's room comes back");
    }

    @Test
    void aBufferIsGivenBackOnceByItsChannelOnly() {
        PoolLedger ledger = new PoolLedger(4);
        PoolLedger.Reservation[] channels = reserve(ledger, 2, 2);
        PoolLedger.Reservation a = channels[0];
        PoolLedger.Reservation b = channels[1];
        ledger.taken(3, a);
        assertEquals(1, a.held());
        assertFalse(ledger.giveBack(3, b), "not b's buffer");
        assertTrue(ledger.giveBack(3, a));
        assertFalse(ledger.giveBack(3, a), "a second release posts nothing");
        assertEquals(0, a.held());
        ledger.taken(3, b);
        assertEquals(1, b.held());
        assertFalse(ledger.giveBack(3, a), "a stale release of a's message cannot post b's buffer");
    }

    @Test
    void aClosedChannelGivesBackWhatNoMessageHoldsAndKeepsTheRestCounted() {
        PoolLedger ledger = new PoolLedger(8);
        PoolLedger.Reservation channel = ledger.reserve(4);
        ledger.taken(0, channel); // a message the application holds
        ledger.taken(1, channel); // a rendezvous offer being read
        ledger.taken(2, channel); // a flushed receive
        List<Integer> posted = new ArrayList<>();
        ledger.detach(channel, slot -> slot == 0, posted::add);
        assertEquals(List.of(1, 2), posted);
        assertEquals(0, ledger.channels());
        assertEquals(1, ledger.reservedBuffers(), "the held message keeps its buffer out");
        assertNull(ledger.reserve(8), "so 7 are free, not 8");
        assertTrue(ledger.giveBack(0, channel), "its release after the close posts it");
        assertEquals(0, ledger.reservedBuffers());
        assertNotNull(ledger.reserve(8));
    }

    @Test
    void aReleaseRacingTheCloseGivesTheBufferBackOnce() throws Exception {
        for (int round = 0; round < 200; round++) {
            PoolLedger ledger = new PoolLedger(2);
            PoolLedger.Reservation channel = ledger.reserve(2);
            ledger.taken(1, channel);
            AtomicInteger posts = new AtomicInteger();
            CyclicBarrier start = new CyclicBarrier(2);
            Thread release = Thread.ofPlatform().start(() -> {
                await(start);
                if (ledger.giveBack(1, channel)) {
                    posts.incrementAndGet();
                }
            });
            await(start);
            ledger.detach(channel, slot -> false, slot -> posts.incrementAndGet());
            release.join();
            assertEquals(1, posts.get(), "round " + round);
            assertEquals(0, ledger.reservedBuffers(), "round " + round);
        }
    }

    @Test
    void onlyTheClosingChannelsBuffersAreTouched() {
        PoolLedger ledger = new PoolLedger(6);
        PoolLedger.Reservation[] channels = reserve(ledger, 3, 3);
        ledger.taken(0, channels[0]);
        ledger.taken(1, channels[1]);
        List<Integer> posted = new ArrayList<>();
        ledger.detach(channels[0], slot -> false, posted::add);
        assertEquals(List.of(0), posted);
        assertTrue(ledger.giveBack(1, channels[1]), "the other channel's buffer is still its own");
    }

    private static PoolLedger.Reservation[] reserve(PoolLedger ledger, int... windows) {
        PoolLedger.Reservation[] reservations = new PoolLedger.Reservation[windows.length];
        for (int i = 0; i < windows.length; i++) {
            reservations[i] = ledger.reserve(windows[i]);
            assertNotNull(reservations[i], "window " + i);
        }
        return reservations;
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
