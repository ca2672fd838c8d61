package dev.panamaverbs.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PendingRequestsTest {
    private static final Duration LONG = Duration.ofMinutes(5);

    @Test
    void idsStartAtOneAndAResponseCompletesItsOwnRequestOnce() throws Exception {
        PendingRequests pending = new PendingRequests();
        long first = pending.nextId();
        long second = pending.nextId();
        assertEquals(1, first);
        assertEquals(2, second);
        CompletableFuture<ReceivedMessage> a = pending.register(first, LONG, "test");
        CompletableFuture<ReceivedMessage> b = pending.register(second, LONG, "test");
        assertEquals(2, pending.size());
        assertTrue(pending.complete(second, null));
        assertTrue(b.isDone());
        assertFalse(a.isDone());
        assertFalse(pending.complete(second, null), "a second response to the same id is dropped");
        assertFalse(pending.complete(99, null), "an unknown id is dropped");
        assertEquals(1, pending.size());
    }

    @Test
    void aRequestWithoutResponseTimesOutAndItsLateResponseIsDropped() throws Exception {
        PendingRequests pending = new PendingRequests();
        long id = pending.nextId();
        long start = System.nanoTime();
        CompletableFuture<ReceivedMessage> future = pending.register(id, Duration.ofMillis(300), "request to x");
        ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(30, TimeUnit.SECONDS));
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(tookMillis >= 250 && tookMillis < 20_000, "about its 300 ms: " + tookMillis);
        assertInstanceOf(RequestTimeoutException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("no response to request 1"), e.getCause().getMessage());
        assertFalse(pending.complete(id, null), "late");
        assertEquals(0, pending.size());
    }

    @Test
    void aLostPeerFailsEveryPendingRequestAndEveryLaterOne() {
        PendingRequests pending = new PendingRequests();
        CompletableFuture<ReceivedMessage> a = pending.register(pending.nextId(), LONG, "test");
        CompletableFuture<ReceivedMessage> b = pending.register(pending.nextId(), LONG, "test");
        MessagingException lost = new MessagingException("peer lost", null);
        pending.failAll(lost);
        for (CompletableFuture<ReceivedMessage> future : java.util.List.of(a, b)) {
            ExecutionException e = assertThrows(ExecutionException.class, future::get);
            assertSame(lost, e.getCause());
        }
        assertEquals(0, pending.size());
        assertSame(lost, assertThrows(MessagingException.class, () -> pending.register(pending.nextId(), LONG, "test")));
        assertEquals(0, pending.size());
    }

    @Test
    void anAbandonedRequestFailsWithWhyItWasNotSent() {
        PendingRequests pending = new PendingRequests();
        long id = pending.nextId();
        CompletableFuture<ReceivedMessage> future = pending.register(id, LONG, "test");
        CreditTimeoutException why = new CreditTimeoutException("no credit");
        pending.abandon(id, why);
        assertSame(why, assertThrows(ExecutionException.class, future::get).getCause());
        assertEquals(0, pending.size());
    }

    @Test
    void aLargeRequestsFutureWaitsForItsDoneAsWellAsItsResponse() throws Exception {
        LargeRequest large = LargeRequest.registered();
        ReceivedMessage response = largeResponse(large.id());
        assertTrue(large.pending().complete(large.id(), response), "the response may come before the DONE");
        assertFalse(large.result().isDone(), "the caller's data may still be read until the DONE");
        large.read().complete(null);
        assertSame(response, large.result().get(5, TimeUnit.SECONDS));
        assertEquals(0, large.pending().size());
    }

    @Test
    void aFailedReadOfALargeRequestFailsItsFutureWithTheReadsFailureAndForgetsIt() {
        LargeRequest large = LargeRequest.registered();
        RendezvousException refused = new RendezvousException("refused", RendezvousStatus.TOO_LARGE, 7, null);
        large.read().completeExceptionally(refused);
        ExecutionException e = assertThrows(ExecutionException.class, () -> large.result().get(5, TimeUnit.SECONDS));
        assertSame(refused, e.getCause());
        assertEquals(0, large.pending().size(), "the request is forgotten at once, not at its timeout");
        assertFalse(large.pending().complete(large.id(), null), "a late response is dropped");
    }

    @Test
    void aResponseThatCameBeforeAFailedDoneIsReleased() {
        LargeRequest large = LargeRequest.registered();
        ReceivedMessage response = largeResponse(large.id());
        assertTrue(large.pending().complete(large.id(), response));
        large.read().completeExceptionally(new MessagingException("lost", null));
        assertTrue(large.result().isCompletedExceptionally());
        assertFalse(response.isHeld(), "the response is released");
        assertEquals(List.of(0), owner.reposts, "its buffer went back");
    }

    /** A large request registered with a fresh table: its id, the read of its data, and the caller's future. */
    private record LargeRequest(PendingRequests pending, long id, CompletableFuture<Void> read,
                                CompletableFuture<ReceivedMessage> result) {
        static LargeRequest registered() {
            PendingRequests pending = new PendingRequests();
            long id = pending.nextId();
            CompletableFuture<Void> read = new CompletableFuture<>();
            return new LargeRequest(pending, id, read, pending.afterRead(id, read, pending.register(id, LONG, "test")));
        }
    }

    private final RecordingSlotOwner owner = new RecordingSlotOwner();

    private ReceivedMessage largeResponse(long id) {
        ReceiveSlots slots = new ReceiveSlots(new MemorySegment[] {Arena.ofAuto().allocate(MessageHeader.SIZE + 8).asReadOnly()});
        return slots.arrivedLarge(owner, 0, MessageType.RESPONSE, id, Arena.ofAuto().allocate(100).asReadOnly(), 100, null);
    }
}
