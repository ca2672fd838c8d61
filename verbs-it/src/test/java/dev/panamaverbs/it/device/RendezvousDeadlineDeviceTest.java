package dev.panamaverbs.it.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.it.support.RdmaCmSupport;
import dev.panamaverbs.messaging.ChannelOptions;
import dev.panamaverbs.messaging.MessageChannel;
import dev.panamaverbs.messaging.MessagingException;
import dev.panamaverbs.messaging.ReceivedMessage;
import dev.panamaverbs.messaging.RendezvousTimeoutException;
import dev.panamaverbs.messaging.registration.RegistrationBudget;
import dev.panamaverbs.testkit.DeviceTest;
import dev.panamaverbs.testkit.TestDevice;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The deadlines of blocking large sends (verbs-messaging, issues 2 and 24) over rxe through
 * rdma_cm, both ends in one JVM: a peer that stays connected but never answers DONE fails the
 * blocking send (or a large request's future) at its own deadline and ends both channels; a large respond or send on the
 * message handler's thread is refused at once and the channel carries on.
 */
class RendezvousDeadlineDeviceTest {
    private static final Duration LONG = Duration.ofSeconds(120);
    private static final int WINDOW = 8;
    /** The deadline under test: the send's, or the request's. */
    private static final Duration DONE_TIMEOUT = Duration.ofSeconds(5);

    private static ChannelOptions options() {
        // An unlimited cache budget, as RendezvousDeviceTest: the VM's memlock limit is not under test.
        return ChannelOptions.builder().receiveCredits(WINDOW).sendBuffers(4).maxMessageSize(4096)
                .rendezvousRegistrationBudget(RegistrationBudget.unlimited()).build();
    }

    /**
     * The peer spends the client's whole window on messages the client never receives: no credit
     * comes back, so the peer's DONE (which needs one) is never sent, while the connection stays
     * up and the peer still READs the offer.
     *
     * @return a 1 MiB message for the client to offer
     */
    private static MemorySegment largeMessageToASilencedPeer(ChannelLoop loop, Arena arena) {
        for (int i = 0; i < WINDOW; i++) {
            loop.serverSide.send(MemorySegment.ofArray(new byte[] {(byte) i}));
        }
        assertEquals(0, loop.serverSide.statistics().availableCredits(), "the peer has no credit left for a DONE");
        MemorySegment data = arena.allocate(1 << 20, 8);
        data.fill((byte) 5);
        return data;
    }

    @DeviceTest
    void aDoneThatNeverComesFailsTheBlockingSendAtItsDeadline(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        try (Arena arena = Arena.ofShared(); ChannelLoop loop = ChannelLoop.open(ip, options(), options())) {
            MessageChannel client = loop.client;
            MessageChannel serverSide = loop.serverSide;
            MemorySegment data = largeMessageToASilencedPeer(loop, arena);

            // On another thread, waited for with a bound: a send that hangs fails the test, never holds it.
            long start = System.nanoTime();
            Future<?> sending = loop.threads.submit(() -> {
                client.send(data, DONE_TIMEOUT);
                return null;
            });
            ExecutionException thrown = assertThrows(ExecutionException.class,
                    () -> sending.get(DONE_TIMEOUT.plusSeconds(20).toMillis(), TimeUnit.MILLISECONDS));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            RendezvousTimeoutException e = assertInstanceOf(RendezvousTimeoutException.class, thrown.getCause());
            System.out.println("rendezvous DONE deadline " + DONE_TIMEOUT + ": send threw after " + took.toMillis() + " ms: "
                    + e.getMessage());
            assertTrue(took.compareTo(DONE_TIMEOUT.minusMillis(50)) >= 0, "threw after " + took + ", before its deadline");
            assertTrue(took.compareTo(DONE_TIMEOUT.plusSeconds(20)) < 0, "threw after " + took);
            assertTrue(e.getMessage().contains("rendezvous message " + e.messageId() + " "), e.getMessage());
            assertTrue(e.getMessage().contains(DONE_TIMEOUT.toString()), e.getMessage());
            assertFalse(client.isOpen(), "the client's channel failed");
            assertSame(e, client.failure().orElseThrow(), "the channel failed with the send's timeout");
            assertThrows(MessagingException.class, () -> client.send(MemorySegment.ofArray(new byte[] {1})));

            // The peer's channel fails too (the client disconnected), after what arrived: the
            // large message it read first, then receive throws.
            long until = System.nanoTime() + LONG.toNanos();
            boolean read = false;
            while (true) {
                ReceivedMessage message;
                try {
                    message = serverSide.receive(Duration.ofNanos(Math.max(0, until - System.nanoTime())));
                } catch (MessagingException failed) {
                    if (serverSide.isOpen()) {
                        continue; // one message's failure, not the channel's
                    }
                    break;
                }
                assertNotNull(message, "the peer's channel did not fail within " + LONG);
                read |= message.length() == data.byteSize() && message.payload().mismatch(data) == -1;
                message.release();
            }
            assertFalse(serverSide.isOpen(), "the peer's channel failed");
            System.out.println("rendezvous DONE deadline: the peer had read the message whole: " + read);
        }
    }

    @DeviceTest
    void aLargeRequestWhoseDoneNeverComesFailsAtItsTimeout(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        try (Arena arena = Arena.ofShared(); ChannelLoop loop = ChannelLoop.open(ip, options(), options())) {
            MessageChannel client = loop.client;
            MemorySegment data = largeMessageToASilencedPeer(loop, arena);

            long start = System.nanoTime();
            CompletableFuture<ReceivedMessage> response = client.request(data, DONE_TIMEOUT);
            ExecutionException thrown = assertThrows(ExecutionException.class,
                    () -> response.get(DONE_TIMEOUT.plusSeconds(20).toMillis(), TimeUnit.MILLISECONDS));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            System.out.println("large request, timeout " + DONE_TIMEOUT + ": failed after " + took.toMillis() + " ms: "
                    + thrown.getCause());
            assertTrue(took.compareTo(DONE_TIMEOUT.minusMillis(50)) >= 0, "failed after " + took + ", before its timeout");
            MessagingException failed = assertInstanceOf(MessagingException.class, thrown.getCause());
            RendezvousTimeoutException expired = assertInstanceOf(RendezvousTimeoutException.class, failed.getCause(),
                    failed.toString());
            assertTrue(expired.getMessage().contains("the request's timeout of " + DONE_TIMEOUT), expired.getMessage());
            assertFalse(client.isOpen(), "the client's channel failed");
            assertSame(expired, client.failure().orElseThrow(), "the channel failed with the request's timeout");
        }
    }

    @DeviceTest
    void aLargeRespondOnTheHandlerThreadIsRefusedAndTheChannelCarriesOn(TestDevice device) throws Exception {
        InetAddress ip = RdmaCmSupport.requireRdmaCm(device);
        try (ChannelLoop loop = ChannelLoop.open(ip, options(), options())) {
            MessageChannel client = loop.client;
            MessageChannel serverSide = loop.serverSide;
            byte[] bytes = new byte[300_000];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) (i * 31 + 7);
            }
            MemorySegment answer = MemorySegment.ofArray(bytes);
            CompletableFuture<IllegalStateException> respondRefused = new CompletableFuture<>();
            CompletableFuture<IllegalStateException> sendRefused = new CompletableFuture<>();
            long sentBefore = serverSide.statistics().messagesSent();
            CompletableFuture<Long> sentAfterRefusals = new CompletableFuture<>();
            serverSide.setMessageHandler(message -> {
                long id = message.correlation();
                message.release();
                try {
                    serverSide.respond(id, answer);
                    respondRefused.completeExceptionally(new AssertionError("respond returned"));
                } catch (RuntimeException e) {
                    respondRefused.complete(e instanceof IllegalStateException refused ? refused : null);
                }
                try {
                    serverSide.send(answer);
                    sendRefused.completeExceptionally(new AssertionError("send returned"));
                } catch (RuntimeException e) {
                    sendRefused.complete(e instanceof IllegalStateException refused ? refused : null);
                }
                sentAfterRefusals.complete(serverSide.statistics().messagesSent());
                serverSide.respondAsync(id, answer);
            });

            ReceivedMessage response = client.request(MemorySegment.ofArray(new byte[] {1}), LONG)
                    .get(LONG.toSeconds(), TimeUnit.SECONDS);
            try {
                assertEquals(bytes.length, response.length());
                assertEquals(-1, response.payload().mismatch(answer), "first wrong byte");
            } finally {
                response.release();
            }
            IllegalStateException refused = respondRefused.get(LONG.toSeconds(), TimeUnit.SECONDS);
            assertNotNull(refused, "respond threw an IllegalStateException");
            assertTrue(refused.getMessage().contains("respondAsync"), refused.getMessage());
            IllegalStateException sendRefusal = sendRefused.get(LONG.toSeconds(), TimeUnit.SECONDS);
            assertNotNull(sendRefusal, "send threw an IllegalStateException");
            assertTrue(sendRefusal.getMessage().contains("sendAsync"), sendRefusal.getMessage());
            assertEquals(sentBefore, (long) sentAfterRefusals.get(LONG.toSeconds(), TimeUnit.SECONDS),
                    "nothing was posted by the refused calls");
            assertTrue(client.isOpen() && serverSide.isOpen(), "both channels are open");

            // And a blocking large respond from another thread still works on the same channel.
            serverSide.setMessageHandler(null);
            CompletableFuture<ReceivedMessage> second = client.request(MemorySegment.ofArray(new byte[] {2}), LONG);
            ReceivedMessage request = serverSide.receive(LONG);
            assertNotNull(request, "the second request arrived");
            request.release();
            serverSide.respond(request.correlation(), answer);
            ReceivedMessage again = second.get(LONG.toSeconds(), TimeUnit.SECONDS);
            try {
                assertEquals(-1, again.payload().mismatch(answer), "first wrong byte");
            } finally {
                again.release();
            }
        }
    }
}
