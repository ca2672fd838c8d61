package dev.panamaverbs.it.twohost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.panamaverbs.values.CompletionStatus;

import dev.panamaverbs.Context;
import dev.panamaverbs.testkit.DeviceCapability;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.onesided.ChannelFailedException;
import dev.panamaverbs.onesided.OneSidedChannel;
import dev.panamaverbs.onesided.RemoteSlot;
import dev.panamaverbs.onesided.RemoteWindow;
import dev.panamaverbs.onesided.SignalSlot;
import dev.panamaverbs.onesided.Window;
import dev.panamaverbs.onesided.WindowDescriptor;
import dev.panamaverbs.it.support.Peer;
import dev.panamaverbs.it.support.TwoHostExtension;
import dev.panamaverbs.it.support.TwoHostTest;
import dev.panamaverbs.it.support.TwoHosts;
import java.io.IOException;
import java.time.Duration;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One-sided windows across two hosts (issue 12). {@link OneSidedPeer} on host B does 10,000
 * putWithSignalAndCounter of varied sizes (1..512 bytes, every 16th 4000) into a 64-entry ring in
 * this host's window; this test waits on the signal and checks, for each signal value i, that
 * every byte of put i is already there, returning credit every 8 puts with a signal of its own.
 * Then the producer's counter (bumped by loop-back atomics on its companion queue pair) must be
 * 10,000 and the signal 10,000. Run with the fence, where no put may be incomplete, and without,
 * where the test reports what rxe shows. Last, the producer's process is killed: the puts posted
 * to it then, the wait on a signal it will never send and every later operation fail with
 * RETRY_EXC_ERR within {@link RcConnection#detectionBound}, nothing waits for ever.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(TwoHostExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OneSidedTwoHostTest {
    private static final int OPS = 10_000;

    private Peer peer;
    private Context context;
    private PeerLink link;
    private Window window;
    private OneSidedChannel channel;
    private RemoteWindow producer;
    /** Whether the last test killed the producer (then there is no one to say "quit" to). */
    private boolean peerKilled;

    @BeforeAll
    void connect(TwoHosts hosts) throws IOException {
        context = Verbs.device(hosts.device().name()).orElseThrow().open();
        // Endpoints exchanged out of band, then ibv_modify_qp: not on iWARP (a skip naming it).
        DeviceCapability.CONNECT_WITHOUT_CM.require(context);
        ProtectionDomain pd = context.allocateProtectionDomain();
        QueuePair qp = pd.createQueuePair(OneSidedPeer.queuePairOptions(
                context.createCompletionQueue(2 * OneSidedPeer.QUEUE_DEPTH)));
        peer = hosts.startPeer(OneSidedPeer.class);
        link = PeerLink.connect(hosts, peer, qp, PeerLink.endpoint(qp, hosts.device(), 0x00A1A1));
        window = Window.allocate(pd, SignalRing.WINDOW_BYTES);
        channel = OneSidedChannel.open(qp);
        String answer = link.control().ask("window " + HexFormat.of().formatHex(window.descriptor().toBytes()));
        producer = RemoteWindow.open(WindowDescriptor.fromBytes(HexFormat.of().parseHex(answer.substring("window ".length()))));
    }

    @AfterAll
    void disconnect() throws IOException {
        // try-with-resources skips null resources and closes the others in reverse: channel, link, context
        try (Context opened = context; PeerLink connected = link; OneSidedChannel open = channel) {
            if (connected != null && !peerKilled) {
                assertEquals("bye", connected.control().ask("quit"));
                peer.assertSucceeded(Duration.ofSeconds(60));
            }
        }
    }

    @TwoHostTest
    @Order(1)
    void withTheFenceEveryPutIsCompleteWhenItsSignalArrives() throws Exception {
        assertEquals(0, consume(0, true), "puts seen incomplete at their signal, with the fence");
    }

    @TwoHostTest
    @Order(2)
    void withoutTheFenceRxeStillExecutesInOrder() throws Exception {
        long incomplete = consume(1, false);
        System.out.println("OneSidedTwoHostTest: without the fence, " + incomplete + " of " + OPS
                + " puts were incomplete when their signal arrived");
        assertEquals(0, incomplete, "rxe's responder executes an RC queue's requests in order, fence or not");
    }

    @TwoHostTest
    @Order(3)
    void aKilledPeerFailsTheOutstandingPutsAndTheWaitsWithRetryExceeded() throws Exception {
        peerKilled = true;
        peer.kill();
        assertTrue(peer.hasExited(), "the producer's process is gone");
        Duration predicted = RcConnection.predictedRetryExhaustion(PeerLink.ACK_TIMEOUT);
        Duration bound = RcConnection.detectionBound(predicted);
        int run = 2;
        RemoteSlot credit = producer.slot(SignalRing.creditOffset(run));
        long started = System.nanoTime();
        long last = 0;
        for (long i = 1; i <= 4; i++) {
            long at = SignalRing.entryOffset(i);
            last = channel.putWithSignal(producer, at, window, at, SignalRing.size(i), credit, 1);
        }
        // The signal the dead producer will never send: the wait ends with the puts' failure, not at its timeout.
        SignalSlot signal = window.slot(SignalRing.signalOffset(run));
        ChannelFailedException signalWait = assertThrows(ChannelFailedException.class,
                () -> channel.waitSignal(signal, 1, bound));
        long millis = (System.nanoTime() - started) / 1_000_000;
        System.out.printf("OneSidedTwoHostTest: producer killed: the wait on its signal failed after %d ms with %s;"
                + " predicted (retry %d + 1) x ACK timeout = %d ms%n", millis, signalWait.status(), RcConnection.RETRY_COUNT,
                predicted.toMillis());
        assertEquals(CompletionStatus.RETRY_EXC_ERR, signalWait.status(), signalWait.getMessage());
        assertTrue(millis >= predicted.toMillis() / 2, "failed after " + millis + " ms, before the retries could have run");
        long lastPut = last;
        ChannelFailedException putWait = assertThrows(ChannelFailedException.class, () -> channel.waitLocal(lastPut, bound));
        assertEquals(CompletionStatus.RETRY_EXC_ERR, putWait.status(), putWait.getMessage());
        assertFalse(channel.isComplete(lastPut), "a put to the dead peer never completes successfully");
        ChannelFailedException later = assertThrows(ChannelFailedException.class,
                () -> channel.putWithSignal(producer, SignalRing.entryOffset(1), window, SignalRing.entryOffset(1), 1, credit, 1));
        assertEquals(CompletionStatus.RETRY_EXC_ERR, later.status());
        assertEquals(CompletionStatus.RETRY_EXC_ERR, channel.failure().orElseThrow().status());
    }

    /** Runs one producer run and checks every put at its signal; returns how many puts were incomplete. */
    private long consume(int run, boolean fence) throws Exception {
        SignalSlot signal = window.slot(SignalRing.signalOffset(run));
        RemoteSlot credit = producer.slot(SignalRing.creditOffset(run));
        link.control().send("run " + run + " " + OPS + " " + (fence ? 1 : 0));
        long started = System.nanoTime();
        long incomplete = 0;
        long missingBytes = 0;
        for (long i = 1; i <= OPS; i++) {
            channel.waitSignal(signal, i, OneSidedPeer.WAIT);
            int missing = SignalRing.mismatches(window.memory(), i);
            if (missing > 0) {
                incomplete++;
                missingBytes += missing;
            }
            if (i % SignalRing.ACK_EVERY == 0) {
                channel.signal(credit, SignalRing.ACK_EVERY, false);
            }
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        String[] done = link.control().receive().split(" ");
        assertEquals("done", done[0], String.join(" ", done));
        System.out.println("OneSidedTwoHostTest: run " + run + (fence ? " with" : " without") + " the fence: "
                + OPS + " puts in " + millis + " ms here, " + done[2] + " ms on the producer; producer counter "
                + done[1] + "; incomplete puts " + incomplete + " (" + missingBytes + " bytes missing)");
        assertEquals(OPS, Long.parseLong(done[1]), "the producer's counter counts every finished operation");
        assertEquals(OPS, channel.readSignal(signal), "one add per put");
        return incomplete;
    }
}
