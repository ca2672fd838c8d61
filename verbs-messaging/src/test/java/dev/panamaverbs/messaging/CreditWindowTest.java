package dev.panamaverbs.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CreditWindowTest {
    @Test
    void theSenderStartsWithThePeersWindowAndNeverGoesBelowZero() {
        CreditWindow window = new CreditWindow(3, 8);
        assertEquals(3, window.available());
        assertTrue(window.tryAcquire());
        assertTrue(window.tryAcquire());
        assertTrue(window.tryAcquire());
        assertFalse(window.tryAcquire(), "no send without a credit");
        assertFalse(window.tryAcquire());
        assertEquals(0, window.available());
        window.grant(2);
        assertEquals(2, window.available());
        window.grant(0);
        assertEquals(2, window.available());
    }

    @Test
    void aPeerThatReturnsMoreThanItsWindowIsAProtocolError() {
        CreditWindow window = new CreditWindow(4, 4);
        assertTrue(window.tryAcquire());
        MessagingException e = assertThrows(MessagingException.class, () -> window.grant(2));
        assertTrue(e.getMessage().contains("protocol error"), e.getMessage());
        assertEquals(3, window.available(), "a refused grant changes nothing");
        assertThrows(MessagingException.class, () -> window.grant(-1));
        window.grant(1);
        assertEquals(4, window.available());
    }

    @Test
    void aSenderWithoutCreditWaitsUntilItsDeadlineThenFailsFast() {
        CreditWindow window = new CreditWindow(1, 1);
        window.acquire(MessageChannel.deadline(Duration.ZERO));
        long start = System.nanoTime();
        assertThrows(CreditTimeoutException.class, () -> window.acquire(MessageChannel.deadline(Duration.ZERO)));
        assertThrows(CreditTimeoutException.class, () -> window.acquire(MessageChannel.deadline(Duration.ofMillis(300))));
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(tookMillis >= 250 && tookMillis < 10_000, "waited about its 300 ms: " + tookMillis);
        assertEquals(0, window.available(), "a timed-out wait takes nothing");
    }

    @Test
    void aGrantWakesAWaitingSender() throws Exception {
        CreditWindow window = new CreditWindow(1, 1);
        window.acquire(MessageChannel.deadline(Duration.ZERO));
        CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> window.acquire(MessageChannel.deadline(Duration.ofSeconds(30))));
        Thread.sleep(50);
        assertFalse(sender.isDone());
        window.grant(1);
        sender.get(10, TimeUnit.SECONDS);
        assertEquals(0, window.available());
    }

    @Test
    void aFailureEndsEveryWaitWithIt() throws Exception {
        CreditWindow window = new CreditWindow(1, 1);
        window.acquire(MessageChannel.deadline(Duration.ZERO));
        CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> window.acquire(MessageChannel.deadline(Duration.ofSeconds(30))));
        MessagingException lost = new MessagingException("peer lost", null);
        window.fail(lost);
        Exception e = assertThrows(Exception.class, () -> sender.get(10, TimeUnit.SECONDS));
        assertSame(lost, e.getCause());
        assertSame(lost, assertThrows(MessagingException.class, () -> window.acquire(Long.MAX_VALUE)));
        assertFalse(window.tryAcquire());
    }

    @Test
    void releasedBuffersArePiggyBackedOrSentAsACreditMessageAtHalfTheWindow() {
        CreditWindow window = new CreditWindow(8, 8);
        assertEquals(4, window.returnThreshold());
        for (int i = 0; i < 3; i++) {
            window.returned();
        }
        assertFalse(window.creditMessageDue(), "3 of 8: not yet");
        assertEquals(3, window.takeReturns(), "a data message carries them");
        assertEquals(0, window.unreturned());
        for (int i = 0; i < 4; i++) {
            window.returned();
        }
        assertTrue(window.creditMessageDue(), "half the window released with nothing to carry it");
        int carried = window.takeReturns();
        assertEquals(4, carried);
        assertFalse(window.creditMessageDue());
        window.untake(carried); // the message was never posted
        assertEquals(4, window.unreturned());
    }

    @Test
    void aWindowOfOneReturnsEachBuffer() {
        CreditWindow window = new CreditWindow(1, 1);
        assertEquals(1, window.returnThreshold());
        window.returned();
        assertTrue(window.creditMessageDue());
        assertEquals(5, new CreditWindow(1, 9).returnThreshold());
    }

    @Test
    void giveBackRestoresAnUnusedCreditButNeverAboveTheWindow() {
        CreditWindow window = new CreditWindow(2, 2);
        assertTrue(window.tryAcquire());
        window.giveBack();
        assertEquals(2, window.available());
        window.giveBack();
        assertEquals(2, window.available());
        assertThrows(IllegalArgumentException.class, () -> new CreditWindow(0, 1));
    }
}
