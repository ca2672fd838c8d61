package dev.panamaverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.internal.TestThreads;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The exclusive use {@code MemoryRegion.reregister} takes around {@code ibv_rereg_mr}: refused
 * while a use (a post) is under way, refusing uses while held, and a close waits for it. Plus the
 * argument checks of the new verbs that need no native call.
 */
class ExclusiveUseTest {

    @Test
    void anExclusiveUseIsRefusedWhileAPostHoldsTheResourceAndRefusesPostsWhileHeld() {
        List<String> destroyed = new ArrayList<>();
        FakeResource region = FakeResource.open("region", destroyed);
        region.acquire();
        assertFalse(region.tryBeginExclusive(), "a post holds it");
        region.release();
        assertTrue(region.tryBeginExclusive());
        assertFalse(region.tryBeginExclusive(), "one exclusive use at a time");
        IllegalStateException refused = assertThrows(IllegalStateException.class, region::acquire);
        assertTrue(refused.getMessage().contains("ibv_rereg_mr"), refused.getMessage());
        region.endExclusive();
        region.acquire();
        region.release();
        region.close();
        assertFalse(region.tryBeginExclusive(), "closed");
        assertEquals(List.of("region"), destroyed);
    }

    @Test
    void aCloseWaitsForTheExclusiveUse() throws Exception {
        List<String> destroyed = new ArrayList<>();
        FakeResource region = FakeResource.open("region", destroyed);
        assertTrue(region.tryBeginExclusive());
        CompletableFuture<Void> close = TestThreads.start(false, () -> {
            region.close();
            return null;
        });
        long bound = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!region.isClosed() && System.nanoTime() < bound) { // the close has begun: it marks the region first
            Thread.sleep(5);
        }
        assertTrue(region.isClosed());
        Thread.sleep(50);
        assertFalse(close.isDone(), "close waits for ibv_rereg_mr to return");
        region.endExclusive();
        close.get(10, TimeUnit.SECONDS);
        assertEquals(List.of("region"), destroyed);
    }

    @Test
    void importingRefusesANegativeFdBeforeAnyNativeCall() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Context.importFrom(-1));
        assertTrue(e.getMessage().startsWith("ibv_import_device"), e.getMessage());
    }
}
