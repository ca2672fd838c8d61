package dev.panamaverbs.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Release of received messages without a device: a stale reference never reaches the buffer's next message. */
class ReceiveSlotsTest {
    private final RecordingSlotOwner owner = new RecordingSlotOwner();
    private final Arena arena = Arena.ofAuto();

    private ReceiveSlots slots(int count) {
        MemorySegment[] buffers = new MemorySegment[count];
        for (int slot = 0; slot < count; slot++) {
            buffers[slot] = arena.allocate(MessageHeader.SIZE + 16).asReadOnly();
        }
        return new ReceiveSlots(buffers);
    }

    @Test
    void aSecondReleaseDoesNothingEvenAfterTheBufferGotItsNextMessage() {
        ReceiveSlots slots = slots(2);
        ReceivedMessage first = slots.arrived(owner, 1, MessageType.DATA, 8, 0);
        first.release();
        assertEquals(List.of(1), owner.reposts);
        ReceivedMessage next = slots.arrived(owner, 1, MessageType.REQUEST, 12, 7);
        assertNotSame(first, next);

        first.release();

        assertEquals(List.of(1), owner.reposts, "the stale release re-posted nothing");
        assertTrue(next.isHeld(), "the buffer's next message is still held");
        assertEquals(12, next.payload().byteSize());
        assertEquals(8, first.length(), "the released message still reports its own length");
        assertEquals(MessageType.DATA, first.type());
        next.release();
        assertEquals(List.of(1, 1), owner.reposts);
    }

    @Test
    void payloadAfterReleaseThrowsNamingTheMessage() {
        ReceiveSlots slots = slots(1);
        ReceivedMessage message = slots.arrived(owner, 0, MessageType.DATA, 4, 0);
        assertEquals(4, message.payload().byteSize());
        message.release();
        assertFalse(message.isHeld());
        IllegalStateException e = assertThrows(IllegalStateException.class, message::payload);
        assertTrue(e.getMessage().contains("released") && e.getMessage().contains("buffer 0"), e.getMessage());
        slots.arrived(owner, 0, MessageType.DATA, 4, 0);
        assertThrows(IllegalStateException.class, message::payload, "still refused once the buffer is reused");
    }

    @Test
    void payloadOfAClosedChannelThrows() {
        ReceiveSlots slots = slots(1);
        ReceivedMessage message = slots.arrived(owner, 0, MessageType.DATA, 4, 0);
        owner.closed = true;
        IllegalStateException e = assertThrows(IllegalStateException.class, message::payload);
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }

    @Test
    void receiveHandsOutTheMessageThatArrivedAndThePayloadIsReadOnly() {
        ReceiveSlots slots = slots(2);
        ReceivedMessage message = slots.arrived(owner, 0, MessageType.DATA, 4, 0);
        assertEquals(message, slots.current(0));
        assertThrows(IllegalArgumentException.class, () -> message.payload().set(ValueLayout.JAVA_BYTE, 0, (byte) 1));
    }

    @Test
    void aLargeMessageCarriesTheTypeAndCorrelationOfItsOffer() {
        ReceiveSlots slots = slots(2);
        List<String> released = new ArrayList<>();
        MemorySegment destination = arena.allocate(1000);
        ReceivedMessage request = slots.arrivedLarge(owner, 1, MessageType.REQUEST, 42, destination.asReadOnly(), 1000,
                () -> released.add("destination"));
        assertEquals(MessageType.REQUEST, request.type());
        assertEquals(42, request.correlation());
        assertEquals(1000, request.length());
        request.release();
        assertEquals(List.of("destination"), released, "the destination goes back before the slot is re-posted");
        assertEquals(List.of(1), owner.reposts);
    }

    @Test
    void concurrentReleasesRepostOnce() throws InterruptedException {
        ReceiveSlots slots = slots(1);
        ReceivedMessage message = slots.arrived(owner, 0, MessageType.DATA, 4, 0);
        Thread[] threads = new Thread[4];
        for (int i = 0; i < threads.length; i++) {
            threads[i] = Thread.ofPlatform().start(message::release);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(List.of(0), owner.reposts);
    }

    @Test
    void anArrivalInABufferNotRepostedIsRefused() {
        ReceiveSlots slots = slots(1);
        slots.arrived(owner, 0, MessageType.DATA, 4, 0);
        assertThrows(IllegalStateException.class, () -> slots.arrived(owner, 0, MessageType.DATA, 4, 0));
    }

    @Test
    void aSharedBufferBelongsToTheChannelItLastArrivedOn() {
        ReceiveSlots slots = slots(1);
        RecordingSlotOwner other = new RecordingSlotOwner();
        ReceivedMessage first = slots.arrived(owner, 0, MessageType.DATA, 4, 0);
        first.release();
        assertEquals(List.of(0), owner.reposts);
        ReceivedMessage second = slots.arrived(other, 0, MessageType.DATA, 4, 0);
        owner.closed = true;
        assertEquals(4, second.payload().byteSize(), "the first channel's close does not touch the second's message");
        second.release();
        assertEquals(List.of(0), other.reposts, "the release goes to the channel it arrived on");
        assertEquals(List.of(0), owner.reposts);
    }

    @Test
    void aCopiedMessageIsCutToTheDestinationAndItsObjectWaitsForTheNextOne() {
        MemorySegment buffer = arena.allocate(MessageHeader.SIZE + 16);
        for (int i = 0; i < 16; i++) {
            buffer.set(ValueLayout.JAVA_BYTE, MessageHeader.SIZE + i, (byte) (i + 1));
        }
        ReceiveSlots slots = new ReceiveSlots(new MemorySegment[] {buffer.asReadOnly()});
        ReceivedMessage message = slots.arrived(owner, 0, MessageType.DATA, 16, 0);
        MemorySegment small = arena.allocate(10);
        assertEquals(16, message.copyAndRecycle(small), "the full length, more than fitted");
        for (int i = 0; i < 10; i++) {
            assertEquals(i + 1, small.get(ValueLayout.JAVA_BYTE, i), "byte " + i);
        }
        assertEquals(List.of(0), owner.reposts, "re-posted at once");
        assertSame(message, slots.current(0), "no replacement object: it never left the channel");
        assertSame(message, slots.arrived(owner, 0, MessageType.DATA, 4, 0), "it shows the buffer's next message");
        assertEquals(4, message.copyAndRecycle(small));
        assertEquals(List.of(0, 0), owner.reposts);
    }

    @Test
    void aCopiedLargeMessageGivesItsBufferBackAsARelease() {
        ReceiveSlots slots = slots(1);
        List<String> released = new ArrayList<>();
        MemorySegment destination = arena.allocate(100);
        destination.set(ValueLayout.JAVA_BYTE, 99, (byte) 5);
        ReceivedMessage large = slots.arrivedLarge(owner, 0, MessageType.DATA, 0, destination.asReadOnly(), 100,
                () -> released.add("destination"));
        MemorySegment copy = arena.allocate(100);
        assertEquals(100, large.copyAndRecycle(copy));
        assertEquals(5, copy.get(ValueLayout.JAVA_BYTE, 99));
        assertEquals(List.of("destination"), released);
        assertFalse(large.isHeld(), "released, not recycled: its object was the large message's own");
        assertNotSame(large, slots.current(0));
    }

    @Test
    void aCopyFromAClosedChannelThrows() {
        ReceiveSlots slots = slots(1);
        ReceivedMessage message = slots.arrived(owner, 0, MessageType.DATA, 4, 0);
        owner.closed = true;
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> message.copyAndRecycle(arena.allocate(4)));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }
}
