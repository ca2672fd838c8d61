package dev.panamaverbs.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Issue 24: the rendezvous path's bookkeeping allocates nothing per message once warm, each part
 * measured on its own without a device (the device test {@code RendezvousAllocationDeviceTest}
 * measures the whole path): the table of outstanding ids, the blocking sender's wait, and a
 * receive slot's large message copied out. The JIT's allowance is below one byte per cycle (a
 * compile's one-off work), while an object per cycle, 16 bytes at least, fails.
 */
class RendezvousPathAllocationTest {
    @Test
    void theOutstandingTableAddsFindsAndRemovesWithoutAllocating() throws Exception {
        Outstanding<String> table = new Outstanding<>();
        String value = "message";
        for (int k = 0; k < 8; k++) { // some held throughout, as other messages in flight
            table.add(table.nextId(), value);
        }
        long bytes = ThreadBytes.measure(i -> {
            long id = table.nextId(); // ids far above the boxed Long cache
            table.add(id, value);
            if (!table.contains(id) || table.get(id) != value || table.remove(id) != value) {
                throw new AssertionError("id " + id);
            }
        });
        assertEquals(8, table.size());
        assertTrue(bytes < ThreadBytes.MEASURED, bytes + " B over " + ThreadBytes.MEASURED + " cycles");
    }

    @Test
    void theBlockingSendersWaitIsReusedWithoutAllocating() throws Exception {
        DoneWait done = new DoneWait();
        RuntimeException never = new IllegalStateException("expired");
        Supplier<RuntimeException> expired = () -> never; // made once, as the sender's message object is
        long bytes = ThreadBytes.measure(i -> {
            done.reset();
            done.complete(null);
            done.await(Long.MAX_VALUE, expired);
        });
        assertTrue(bytes < ThreadBytes.MEASURED, bytes + " B over " + ThreadBytes.MEASURED + " cycles");
    }

    @Test
    void aLargeMessageCopiedOutReusesItsObjectsAndGivesItsBufferBack() throws Exception {
        AtomicInteger reposts = new AtomicInteger();
        ReceiveSlots.Owner owner = new ReceiveSlots.Owner() { // counts: the recording owner's list would allocate
            @Override
            public void repost(int slot) {
                reposts.incrementAndGet();
            }

            @Override
            public boolean isClosed() {
                return false;
            }
        };
        Arena arena = Arena.ofAuto();
        ReceiveSlots slots = new ReceiveSlots(new MemorySegment[] {arena.allocate(MessageHeader.SIZE + 16).asReadOnly()});
        MemorySegment destination = arena.allocate(4096);
        MemorySegment payload = destination.asReadOnly();
        MemorySegment copy = arena.allocate(4096);
        AtomicInteger givenBack = new AtomicInteger();
        Runnable release = givenBack::incrementAndGet;
        ReceivedMessage small = slots.current(0);
        ReceivedMessage first = slots.arrivedLarge(owner, 0, MessageType.DATA, 0, payload, 4096, release);
        assertEquals(4096, first.copyAndRecycle(copy));
        assertSame(small, slots.current(0), "the slot's own object waits in it again");
        ReceivedMessage second = slots.arrivedLarge(owner, 0, MessageType.REQUEST, 9, payload, 100, release);
        assertSame(first, second, "the copied-out large object shows the slot's next large message");
        assertEquals(MessageType.REQUEST, second.type());
        assertEquals(9, second.correlation());
        assertEquals(100, second.copyAndRecycle(copy));
        long bytes = ThreadBytes.measure(i -> {
            destination.set(ValueLayout.JAVA_INT, 0, i);
            ReceivedMessage large = slots.arrivedLarge(owner, 0, MessageType.DATA, 0, payload, 4096, release);
            if (large.copyAndRecycle(copy) != 4096 || copy.get(ValueLayout.JAVA_INT, 0) != i) {
                throw new AssertionError("cycle " + i);
            }
        });
        assertEquals(2 + ThreadBytes.WARM_UP + ThreadBytes.MEASURED, givenBack.get(), "every destination given back");
        assertEquals(givenBack.get(), reposts.get(), "every buffer re-posted");
        assertSame(small, slots.current(0));
        assertTrue(bytes < ThreadBytes.MEASURED, bytes + " B over " + ThreadBytes.MEASURED + " cycles");
    }

    @Test
    void aLargeMessageHandedOutIsNeverReused() {
        ReceiveSlots slots = new ReceiveSlots(new MemorySegment[] {Arena.ofAuto().allocate(MessageHeader.SIZE + 16).asReadOnly()});
        RecordingSlotOwner owner = new RecordingSlotOwner();
        MemorySegment payload = Arena.ofAuto().allocate(64).asReadOnly();
        ReceivedMessage small = slots.current(0);
        ReceivedMessage handedOut = slots.arrivedLarge(owner, 0, MessageType.DATA, 0, payload, 64, () -> { });
        handedOut.release();
        assertSame(small, slots.current(0), "the set-aside object, never seen, waits in the slot: no replacement made");
        ReceivedMessage next = slots.arrivedLarge(owner, 0, MessageType.DATA, 0, payload, 32, () -> { });
        assertNotSame(handedOut, next, "a released large message keeps showing its own, released message");
        assertEquals(64, handedOut.length());
    }
}
