package dev.panamaverbs.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SlotQueueTest {
    @Test
    void slotsComeOutInOrderThenTheTakeTimesOut() {
        SlotQueue queue = SlotQueue.full(3);
        assertEquals(0, queue.take(0));
        assertEquals(1, queue.take(0));
        queue.put(0);
        assertEquals(2, queue.take(0));
        assertEquals(0, queue.take(0));
        assertEquals(-1, queue.take(MessageChannel.deadline(Duration.ofMillis(50))));
    }

    @Test
    void aFailedQueueStillHandsOutWhatItHoldsThenThrows() {
        SlotQueue queue = new SlotQueue(2);
        queue.put(1);
        queue.fail(new MessagingException("gone", null));
        assertEquals(1, queue.take(0));
        assertThrows(MessagingException.class, () -> queue.take(Long.MAX_VALUE));
    }

    @Test
    void aSlotPutTwiceOverflowsLoudly() {
        SlotQueue queue = SlotQueue.full(1);
        assertThrows(IllegalStateException.class, () -> queue.put(0));
    }
}
