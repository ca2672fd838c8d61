package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.it.support.RdmaCmSupport;
import dev.panamaverbs.messaging.ChannelOptions;
import dev.panamaverbs.messaging.MessageChannel;
import dev.panamaverbs.messaging.MessagingException;
import dev.panamaverbs.messaging.ReceivedMessage;
import dev.panamaverbs.messaging.SendBuffer;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * {@link ChannelOptions#receiveBusyPoll()}: a receive that drains the completion queue on its own
 * thread before it parks. Round trips of random sizes arrive intact and in order on both
 * busy-polling ends; a busy poll longer than the receive's timeout still ends at the timeout; a
 * close from another thread ends a busy-polling receive with the channel's failure.
 */
class MessageChannelBusyPollDeviceTest {
    /** Longer than any wait here: the receive's own deadline or the close must end it. */
    private static final Duration SPIN = Duration.ofSeconds(10);
    private static final ChannelOptions BUSY = ChannelOptions.builder().receiveCredits(4).sendBuffers(2)
            .maxMessageSize(4096).receiveBusyPoll(SPIN).build();
    private static final int ROUND_TRIPS = 200;

    @DeviceTest
    void roundTripsOfRandomSizesArriveIntactAndInOrderOnBusyPollingEnds(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        long seed = System.nanoTime();
        System.out.println("MessageChannelBusyPollDeviceTest seed: " + seed);
        try (ChannelLoop loop = ChannelLoop.open(ip, BUSY, BUSY)) {
            Future<Integer> echoed = loop.threads.submit(() -> echo(loop.serverSide));
            Random sizes = new Random(seed);
            for (int i = 0; i < ROUND_TRIPS; i++) {
                int size = 1 + sizes.nextInt(BUSY.maxMessageSize());
                try (SendBuffer buffer = loop.client.sendBuffer()) {
                    fill(buffer.segment(), i, size);
                    buffer.send(size);
                }
                ReceivedMessage reply = loop.client.receive(RdmaCmSupport.WAIT);
                assertTrue(reply != null, "no echo of round trip " + i + " within " + RdmaCmSupport.WAIT);
                try {
                    assertEquals(size, reply.payload().byteSize(), "round trip " + i);
                    assertEquals(-1, expected(i, size).mismatch(reply.payload()), "round trip " + i + ": first wrong byte");
                } finally {
                    reply.release();
                }
            }
            assertEquals(ROUND_TRIPS, echoed.get(RdmaCmSupport.WAIT.toSeconds(), TimeUnit.SECONDS));
            assertTrue(loop.client.isOpen() && loop.serverSide.isOpen(), loop.client + " " + loop.client.failure());
        }
    }

    @DeviceTest
    void aBusyPollLongerThanTheTimeoutStillEndsAtTheTimeout(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        try (ChannelLoop loop = ChannelLoop.open(ip, BUSY, BUSY)) {
            long start = System.nanoTime();
            assertNull(loop.client.receive(Duration.ofMillis(100)), "nothing was sent");
            long elapsed = System.nanoTime() - start;
            assertTrue(elapsed < SPIN.toNanos() / 2, "a 100 ms receive spun for " + elapsed / 1_000_000 + " ms");
            assertNull(loop.client.receive(Duration.ZERO), "zero: one look");
        }
    }

    @DeviceTest
    void aCloseFromAnotherThreadEndsABusyPollingReceive(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        try (ChannelLoop loop = ChannelLoop.open(ip, BUSY, BUSY)) {
            Future<ReceivedMessage> receiving = loop.threads.submit(() -> loop.client.receive(SPIN.multipliedBy(3)));
            Thread.sleep(300); // let it spin
            loop.client.close();
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> receiving.get(SPIN.toSeconds(), TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof MessagingException, () -> "not the channel's failure: " + e.getCause());
        }
    }

    /** The server side: receives each message and sends the same bytes back. */
    private static int echo(MessageChannel channel) {
        for (int i = 0; i < ROUND_TRIPS; i++) {
            ReceivedMessage message = channel.receive(RdmaCmSupport.WAIT);
            if (message == null) {
                throw new AssertionError("round trip " + i + " never reached the server");
            }
            try {
                channel.send(message.payload());
            } finally {
                message.release();
            }
        }
        return ROUND_TRIPS;
    }

    private static void fill(MemorySegment target, int message, int size) {
        MemorySegment.copy(expected(message, size), 0, target, 0, size);
    }

    private static MemorySegment expected(int message, int size) {
        MemorySegment bytes = MemorySegment.ofArray(new byte[size]);
        for (int p = 0; p < size; p++) {
            bytes.set(ValueLayout.JAVA_BYTE, p, (byte) (message * 7 + p * 13 + (p >>> 8)));
        }
        return bytes;
    }
}
