package dev.panamaverbs.it.twohost;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.panamaverbs.Context;
import dev.panamaverbs.ProtectionDomain;
import dev.panamaverbs.QueuePair;
import dev.panamaverbs.Verbs;
import dev.panamaverbs.onesided.OneSidedChannel;
import dev.panamaverbs.onesided.RemoteSlot;
import dev.panamaverbs.onesided.RemoteWindow;
import dev.panamaverbs.onesided.SignalSlot;
import dev.panamaverbs.onesided.Window;
import dev.panamaverbs.onesided.WindowDescriptor;
import dev.panamaverbs.testkit.Peer;
import dev.panamaverbs.testkit.TwoHostExtension;
import dev.panamaverbs.testkit.TwoHostTest;
import dev.panamaverbs.testkit.TwoHosts;
import java.io.IOException;
import java.time.Duration;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One-sided windows across two hosts (issue 12). {@link OneSidedPeer} on host B does 10,000
 * putWithSignalAndCounter of varied sizes (1..512 bytes, every 16th 4000) into a 64-entry ring in
 * this host's window; this test waits on the signal and checks, for each signal value i, that
 * every byte of put i is already there, returning credit every 8 puts with a signal of its own.
 * Then the producer's counter (bumped by loop-back atomics on its companion queue pair) must be
 * 10,000 and the signal 10,000. Run with the fence, where no put may be incomplete, and without,
 * where the test reports what rxe shows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(TwoHostExtension.class)
class OneSidedTwoHostTest {
    private static final int OPS = 10_000;

    private Peer peer;
    private Context context;
    private PeerLink link;
    private Window window;
    private OneSidedChannel channel;
    private RemoteWindow producer;

    @BeforeAll
    void connect(TwoHosts hosts) throws IOException {
        context = Verbs.device(hosts.device().name()).orElseThrow().open();
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
            if (connected != null) {
                assertEquals("bye", connected.control().ask("quit"));
                peer.assertSucceeded(Duration.ofSeconds(60));
            }
        }
    }

    @TwoHostTest
    void withTheFenceEveryPutIsCompleteWhenItsSignalArrives() throws Exception {
        assertEquals(0, consume(0, true), "puts seen incomplete at their signal, with the fence");
    }

    @TwoHostTest
    void withoutTheFenceRxeStillExecutesInOrder() throws Exception {
        long incomplete = consume(1, false);
        System.out.println("OneSidedTwoHostTest: without the fence, " + incomplete + " of " + OPS
                + " puts were incomplete when their signal arrived");
        assertEquals(0, incomplete, "rxe's responder executes an RC queue's requests in order, fence or not");
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
