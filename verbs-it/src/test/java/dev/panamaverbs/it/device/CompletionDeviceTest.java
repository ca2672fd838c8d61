package dev.panamaverbs.it.device;

import dev.panamaverbs.it.support.DeviceScope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.CompletionChannel;
import dev.panamaverbs.values.CompletionField;
import dev.panamaverbs.CompletionQueue;
import dev.panamaverbs.CompletionQueueOptions;
import dev.panamaverbs.Completions;
import dev.panamaverbs.Context;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.function.Executable;

/** Completion channels and completion queues on a real device, without traffic (issue 4). */
class CompletionDeviceTest {

    private static void assertClosedUse(String what, Executable use) {
        IllegalStateException e = assertThrows(IllegalStateException.class, use, what);
        assertTrue(e.getMessage().contains("closed"), what + ": " + e.getMessage());
    }

    @DeviceTest
    void createsArmsPollsAndResizesACompletionQueue(TestDevice device) throws InterruptedException {
        try (Context context = DeviceScope.openContext(device);
                CompletionChannel channel = context.createCompletionChannel()) {
            assertTrue(channel.fd() >= 0, "channel fd");
            CompletionQueue cq = context.createCompletionQueue(16, channel, 0);
            assertTrue(cq.capacity() >= 16, "capacity " + cq.capacity());
            assertSame(channel, cq.channel().orElseThrow());
            assertSame(context, cq.context());
            assertFalse(cq.isExtended());

            Completions batch = Completions.allocate(8);
            assertEquals(0, cq.poll(batch), "a new CQ is empty");
            assertEquals(0, cq.poll(batch, 1));
            cq.requestNotification(false);
            cq.requestNotification(true);

            long start = System.nanoTime();
            assertEquals(Optional.empty(), channel.awaitEvent(Duration.ofMillis(100)), "no completion, no event");
            assertTrue(System.nanoTime() - start >= 90_000_000L, "awaitEvent waited for its timeout");
            assertEquals(Optional.empty(), channel.awaitEvent(Duration.ZERO));
            assertEquals(0, cq.awaitCompletions(batch, Duration.ofMillis(20)));
            assertEquals(0, cq.acknowledgeEvents());

            cq.resize(64);
            assertTrue(cq.capacity() >= 64, "capacity after resize " + cq.capacity());
            assertEquals(0, cq.poll(batch));

            int maxCqe = context.maxAttributes().maxCqe();
            IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class, () -> cq.resize(maxCqe + 1));
            assertTrue(tooBig.getMessage().startsWith("ibv_resize_cq: cqe must be in 1.." + maxCqe), tooBig.getMessage());
            assertThrows(IllegalArgumentException.class, () -> cq.poll(batch, 9));
            assertThrows(IllegalArgumentException.class, () -> cq.poll(batch, 0));
        }
    }

    @DeviceTest
    void plainQueueWithoutChannel(TestDevice device) {
        try (Context context = DeviceScope.openContext(device)) {
            CompletionQueue cq = context.createCompletionQueue(1);
            assertTrue(cq.capacity() >= 1);
            assertTrue(cq.channel().isEmpty());
            assertEquals(0, cq.poll(Completions.allocate(1)));
            assertThrows(IllegalStateException.class, () -> cq.awaitCompletions(Completions.allocate(1), Duration.ZERO));
            cq.close();
            cq.close(); // idempotent
            assertTrue(cq.isClosed());
        }
    }

    @DeviceTest
    void rejectsBadArgumentsBeforeCallingTheDevice(TestDevice device) {
        try (Context context = DeviceScope.openContext(device);
                Context other = DeviceScope.openContext(device);
                CompletionChannel otherChannel = other.createCompletionChannel()) {
            int maxCqe = context.maxAttributes().maxCqe();
            IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                    () -> context.createCompletionQueue(0));
            assertEquals("ibv_create_cq: cqe must be in 1.." + maxCqe + " (device max_cqe), got 0", zero.getMessage());
            assertThrows(IllegalArgumentException.class, () -> context.createCompletionQueue(maxCqe + 1));
            int vectors = context.completionVectorCount();
            IllegalArgumentException vector = assertThrows(IllegalArgumentException.class,
                    () -> context.createCompletionQueue(4, null, vectors));
            assertTrue(vector.getMessage().startsWith("ibv_create_cq: comp_vector must be in 0.."), vector.getMessage());
            IllegalArgumentException foreign = assertThrows(IllegalArgumentException.class,
                    () -> context.createCompletionQueue(4, otherChannel, 0));
            assertTrue(foreign.getMessage().contains("another context"), foreign.getMessage());
            assertThrows(IllegalArgumentException.class,
                    () -> context.createCompletionQueue(CompletionQueueOptions.of(0)));
            assertThrows(IllegalArgumentException.class,
                    () -> channelOf(context).awaitEvent(Duration.ofMillis(-1)));
        }
    }

    private static CompletionChannel channelOf(Context context) {
        return context.createCompletionChannel();
    }

    @DeviceTest
    void closingTheChannelClosesItsQueuesFirst(TestDevice device) {
        try (Context context = DeviceScope.openContext(device)) {
            CompletionChannel channel = context.createCompletionChannel();
            CompletionQueue first = context.createCompletionQueue(8, channel, 0);
            CompletionQueue second = context.createCompletionQueue(8, channel, 0);
            CompletionQueue unrelated = context.createCompletionQueue(8);
            first.requestNotification(false);

            channel.close(); // ibv_destroy_comp_channel would fail with EBUSY if a CQ were left
            assertTrue(first.isClosed());
            assertTrue(second.isClosed());
            assertFalse(unrelated.isClosed());

            Completions batch = Completions.allocate(4);
            assertClosedUse("poll", () -> first.poll(batch));
            assertClosedUse("requestNotification", () -> first.requestNotification(false));
            assertClosedUse("resize", () -> first.resize(16));
            assertClosedUse("capacity", first::capacity);
            assertClosedUse("acknowledgeEvents", first::acknowledgeEvents);
            assertClosedUse("awaitEvent", () -> channel.awaitEvent(Duration.ofMillis(10)));
            assertClosedUse("create on a closed channel", () -> context.createCompletionQueue(8, channel, 0));
            assertEquals(0, unrelated.poll(batch));
        }
    }

    @DeviceTest
    void closingTheContextClosesChannelsAndQueues(TestDevice device) {
        Context context = DeviceScope.openContext(device);
        CompletionChannel channel = context.createCompletionChannel();
        CompletionQueue cq = context.createCompletionQueue(8, channel, 0);
        context.close();
        assertTrue(cq.isClosed());
        assertTrue(channel.isClosed());
        assertClosedUse("poll after context close", () -> cq.poll(Completions.allocate(1)));
    }

    @DeviceTest
    void waitersLeaveOnInterruptAndOnClose(TestDevice device) throws Exception {
        try (Context context = DeviceScope.openContext(device)) {
            CompletionChannel channel = context.createCompletionChannel();
            CompletionQueue cq = context.createCompletionQueue(4, channel, 0);
            cq.requestNotification(false);

            AtomicReference<Object> interrupted = new AtomicReference<>();
            Thread virtualWaiter = OutcomeThreads.start(true, "virtual-waiter", interrupted, channel::awaitEvent);
            AtomicReference<Object> closed = new AtomicReference<>();
            Thread platformWaiter = OutcomeThreads.start(false, "platform-waiter", closed, channel::awaitEvent);
            Thread.sleep(300); // both are waiting by now (no completion can arrive)
            assertNull(interrupted.get());
            assertNull(closed.get());

            virtualWaiter.interrupt();
            assertTrue(virtualWaiter.join(Duration.ofSeconds(10)), "the interrupt ends the virtual waiter");
            assertInstanceOf(InterruptedException.class, interrupted.get());

            channel.close(); // waits for the platform waiter's current poll slice, then destroys
            assertTrue(cq.isClosed());
            assertTrue(platformWaiter.join(Duration.ofSeconds(10)), "the close ends the platform waiter");
            Object outcome = closed.get();
            IllegalStateException e = assertInstanceOf(IllegalStateException.class, outcome);
            assertTrue(e.getMessage().contains("CompletionChannel"), e.getMessage());
        }
    }

    @SuppressWarnings("try") // closes inside its own try on purpose: closing twice must be harmless
    @DeviceTest
    void extendedQueuePollsEmptyAndClosesWithItsChannel(TestDevice device) {
        try (Context context = DeviceScope.openContext(device);
                CompletionChannel channel = context.createCompletionChannel()) {
            CompletionQueue cq = context.createCompletionQueue(CompletionQueueOptions.of(32)
                    .withChannel(channel)
                    .withFields(EnumSet.of(CompletionField.BYTE_LEN, CompletionField.IMM, CompletionField.QP_NUM,
                            CompletionField.SRC_QP))
                    .withEventAckBatch(2));
            assertTrue(cq.isExtended());
            assertTrue(cq.capacity() >= 32);
            assertEquals(2, cq.eventAckBatch());
            assertEquals(EnumSet.of(CompletionField.BYTE_LEN, CompletionField.IMM, CompletionField.QP_NUM,
                    CompletionField.SRC_QP), cq.fields());
            Completions batch = Completions.allocate(4);
            assertEquals(0, cq.poll(batch), "start_poll on an empty CQ answers ENOENT: 0 completions");
            assertEquals(0, cq.poll(batch), "and leaves the CQ usable");
            cq.requestNotification(false);
            channel.close();
            assertTrue(cq.isClosed());
        }
    }
}
